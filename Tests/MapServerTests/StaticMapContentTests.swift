import Foundation
import MapRaster
import MapServer
import MapTestSupport
import Testing

/// `serve`'s static maps with `poi=`, `buildings=` and `appearance=`.
@Suite("serve: static maps with the snapshot options")
struct StaticMapContentTests {
    static let path = "/styles/streets/static/1.522,42.507,16/300x200.png"

    @Test("appearance=dark draws the served dark variant; poi and buildings change the image")
    func parameters() throws {
        let plain = TestServer.get(Self.path)
        #expect(plain.status == 200)
        let dark = TestServer.get(Self.path + "?appearance=dark")
        #expect(dark.status == 200)
        #expect(dark.body == TestServer.get(Self.path.replacingOccurrences(of: "streets", with: "streets-dark")).body)
        #expect(dark.body != plain.body)
        for query in ["poi=excludingAll", "poi=including:restaurant,cafe", "buildings=false"] {
            let response = TestServer.get(Self.path + "?" + query)
            #expect(response.status == 200 && response.body != plain.body, "\(query)")
        }
        #expect(TestServer.get(Self.path + "?poi=includingAll&buildings=true").body == plain.body)
        let google = TestServer.get("/staticmap?center=42.507,1.522&zoom=17&size=300x200&appearance=dark")
        #expect(google.status == 200)
        #expect(
            google.body
                == TestServer.get("/staticmap?center=42.507,1.522&zoom=17&size=300x200&style=standard-dark").body)
    }

    @Test("bad values are 400s naming the parameter")
    func refused() {
        for (query, parameter) in [
            ("poi=including:pizza", "poi"), ("poi=", "poi"), ("buildings=no", "buildings"),
            ("appearance=dim", "appearance"),
        ] {
            let response = TestServer.get(Self.path + "?" + query)
            #expect(response.status == 400, "\(query)")
            #expect(TestServer.errorJSON(response).1 == parameter, "\(query)")
        }
    }

    @Test("--compression 1: the same pixels as the default level, the same bytes on every request, a larger file")
    func compressionLevel() throws {
        var config = try TestServer.configuration()
        config.compressionLevel = 1
        config.cacheBytes = 0
        let fast = try MapServer(configuration: config)
        let first = fast.handle(HTTPRequest(target: Self.path))
        let again = fast.handle(HTTPRequest(target: Self.path))
        let tile = fast.handle(HTTPRequest(target: "/styles/streets/16/33040/23905.png"))
        #expect(first.status == 200 && again.status == 200 && tile.status == 200)
        #expect(first.body == again.body)
        let plain = TestServer.get(Self.path)
        #expect(plain.body != first.body && plain.body.count < first.body.count, "level 6 packs smaller")
        let decoded = try RGBAImage(pngData: first.body, source: "level 1")
        let reference = try RGBAImage(pngData: plain.body, source: "level 6")
        #expect(decoded.width == 300 && decoded.height == 200)
        #expect(decoded.bytes == reference.bytes)
        let plainTile = TestServer.get("/styles/streets/16/33040/23905.png")
        #expect(
            try RGBAImage(pngData: tile.body, source: "tile").bytes
                == RGBAImage(pngData: plainTile.body, source: "tile").bytes)
    }
}
