import Foundation

/// Hand-written flag parsing: `--name value`, `--name=value`, `-o value`, and boolean flags.
struct Arguments {
    private(set) var values: [String: String] = [:]
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Parses `args` given the flags that take a value and the flags that do not.
    init(
        _ args: [String], valued: Set<String>, boolean: Set<String>, repeatable: Set<String> = [],
        aliases: [String: String] = [:]
    ) throws {
        var i = 0
        while i < args.count {
            var arg = args[i]
            let typed = arg
            i += 1
            if let full = aliases[arg] { arg = full }
            guard arg.hasPrefix("-"), arg != "-" else {
                positional.append(arg)
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if repeatable.contains(name) {
                if let inline {
                    repeated[name, default: []].append(inline)
                } else {
                    guard i < args.count else { throw CLIError.usage("\(typed) needs a value") }
                    repeated[name, default: []].append(args[i])
                    i += 1
                }
            } else if valued.contains(name) {
                guard values[name] == nil else { throw CLIError.usage("\(name) is given twice") }
                if let inline {
                    values[name] = inline
                } else {
                    guard i < args.count else { throw CLIError.usage("\(typed) needs a value") }
                    values[name] = args[i]
                    i += 1
                }
            } else if boolean.contains(name), inline == nil {
                flags.insert(name)
            } else {
                let known = valued.union(boolean).union(repeatable).sorted().joined(separator: " ")
                throw CLIError.usage("unknown option '\(arg)'; known options: \(known)")
            }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A finite number.
    func number(_ name: String) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw CLIError.usage("\(name) '\(text)' is not a finite number")
        }
        return value
    }

    /// Comma-separated finite numbers, exactly `count` of them.
    func numbers(_ name: String, count: Int, form: String) throws -> [Double]? {
        guard let text = values[name] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw CLIError.usage(
                "\(name) '\(text)' is invalid: expected \(form), \(count) finite numbers separated by commas")
        }
        return parts.compactMap { $0 }
    }
}
