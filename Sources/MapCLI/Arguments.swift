import Foundation

/// Flag parsing driven by a command's option table: `--name value`, `--name=value`, `-o value`, boolean
/// flags and repeatable options.
struct Arguments {
    private(set) var values: [String: String] = [:]
    private(set) var repeated: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Parses `args` with the options of `command`; short names are stored under the long name.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an unknown option (with the closest known one when it looks like
    ///   a typo), a missing value, a value given to a flag, or a non-repeatable option given twice.
    init(_ args: [String], command: CommandSpec) throws {
        var i = 0
        while i < args.count {
            let typed = args[i]
            i += 1
            guard typed.hasPrefix("-"), typed != "-" else {
                positional.append(typed)
                continue
            }
            var name = typed
            var inline: String?
            if let eq = typed.firstIndex(of: "="), typed.hasPrefix("--") {
                name = String(typed[..<eq])
                inline = String(typed[typed.index(after: eq)...])
            }
            guard let option = command.option(name) else {
                let known = command.parsedOptions.map(\.name).sorted()
                let guess = Suggestion.closest(to: name, in: known).map { "did you mean '\($0)'? " } ?? ""
                throw CLIError.usage(
                    "unknown option '\(typed)' for \(command.name); \(guess)known options: "
                        + known.joined(separator: " "))
            }
            let long = option.name
            if option.value == .none {
                guard inline == nil else { throw CLIError.usage("\(long) takes no value, got '\(typed)'") }
                flags.insert(long)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else {
                    throw CLIError.usage("\(typed) needs a value: \(option.synopsis)")
                }
                value = args[i]
                i += 1
            }
            if option.repeatable {
                repeated[long, default: []].append(value)
            } else {
                guard values[long] == nil else { throw CLIError.usage("\(long) is given twice") }
                values[long] = value
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
