import Foundation

/// One option of a subcommand: the single source of the parser, the help, the completion scripts and the
/// man page.
struct OptionSpec: Sendable {
    /// What kind of value the option takes, for the parser and the shell completions.
    enum Value: Sendable, Equatable {
        /// A boolean flag: no value.
        case none
        /// Free text (a number, coordinates, a name), shown as `name` in the help.
        case text(String)
        /// A file or folder name.
        case file(String)
        /// One of a fixed list of words.
        case choice(String, [String])

        /// The value's name in the help (`FILE`, `LAT,LON`), or nil for a flag.
        var name: String? {
            switch self {
            case .none: return nil
            case .text(let name), .file(let name), .choice(let name, _): return name
            }
        }
    }

    /// The long name, with its dashes: `--output`.
    var name: String
    /// An alias, with its dashes: a letter (`-o`) or another long name (`--bearing`, MapLibre's word).
    var short: String?
    var value: Value
    /// One or more lines of help; the first is the summary used by completions.
    var help: String
    /// Whether the option may be given more than once (its values are collected in order).
    var repeatable = false
    /// False for an option that is in the table for a coming feature but not wired yet: the parser, the
    /// help, the completions and the man page leave it out until it is set to true.
    var available = true

    init(
        _ name: String, _ short: String? = nil, _ value: Value = .none, _ help: String, repeatable: Bool = false,
        available: Bool = true
    ) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.available = available
    }

    /// The option as the help shows it: `-o, --output FILE`.
    var synopsis: String {
        (short.map { "\($0), " } ?? "") + name + (value.name.map { " \($0)" } ?? "")
    }
}

/// A subcommand: its name, usage lines, options, and the text after the options.
struct CommandSpec: Sendable {
    /// The words after `mapraster`: `["tiles"]`, `["mbtiles", "merge"]`.
    var path: [String]
    /// One line: what it does.
    var summary: String
    /// Usage lines without the leading `mapraster `.
    var usage: [String]
    /// Positional arguments explained, as (name, help) rows shown before the options.
    var arguments: [(String, String)] = []
    var options: [OptionSpec]
    /// Paragraphs after the options (exit codes, limits).
    var footer: String = ""
    /// What completes positional arguments: files (most commands) or nothing.
    var positionalFiles = false

    var name: String { path.joined(separator: " ") }

    /// Options the parser accepts: the available ones, plus `--help`/`-h` that every command has.
    var parsedOptions: [OptionSpec] {
        options.filter(\.available) + [OptionSpec("--help", "-h", .none, "print this help")]
    }

    /// The option named `name` (long or short).
    func option(_ name: String) -> OptionSpec? {
        parsedOptions.first { $0.name == name || $0.short == name }
    }

    /// The help text: summary, usage, arguments, options in two columns, footer.
    var helpText: String {
        var text = "mapraster \(name): \(summary)\n\nUSAGE\n"
        for line in usage { text += "  mapraster \(line)\n" }
        if !arguments.isEmpty {
            text += "\nARGUMENTS\n"
            for (name, help) in arguments { text += Self.row(name, help) }
        }
        text += "\nOPTIONS\n"
        for option in parsedOptions {
            text += Self.row(option.synopsis, option.help + (option.repeatable ? " (repeatable)" : ""))
        }
        if !footer.isEmpty { text += "\n" + footer + "\n" }
        return text + "\n"
    }

    /// One help row: the left column padded to `column` characters (or on its own line when longer), the
    /// help lines indented under each other.
    static func row(_ left: String, _ help: String, column: Int = 24) -> String {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = String(repeating: " ", count: column + 2)
        var text = "  " + left
        if left.count <= column - 2 {
            text += String(repeating: " ", count: column - left.count) + lines[0] + "\n"
        } else {
            text += "\n" + indent + lines[0] + "\n"
        }
        for line in lines.dropFirst() { text += indent + line + "\n" }
        return text
    }
}

/// "Did you mean" suggestions by edit distance.
enum Suggestion {
    /// The candidate closest to `word` by Levenshtein distance when it is close enough to be a typo: at
    /// most 2 edits, and fewer than half the word's length (or `word` is a prefix of exactly one candidate).
    static func closest(to word: String, in candidates: [String]) -> String? {
        let prefixed = candidates.filter { $0.hasPrefix(word) }
        if word.count >= 3, prefixed.count == 1 { return prefixed[0] }
        let scored = candidates.map { ($0, distance(word, $0)) }.filter { $0.1 <= 2 && $0.1 * 2 < max(word.count, 2) }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// The Levenshtein distance (insertions, deletions, substitutions) between two strings' characters;
    /// words longer than 64 characters are compared by their first 64 (work stays bounded).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.prefix(64))
        let y = Array(b.prefix(64))
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[y.count]
    }
}
