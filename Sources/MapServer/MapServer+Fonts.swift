import Foundation
import MapData
import MapRaster

/// The glyphs a GL client of the server reads: the fonts folder's PBFs first, glyphs made from the installed
/// fonts for the rest; the font names it may ask for.
final class ServedFonts: Sendable {
    let folder: GlyphFolder?
    let installed: InstalledGlyphs
    /// Every font name the configured styles' `text-font` values hold (drawn with a fallback when not installed).
    let styleFonts: Set<String>
    private let listing = OnceCache<Int, [String]>()

    /// The most fonts a stack may name, and the longest name.
    static let maximumStack = 16
    static let maximumName = 256

    init(configuration: ServerConfiguration) {
        folder = configuration.glyphFolder
        installed = InstalledGlyphs(catalog: configuration.fonts)
        var names = Set<String>()
        for entry in configuration.styles {
            guard let layers = (try? JSONValue.parse(entry.json))?["layers"]?.array else { continue }
            for layer in layers {
                if let value = layer["layout"]?["text-font"] { Self.collectStrings(value, into: &names) }
            }
        }
        styleFonts = names
    }

    /// The strings of a `text-font` value: a literal array, or the font arrays inside an expression.
    private static func collectStrings(_ value: JSONValue, into names: inout Set<String>) {
        if let text = value.string, text.contains(" ") || text.first?.isUppercase == true {
            names.insert(text)
        } else if let items = value.array {
            for item in items.prefix(1_000) { collectStrings(item, into: &names) }
        } else if let members = value.members {
            for (_, item) in members.prefix(1_000) { collectStrings(item, into: &names) }
        }
    }

    /// Whether a font name may be asked for: a font of the folder, an installed face, or a style's font.
    func serves(_ name: String) -> Bool {
        guard !name.hasPrefix("/") else { return false }  // the catalog takes a path to a font file: not here
        return folder?.contains(font: name) == true || styleFonts.contains(name)
            || installed.catalog.entry(named: name) != nil
    }

    /// The font names `/fonts.json` lists, sorted, each once.
    var names: [String] {
        (try? listing.value(0) {
            Array(Set((folder?.fontNames ?? []) + styleFonts + installed.catalog.entries.map(\.name))).sorted()
        }) ?? []
    }

    /// The range of a stack: the folder's fonts combined per glyph (stack order, first wins), then glyphs made
    /// from the installed fonts for the stack's other fonts (with the fallback chain) where the folder's lack
    /// them.
    func range(stack: [String], index: Int) throws -> GlyphRange {
        var range = GlyphRange(index: index, fontStack: stack.joined(separator: ","))
        if let folder, let fromFolder = try folder.glyphRange(fontStack: stack, index: index) {
            range.fill(from: fromFolder)
        }
        let rest = stack.filter { folder?.contains(font: $0) != true }
        if !rest.isEmpty, let made = try installed.glyphRange(fontStack: rest, index: index) {
            range.fill(from: made)
        }
        return range
    }
}

extension MapServer {
    /// `/fonts.json`: the font names a style's `text-font` may use with this server's glyphs.
    func fontList() -> HTTPResponse {
        json(.array(fonts.names.map { .string($0) }))
    }

    /// `/fonts/{fontstack}/{start}-{end}.pbf`: a glyph range (MapLibre's `glyphs` URL). A range that is not
    /// one of the 256 (`0-255` ... `65280-65535`) or a stack naming a font that is not served is a `400`, as in
    /// tileserver-gl; a fonts-folder file that is not a glyph PBF is a `500` naming the file and range.
    func fontRoute(_ parts: [String], _ request: HTTPRequest) -> HTTPResponse {
        guard parts.count == 2, parts[1].hasSuffix(".pbf") else {
            return .error(404, "glyphs are at /fonts/{fontstack}/{start}-{end}.pbf", parameter: "path")
        }
        guard let index = GlyphRange.index(named: parts[1]) else {
            return .error(
                400,
                "range '\(parts[1].prefix(40))' must be START-END.pbf, START a multiple of 256 up to 65280 and "
                    + "END = START + 255", parameter: "range")
        }
        let stack = parts[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !stack.isEmpty, stack.count <= ServedFonts.maximumStack,
            stack.allSatisfy({ !$0.isEmpty && $0.count <= ServedFonts.maximumName })
        else {
            return .error(
                400, "a font stack is 1 to \(ServedFonts.maximumStack) comma-separated font names",
                parameter: "fontstack")
        }
        if let unknown = stack.first(where: { !fonts.serves($0) }) {
            return .error(400, "font '\(unknown)' is not served; see /fonts.json", parameter: "fontstack")
        }
        return cached(cacheKey(request)) {
            do {
                let range = try fonts.range(stack: stack, index: index)
                return .data(Data(range.pbfBytes()), contentType: "application/x-protobuf")
            } catch {
                return .error(500, "\(error)", parameter: nil)
            }
        }
    }
}
