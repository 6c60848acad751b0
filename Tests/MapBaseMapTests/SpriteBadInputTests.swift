import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Bad sprites are errors naming the file and the image")
struct SpriteBadInputTests {
    /// A 4x4 opaque PNG (drawn by MapRaster's own encoder) for the sheet.
    static func sheet() throws -> Data {
        try RGBAImage(width: 4, height: 4, red: 10, green: 20, blue: 30, alpha: 255).pngData()
    }

    /// Renders a background with `background-pattern: icon` from a sprite whose index is `json` and whose
    /// sheet is `png`; returns the error's text.
    static func failure(json: String, png: Data) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-sprite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(json.utf8).write(to: folder.appendingPathComponent("s.json"))
        try png.write(to: folder.appendingPathComponent("s.png"))
        let text =
            #"{"version": 8, "sprite": "s", "layers": [{"id": "b", "type": "background", "#
            + #""paint": {"background-pattern": "icon"}}]}"#
        var options = MapSnapshotter.Options(size: Size(width: 8, height: 8), scale: 1)
        options.style = try Style.decode(Data(text.utf8), source: "test", baseURL: folder)
        options.showsAttribution = false
        do {
            _ = try MapSnapshotter(options: options).snapshot()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static let cases: [(name: String, json: String, notPNG: Bool, expected: [String])] = [
        (
            "an image outside the sheet", #"{"icon": {"x": 2, "y": 0, "width": 4, "height": 4, "pixelRatio": 1}}"#,
            false, ["s.json", "icon", "outside"]
        ),
        (
            "a negative width", #"{"icon": {"x": 0, "y": 0, "width": -4, "height": 4, "pixelRatio": 1}}"#, false,
            ["s.json", "icon", "width"]
        ),
        (
            "a fractional position", #"{"icon": {"x": 0.5, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#,
            false, ["s.json", "icon", "x"]
        ),
        (
            "pixelRatio 0", #"{"icon": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 0}}"#, false,
            ["s.json", "icon", "pixelRatio"]
        ),
        (
            "stretchX past the image",
            #"{"icon": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1, "stretchX": [[1, 9]]}}"#, false,
            ["s.json", "icon", "stretchX"]
        ),
        ("an index that is not an object", #"[1, 2]"#, false, ["s.json", "object"]),
        ("an index that is not JSON", #"{"icon": "#, false, ["s.json"]),
        (
            "a sheet that is not a PNG", #"{"icon": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1}}"#,
            true, ["s.png"]
        ),
    ]

    @Test("each bad sprite is refused with the file, the image and the problem", arguments: cases.map(\.name))
    func badSprite(name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let png = c.notPNG ? Data("GIF89a not a png at all".utf8) : try Self.sheet()
        let message = try #require(try Self.failure(json: c.json, png: png), "\(name) was accepted")
        for word in c.expected { #expect(message.contains(word), "\(name): \(message)") }
    }

    @Test("the same sprite with the image inside its sheet draws")
    func goodSprite() throws {
        let json = #"{"icon": {"x": 0, "y": 0, "width": 4, "height": 4, "pixelRatio": 1}}"#
        #expect(try Self.failure(json: json, png: try Self.sheet()) == nil)
    }
}
