import Foundation
import MapRaster
import MapTestSupport
import Testing

/// The dark appearance (`userInterfaceStyle` .dark): the shipped standard and streets styles' dark variants as
/// goldens looked at, chosen through the options, with light labels on dark halos.
@Suite("Dark appearance: the dark standard and streets styles")
struct DarkAppearanceTests {
    /// Goldens (looked at): Monaco at zoom 16 and Andorra la Vella's old town at zoom 17 in `streets-dark`;
    /// Monaco at zoom 16 and central Europe at zoom 5 in `standard-dark`, chosen by the map type.
    static let cases = [
        "streets/dark-monaco-z16", "streets/dark-andorra-la-vella-z17", "styles/standard-dark-monaco-z16",
        "styles/standard-dark-z5",
    ]

    @Test("golden: the dark styles, labels readable (light text over a dark halo in every label box)", arguments: cases)
    func golden(name: String) throws {
        let golden = try GoldenCase.load(name)
        let snapshot = try golden.snapshotter { $0.userInterfaceStyle = .dark }.snapshot()
        let failure = golden.check(snapshot.image)
        #expect(failure == nil, "\(failure ?? "")")
        #expect(snapshot.labelBoxes.count >= 10)
        // Readable: in each label's box the brightest pixel (the text) is light and well above the darkest
        // (the halo or the ground around the text). The light styles' quietest labels (house numbers, grey
        // #9a8c80 on #f4f0e8) differ by 0.37 in this luminance; the dark ones must by 0.3 at least.
        let image = snapshot.image
        var unreadable: [String] = []
        for box in snapshot.labelBoxes {
            let x0 = max(0, Int(box.minX.rounded(.down))), x1 = min(image.width, Int(box.maxX.rounded(.up)))
            let y0 = max(0, Int(box.minY.rounded(.down))), y1 = min(image.height, Int(box.maxY.rounded(.up)))
            // A label cut by the image's edge is judged only when at least half of its box is in the image
            // (the corner of one mostly outside may hold no glyph at all).
            guard x1 - x0 >= 3, y1 - y0 >= 3, Double((x1 - x0) * (y1 - y0)) >= box.width * box.height / 2 else {
                continue
            }
            var lightest = 0.0, darkest = 1.0
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let p = image.pixel(x: x, y: y)
                    let l = (0.2126 * Double(p.red) + 0.7152 * Double(p.green) + 0.0722 * Double(p.blue)) / 255
                    lightest = max(lightest, l)
                    darkest = min(darkest, l)
                }
            }
            if lightest < 0.4 || lightest - darkest < 0.3 { unreadable.append("\(box): \(lightest), \(darkest)") }
        }
        #expect(unreadable.isEmpty, "label boxes without light text on dark: \(unreadable.prefix(5))")
    }

    @Test("the appearance picks the shipped variant: standard-dark by the map type, the light style back")
    func variants() throws {
        #expect(ShippedStyle.standard.variant(for: .dark) == .standardDark)
        #expect(ShippedStyle.streets.variant(for: .dark) == .streetsDark)
        #expect(ShippedStyle.streetsDark.variant(for: .light) == .streets)
        #expect(ShippedStyle.satellite.variant(for: .dark) == .satellite)
        // Through the options, the map type's dark variant is the style drawn.
        let size = Size(width: 200, height: 150)
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: 43.7384, longitude: 7.4246), zoomLevel: 15
        ).visibleMapRect
        options.showsAttribution = false
        options.userInterfaceStyle = .dark
        let dark = try MapSnapshotter(options: options).snapshot().image
        options.userInterfaceStyle = .light
        options.style = try ShippedStyle.standardDark.style()
        #expect(dark.rgbaBytes() == (try MapSnapshotter(options: options).snapshot().image.rgbaBytes()))
    }
}
