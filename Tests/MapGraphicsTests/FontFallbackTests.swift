import Foundation
import MapGraphics
import Testing

/// Issue 25: a `text-font` stack with no installed face is drawn with the installed face closest in family,
/// weight and slant, never refused. The expected faces follow from the files Debian installs (listed in
/// each case) and the CSS font-matching order: slant first, then width, then the nearest weight.
@Suite("Font fallback: the closest installed face by weight and slant")
struct FontFallbackTests {
    static let dejaVuFolder = "/usr/share/fonts/truetype/dejavu"
    static let notoRegular = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
    static var hasNoto: Bool { FileManager.default.fileExists(atPath: notoRegular) }

    /// DejaVu only (fonts-dejavu-core: Book, Bold, Oblique, Bold Oblique, ExtraLight, Condensed, Mono, Serif).
    static let dejaVu: FontCatalog? = try? FontCatalog(directories: [dejaVuFolder], includeDefaults: false)

    @Test(
        "stacks of fonts not installed take DejaVu Sans of the nearest weight and the same slant",
        arguments: [
            (["Nunito Semi Bold"], "DejaVuSans-Bold.ttf"),  // 600: Bold (700) is 100 away, Book (400) 200
            (["Nunito Extra Bold"], "DejaVuSans-Bold.ttf"),
            (["Open Sans Semibold"], "DejaVuSans-Bold.ttf"),
            (["Roboto Medium"], "DejaVuSans.ttf"),  // 500: Book 100 away, Bold 200
            (["Metropolis Light"], "DejaVuSans-ExtraLight.ttf"),  // 300: ExtraLight (200) and Book (400) tie; lighter
            (["Metropolis Regular", "Noto Sans Regular"], "DejaVuSans.ttf"),
            (["Metropolis Light Italic", "Noto Sans Italic"], "DejaVuSans-Oblique.ttf"),  // slant first
            (["Noto Sans Bold Italic"], "DejaVuSans-BoldOblique.ttf"),
            (["Klokantech Noto Sans Regular"], "DejaVuSans.ttf"),
            (["Comic Sans MS"], "DejaVuSans.ttf"),
        ])
    func dejaVuFallback(stack: [String], file: String) throws {
        let catalog = try #require(Self.dejaVu)
        let fallback = try #require(catalog.fallback(for: stack))
        #expect((fallback.face.path as NSString).lastPathComponent == file, "\(fallback)")
        let font = try catalog.font(stack: stack)  // never an error
        #expect(font.path == fallback.face.path)
        #expect(fallback.description.contains(stack[0]) && fallback.description.contains(fallback.face.name))
    }

    @Test("a stack whose family is installed in another style takes that family: DejaVu Sans Mono Oblique")
    func sameFamily() throws {
        let catalog = try #require(Self.dejaVu)
        let fallback = try #require(catalog.fallback(for: ["DejaVu Sans Mono Semibold Italic"]))
        #expect((fallback.face.path as NSString).lastPathComponent == "DejaVuSansMono-BoldOblique.ttf")
        #expect(catalog.fallback(for: ["DejaVu Sans Bold"]) == nil)  // installed: no fallback
    }

    @Test(
        "with fonts-noto-core the OpenMapTiles stacks resolve by name, and Noto Sans is the fallback family",
        .enabled(if: hasNoto),
        arguments: [
            (["Noto Sans Regular"], "NotoSans-Regular.ttf", false),
            (["Noto Sans Bold"], "NotoSans-Bold.ttf", false),
            (["Noto Sans Italic"], "NotoSans-Italic.ttf", false),
            (["Metropolis Light", "Noto Sans Regular"], "NotoSans-Regular.ttf", false),
            (["Klokantech Noto Sans Bold"], "NotoSans-Bold.ttf", true),  // the family inside the name
            (["Nunito Semi Bold"], "NotoSans-Bold.ttf", true),
            (["Metropolis Medium Italic"], "NotoSans-Italic.ttf", true),
        ])
    func noto(stack: [String], file: String, fallsBack: Bool) throws {
        let font = try FontCatalog.default.font(stack: stack)
        #expect((font.path as NSString).lastPathComponent == file)
        #expect((FontCatalog.default.fallback(for: stack) != nil) == fallsBack)
    }

    @Test("an empty catalog is still an error: there is no face to fall back to")
    func emptyCatalog() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-none-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = try FontCatalog(directories: [dir.path], includeDefaults: false)
        #expect(catalog.fallback(for: ["Noto Sans Regular"]) == nil)
        #expect(throws: GraphicsError.self) { try catalog.font(stack: ["Noto Sans Regular"]) }
    }
}
