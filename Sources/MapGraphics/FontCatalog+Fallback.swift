import Foundation

/// The face a `text-font` stack is drawn with when none of its fonts is installed.
public struct FontFallback: Sendable, Equatable, CustomStringConvertible {
    /// The stack as the style gives it.
    public var stack: [String]
    /// The installed face used instead.
    public var face: FontCatalog.Entry

    /// The warning: which stack, and the face drawn instead.
    public var description: String {
        "text-font [" + stack.map { "\"\($0)\"" }.joined(separator: ", ")
            + "]: no font of the stack is installed; drawn with \"\(face.name)\" (the installed face closest in "
            + "weight and slant)"
    }
}

extension FontCatalog {
    /// What a font name asks for: its family, weight (100 thin ... 400 regular ... 700 bold ... 900 black),
    /// whether it is italic and whether it is of another width than normal (condensed, expanded).
    struct FaceTraits: Equatable {
        var family: String
        var weight: Int
        var italic: Bool
        var narrow: Bool

        /// Words of style names and their weights; two-word names (`Semi Bold`) are joined first.
        static let weights: [String: Int] = [
            "thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300, "regular": 400,
            "book": 400, "normal": 400, "roman": 400, "medium": 500, "semibold": 600, "demibold": 600, "demi": 600,
            "bold": 700, "extrabold": 800, "ultrabold": 800, "black": 900, "heavy": 900,
        ]
        static let slants: Set<String> = ["italic", "oblique"]
        static let widths: Set<String> = [
            "condensed", "semicondensed", "extracondensed", "narrow", "expanded", "semiexpanded", "extraexpanded",
        ]

        /// Traits of a name such as "Open Sans Semi Bold Italic" (family "open sans", 600, italic): style
        /// words are taken from the end.
        init(name: String) {
            var words = name.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "-" }).map(String.init)
            var weight: Int?
            var italic = false
            var narrow = false
            while let last = words.last {
                let joined = words.count >= 2 ? words[words.count - 2] + last : ""
                if ["semi", "demi", "extra", "ultra"].contains(words.count >= 2 ? words[words.count - 2] : ""),
                    let w = Self.weights[joined] ?? (Self.widths.contains(joined) ? 0 : nil)
                {
                    if w == 0 { narrow = true } else if weight == nil { weight = w }
                    words.removeLast(2)
                } else if let w = Self.weights[last] {
                    if weight == nil { weight = w }
                    words.removeLast()
                } else if Self.slants.contains(last) {
                    italic = true
                    words.removeLast()
                } else if Self.widths.contains(last) {
                    narrow = true
                    words.removeLast()
                } else {
                    break
                }
            }
            self.family = words.joined(separator: " ")
            self.weight = weight ?? 400
            self.italic = italic
            self.narrow = narrow
        }

        /// How far a face is from what is asked: slant first, then width, then weight.
        func distance(to face: FaceTraits) -> Int {
            (italic == face.italic ? 0 : 10_000) + (narrow == face.narrow ? 0 : 1_000) + abs(weight - face.weight)
        }
    }

    /// The families tried, in order, when a stack names no family the catalog has.
    static let fallbackFamilies = ["noto sans", "dejavu sans", "open sans"]

    /// The face a stack that names no installed font is drawn with, or nil when the stack has an installed
    /// face (or the catalog has none at all). The family is the stack's own when some of its faces are
    /// installed, else an installed family its names contain ("Klokantech Noto Sans Regular" takes Noto
    /// Sans), else Noto Sans, DejaVu Sans or Open Sans; within it, the face of the first name's slant
    /// (italic or not) and width, closest in weight (Light 300, Regular 400, Medium 500, Semibold 600, Bold
    /// 700, ...), the first scanned on a tie.
    /// A stack of file paths only (`/fonts/x.ttf`) has no fallback: a missing file is an error naming it.
    public func fallback(for stack: [String]) -> FontFallback? {
        guard !stack.contains(where: { entry(named: $0) != nil }), !stack.allSatisfy({ $0.hasPrefix("/") }) else {
            return nil
        }
        let all = entries
        guard !all.isEmpty else { return nil }
        let families = Set(all.map { FaceTraits(name: $0.name).family })
        let asked = stack.map { FaceTraits(name: $0) }
        var family: String?
        for traits in asked where family == nil {
            if families.contains(traits.family) {
                family = traits.family
            } else {
                let padded = " \(traits.family) "
                family = families.filter { padded.contains(" \($0) ") }.max { $0.count < $1.count }
            }
        }
        family = family ?? Self.fallbackFamilies.first(where: families.contains)
        let target = asked.first ?? FaceTraits(name: "")
        // On a tie in weight, CSS's rule: heavier faces for regular and bolder requests, lighter for light ones.
        let heavierFirst = target.weight >= 400
        var best: (entry: Entry, rank: [Int])?
        for entry in all {
            let traits = FaceTraits(name: entry.name)
            guard family == nil || traits.family == family else { continue }
            let rank = [target.distance(to: traits), (traits.weight > target.weight) == heavierFirst ? 0 : 1]
            if let current = best, !rank.lexicographicallyPrecedes(current.rank) { continue }
            best = (entry, rank)
        }
        return best.map { FontFallback(stack: stack, face: $0.entry) }
    }
}
