import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Raster sources: equirectangular images reprojected to Web Mercator")
struct StyleRasterTests {
    /// A 360x180 equirectangular image, one pixel per degree: red above 60 N, blue below 30 S, green east of
    /// the prime meridian.
    static func bandsPNG(in dir: URL) throws -> URL {
        var bytes = [UInt8](repeating: 0, count: 360 * 180 * 4)
        for row in 0..<180 {
            let lat = 90 - (Double(row) + 0.5)
            for col in 0..<360 {
                let lon = -180 + Double(col) + 0.5
                let i = (row * 360 + col) * 4
                bytes[i] = lat > 60 ? 255 : 0
                bytes[i + 1] = lon > 0 ? 255 : 0
                bytes[i + 2] = lat < -30 ? 255 : 0
                bytes[i + 3] = 255
            }
        }
        let url = dir.appendingPathComponent("bands.png")
        try ImageSurface(rgba: bytes, width: 360, height: 180).writePNG(to: url)
        return url
    }

    @Test("rows are placed by latitude: band edges land where the forward Mercator puts 60 N and 30 S")
    func reprojection() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try Self.bandsPNG(in: dir)
        let text =
            #"{"version": 8, "sources": {"r": {"type": "raster", "url": "\#(png.path)"}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
        let style = try Style.decode(Data(text.utf8), source: "test", baseURL: dir)
        var options = MapSnapshotter.Options(size: Size(width: 512, height: 512))
        options.style = style
        options.showsAttribution = false
        let snapshot = try MapSnapshotter(options: options).snapshot()
        func pixel(_ lat: Double, _ lon: Double) -> ImageSurface.Pixel {
            let p = snapshot.point(for: LocationCoordinate2D(latitude: lat, longitude: lon))
            return snapshot.image.pixel(x: Int(p.x), y: Int(p.y))
        }
        // Just inside each band (one degree is at least 1.4 points at zoom 1); a Mercator-y-spaced reading
        // of the rows would move 60 N to about 47 N.
        #expect(pixel(61, -90).red > 250 && pixel(59, -90).red < 5)
        #expect(pixel(-31, -90).blue > 250 && pixel(-29, -90).blue < 5)
        #expect(pixel(10, 1.5).green > 250 && pixel(10, -1.5).green < 5)
        #expect(pixel(84, 179).red > 250 && pixel(84, 179).green > 250)
    }

    @Test("a raster source that is not a PNG is an error naming the file")
    func badRaster() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-raster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("fake.png")
        try Data("not a png".utf8).write(to: fake)
        let text =
            #"{"version": 8, "sources": {"r": {"type": "raster", "url": "fake.png"}}, "layers": [{"id": "r", "type": "raster", "source": "r"}]}"#
        var options = MapSnapshotter.Options(size: Size(width: 64, height: 64))
        options.style = try Style.decode(Data(text.utf8), source: "test", baseURL: dir)
        do {
            _ = try MapSnapshotter(options: options).snapshot()
            Issue.record("rendered a fake PNG")
        } catch {
            #expect("\(error)".contains("fake.png"))
        }
    }
}
