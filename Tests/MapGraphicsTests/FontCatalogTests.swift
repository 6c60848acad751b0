import Foundation
import MapGraphics
import MapTestSupport
import Testing

/// The font catalog against fontconfig's reading of Debian's font files (`fc-scan`, committed in
/// fixtures/fonts/names.tsv by Scripts/prepare-font-expectations.sh), and against hostile font directories.
@Suite("FontCatalog")
struct FontCatalogTests {
    struct NamedFace: Sendable, CustomStringConvertible {
        var path: String
        var index: Int
        var family: String
        var style: String
        var description: String { (path as NSString).lastPathComponent }
    }

    static let names: [NamedFace] = {
        guard let text = try? String(contentsOf: Fixtures.url("fonts/names.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 4, let index = Int(f[1]) else { return nil }
            return NamedFace(path: f[0], index: index, family: f[2], style: f[3])
        }
    }()

    @Test("The table of fc-scan names is there")
    func tableLoaded() { #expect(Self.names.count == 9) }

    @Test("Each face is indexed under the family and style fc-scan reads from the file", arguments: names)
    func namesMatchFontconfig(face: NamedFace) throws {
        let entry = try #require(
            FontCatalog.default.entries.first { $0.path == face.path && $0.index == face.index }, "\(face.path)")
        #expect(entry.family == face.family)
        #expect(entry.style == face.style)
        // And the stack name "Family Style" finds it.
        let found = try #require(FontCatalog.default.entry(named: "\(face.family) \(face.style)"))
        #expect(found.path == face.path)
    }

    @Test(
        "Stack names match case-insensitively, Regular/Book/Normal alike, a bare family its regular face",
        arguments: [
            ("DejaVu Sans", "DejaVuSans.ttf"), ("DejaVu Sans Book", "DejaVuSans.ttf"),
            ("dejavu sans regular", "DejaVuSans.ttf"), ("DejaVu  Sans Normal", "DejaVuSans.ttf"),
            ("DejaVu Sans Bold", "DejaVuSans-Bold.ttf"), ("DEJAVU SANS MONO BOOK", "DejaVuSansMono.ttf"),
            ("IPAexGothic", "ipaexg.ttf"), ("IPAexGothic Regular", "ipaexg.ttf"),
            ("Lohit Devanagari Regular", "Lohit-Devanagari.ttf"),
        ])
    func stackNames(name: String, file: String) throws {
        let entry = try #require(FontCatalog.default.entry(named: name))
        #expect((entry.path as NSString).lastPathComponent == file)
    }

    @Test("A stack's first installed font is its primary face; unknown names in it are skipped")
    func stackOrder() throws {
        let font = try FontCatalog.default.font(stack: [
            "Open Sans Semibold Unknown", "DejaVu Sans Bold", "DejaVu Sans",
        ])
        #expect(font.path.hasSuffix("DejaVuSans-Bold.ttf"))
        #expect(font.stackCount == 2)
        #expect(font.faces.contains { $0.path.hasSuffix("ipaexg.ttf") })  // the fallback chain follows
    }

    @Test("A stack of unknown families falls back to an installed face (no longer an error, issue 25)")
    func unknownStack() throws {
        let font = try FontCatalog.default.font(stack: ["Comic Sans MS", "Papyrus Regular"])
        let fallback = try #require(FontCatalog.default.fallback(for: ["Comic Sans MS", "Papyrus Regular"]))
        #expect(font.path == fallback.face.path)
        #expect(fallback.description.contains("\"Comic Sans MS\""))
        #expect(fallback.face.style.lowercased() == "regular" || fallback.face.style == "Book")
    }

    @Test("A configured fallback stack stands in for a stack of unknown families")
    func fallbackStack() throws {
        let catalog = try FontCatalog(directories: [], fallbackStack: ["DejaVu Sans Bold"])
        let font = try catalog.font(stack: ["Comic Sans MS"])
        #expect(font.path.hasSuffix("DejaVuSans-Bold.ttf"))
    }

    /// A directory with a truncated .ttf, a text file named .otf, a good copy of DejaVu Sans, and an
    /// empty subdirectory.
    static func hostileDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fontcatalog-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let dejaVu = try Data(contentsOf: URL(fileURLWithPath: Font.defaultPath))
        try dejaVu.prefix(4096).write(to: dir.appendingPathComponent("Truncated.ttf"))
        try dejaVu.prefix(12).write(to: dir.appendingPathComponent("Header.ttf"))
        try Data("this is not a font\n".utf8).write(to: dir.appendingPathComponent("Notes.otf"))
        try Data().write(to: dir.appendingPathComponent("Empty.ttc"))
        try dejaVu.write(to: dir.appendingPathComponent("Good.ttf"))
        return dir
    }

    @Test("Unreadable and non-font files are skipped with a warning naming each; the good font is found")
    func hostileFiles() throws {
        let dir = try Self.hostileDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = try FontCatalog(directories: [dir.path], includeDefaults: false)
        #expect(catalog.entries.map { ($0.path as NSString).lastPathComponent } == ["Good.ttf"])
        for name in ["Truncated.ttf", "Header.ttf", "Notes.otf", "Empty.ttc"] {
            #expect(catalog.warnings.contains { $0.contains(name) }, "\(name): \(catalog.warnings)")
        }
        let font = try catalog.font(stack: ["DejaVu Sans Book"])
        #expect(font.path == dir.appendingPathComponent("Good.ttf").path)
        #expect(font.measure("Helsinki", size: 12).width > 0)
    }

    @Test("An empty directory: no fonts, and a stack is an error saying none were found")
    func emptyDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = try FontCatalog(directories: [dir.path], includeDefaults: false)
        #expect(catalog.entries.isEmpty)
        #expect(throws: GraphicsError.unknownFontStack(stack: ["DejaVu Sans"], available: [])) {
            try catalog.font(stack: ["DejaVu Sans"])
        }
        #expect(GraphicsError.unknownFontStack(stack: ["x"], available: []).description.contains("no font files found"))
    }

    @Test("A missing directory or a file given as a directory is an error naming it")
    func missingDirectory() {
        #expect(throws: GraphicsError.cannotReadFontDirectory(path: "/nonexistent/fonts", reason: "no such directory"))
        {
            try FontCatalog(directories: ["/nonexistent/fonts"])
        }
        #expect(throws: GraphicsError.cannotReadFontDirectory(path: Font.defaultPath, reason: "not a directory")) {
            try FontCatalog(directories: [Font.defaultPath])
        }
    }

    @Test("Scanning is deterministic: two catalogs of the same directories list the same faces in the same order")
    func deterministic() throws {
        let a = try FontCatalog(directories: ["/usr/share/fonts/truetype/dejavu"], includeDefaults: false)
        let b = try FontCatalog(directories: ["/usr/share/fonts/truetype/dejavu"], includeDefaults: false)
        #expect(a.entries == b.entries)
        #expect(a.entries.map(\.path) == a.entries.map(\.path).sorted())
    }
}
