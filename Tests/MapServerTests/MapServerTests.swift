import Foundation
import MapCompression
import MapData
import MapRaster
import MapServer
import MapStorage
import MapTestSupport
import MapTiles
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A server over the shipped styles and the shipped vector tiles, made once.
enum TestServer {
    static let tilesPath = Fixtures.packageRoot.appendingPathComponent(
        "Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles"
    ).path

    static func configuration() throws -> ServerConfiguration {
        var config = ServerConfiguration()
        config.styles = try ServerConfiguration.shippedStyles()
        try config.addData(id: "omt", path: tilesPath)
        config.port = 0
        config.workers = 2
        return config
    }

    static let shared: MapServer = {
        do { return try MapServer(configuration: try configuration()) } catch {
            fatalError("the test server cannot be configured: \(error)")
        }
    }()

    static func get(_ target: String, headers: [String: String] = [:]) -> HTTPResponse {
        shared.handle(HTTPRequest(target: target, headers: headers))
    }

    static func errorJSON(_ response: HTTPResponse) -> (String, String?) {
        guard let json = try? JSONValue.parse(response.body) else { return ("(not JSON)", nil) }
        return (json["error"]?.string ?? "", json["parameter"]?.string)
    }
}

@Suite("MapServer endpoints, answered without a socket")
struct MapServerEndpointTests {
    @Test("/health, /index.json and the TileJSON of a style")
    func discovery() throws {
        let health = TestServer.get("/health")
        #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "OK\n")
        let index = try JSONValue.parse(TestServer.get("/index.json", headers: ["host": "maps.test:80"]).body)
        let ids = index.array?.compactMap { $0["id"]?.string }
        #expect(ids == ["standard", "satellite", "hybrid", "muted", "streets", "standard-dark", "streets-dark", "omt"])
        let tileJSON = try JSONValue.parse(TestServer.get("/styles/standard.json", headers: ["host": "maps.test"]).body)
        #expect(tileJSON["tiles"]?.array?.first?.string == "http://maps.test/styles/standard/{z}/{x}/{y}.png")
        #expect(tileJSON["attribution"]?.string?.contains("Natural Earth") == true)
        // A Host header is not trusted to build URLs when it holds anything but a host name.
        let hostile = try JSONValue.parse(
            TestServer.get("/styles/standard.json", headers: ["host": "evil.test/\"><script>"]).body)
        #expect(hostile["tiles"]?.array?.first?.string?.contains("script") == false)
    }

    @Test("raster tiles: 256 and 512 points, @2x; a tile is the one a pyramid of the style holds, byte for byte")
    func tiles() throws {
        let tile = TestServer.get("/styles/muted/3/4/2.png")
        #expect(tile.status == 200 && tile.header("Content-Type") == "image/png")
        let image = try RGBAImage(pngData: tile.body, source: "tile")
        #expect(image.width == 256 && image.height == 256)
        // The world pyramid's tile at z3, drawn from its metatile by the pyramid renderer with the same style (at
        // zoom 3 the metatile is the whole world's 8 x 8 tiles; labels laid out in the same regions).
        let pyramid = try TilePyramid(minZoom: 3, maxZoom: 3)
        let renderer = TileRenderer(pyramid: pyramid) { options in
            var options = options
            options.style = try ShippedStyle.muted.style()
            return try MapSnapshotter(options: options)
        }
        let id = try TileID(z: 3, x: 4, y: 2)
        let metatile = try #require(pyramid.metatile(containing: id))
        let written = try renderer.render(metatile, placement: try renderer.placement(forZoom: 3))
        #expect(tile.body == written.first(where: { $0.0 == id })?.1)
        let big = try RGBAImage(pngData: TestServer.get("/styles/muted/512/3/4/2@2x.png").body, source: "512")
        #expect(big.width == 1024 && big.height == 1024)
        // JPEG and WebP through the same encoder as the command line's.
        for (ext, type) in [("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("webp", "image/webp")] {
            let other = TestServer.get("/styles/muted/3/4/2.\(ext)")
            #expect(other.status == 200 && other.header("Content-Type") == type, "\(ext)")
            let decoded = try RGBAImage(imageData: other.body, source: ext)
            #expect(decoded.width == 256 && decoded.height == 256)
        }
    }

    @Test(
        "bad tile and static requests are JSON errors naming the parameter",
        arguments: [
            ("/styles/nope/1/0/0.png", 404, "style"),
            // Out-of-range tiles are 400, as tileserver-gl's tests expect.
            ("/styles/muted/23/0/0.png", 400, "tile"),
            ("/styles/muted/2/4/0.png", 400, "tile"),
            ("/styles/muted/2/-1/0.png", 400, "tile"),
            ("/styles/muted/300/2/1/1.png", 400, "tileSize"),
            ("/styles/muted/2/1/1@1x.png", 400, "scale"),
            ("/styles/muted/512/22/1/1@3x.png", 400, "area"),
            ("/styles/muted/2/1/1@9x.png", 400, "scale"),
            ("/styles/muted/2/1/1.gif", 400, "format"),
            ("/styles/muted/2/1/1.png8", 400, "format"),
            ("/styles/muted/static/0,0,2/5000x100.png", 400, "size"),
            ("/styles/muted/static/0,0,2/0x100.png", 400, "size"),
            ("/styles/muted/static/0,0,2/axb.png", 400, "size"),
            ("/styles/muted/static/0,95,2/100x100.png", 400, "area"),
            ("/styles/muted/static/0,0,99/100x100.png", 400, "area"),
            ("/styles/muted/static/10,10,0,0/100x100.png", 400, "area"),
            // An area that is none of the URL forms is no such path, as tileserver-gl's routes answer.
            ("/styles/muted/static/nonsense/100x100.png", 404, "area"),
            ("/styles/muted/static/1e400,0,2/100x100.png", 404, "area"),
            ("/styles/muted/static/0,0,-1/100x100.png", 404, "area"),
            ("/styles/muted/static/0,87,1,88/5x2.png", 400, "area"),
            ("/styles/muted/static/0,89.9,1,90/5x2.png", 400, "area"),
            ("/styles/muted/static/0,-90,1,-89/5x2.png", 400, "area"),
            ("/styles/muted/static/8,40,30@10,5/100x100.png", 400, "area"),
            ("/styles/muted/static/0,0,2/100x100@4x.png", 400, "scale"),
            ("/data/nope/1/1/1.pbf", 404, "data"),
            ("/data/omt/99/1/1.pbf", 404, "tile"),
            ("/nothing", 404, "path"),
            ("/styles/../etc/passwd", 404, "path"),
        ])
    func badRequests(target: String, status: Int, parameter: String) {
        let response = TestServer.get(target)
        #expect(response.status == status, "\(target): \(response.status)")
        #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
        let (message, named) = TestServer.errorJSON(response)
        #expect(named == parameter, "\(target): \(message)")
        #expect(!message.isEmpty)
    }

    @Test("static maps by center and zoom (tileserver-gl's zoom: one less than MapRaster's) and by bounding box")
    func staticMaps() throws {
        let center = TestServer.get("/styles/muted/static/24.94,60.17,4/300x200@2x.png")
        #expect(center.status == 200)
        let image = try RGBAImage(pngData: center.body, source: "static")
        #expect(image.width == 600 && image.height == 400)
        var options = MapSnapshotter.Options(size: Size(width: 300, height: 200), scale: 2)
        options.visibleMapRect = try MapViewport(
            size: options.size, center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), zoomLevel: 5
        ).visibleMapRect
        options.style = try ShippedStyle.muted.style()
        #expect(center.body == (try MapSnapshotter(options: options).snapshot().image.pngData()))
        let box = TestServer.get("/styles/muted/static/-10,35,30,60/400x300.png")
        #expect(box.status == 200)
    }

    @Test("static/auto honours tileserver-gl's maxzoom (its zoom, one less than MapRaster's); 0 or less sets no limit")
    func staticAutoMaximumZoom() throws {
        // A path of 0.0002 degrees: fitted, it would be drawn at the content limit (MapRaster zoom 17).
        let path = "path=stroke:red%7Cwidth:2%7C7.4200,43.7300%7C7.4202,43.7302"
        let capped = TestServer.get("/styles/muted/static/auto/160x120.png?\(path)&maxzoom=9")
        let uncapped = TestServer.get("/styles/muted/static/auto/160x120.png?\(path)")
        let ignored = TestServer.get("/styles/muted/static/auto/160x120.png?\(path)&maxzoom=0")
        // The same map centred on the path's midpoint at tileserver-gl zoom 9, drawn by the center form.
        let centered = TestServer.get("/styles/muted/static/7.4201,43.7301,9/160x120.png?\(path)")
        for response in [capped, uncapped, ignored, centered] { #expect(response.status == 200) }
        #expect(ignored.body == uncapped.body)
        let a = try RGBAImage(pngData: capped.body, source: "capped")
        let b = try RGBAImage(pngData: centered.body, source: "centered")
        let c = try RGBAImage(pngData: uncapped.body, source: "uncapped")
        func differing(_ x: RGBAImage, _ y: RGBAImage) -> Int {
            stride(from: 0, to: x.bytes.count, by: 4).filter { i in
                (0..<4).contains { abs(Int(x.bytes[i + $0]) - Int(y.bytes[i + $0])) > 8 }
            }.count
        }
        #expect(differing(a, b) <= 160 * 120 / 200, "maxzoom=9 draws the center form's map at zoom 9")
        #expect(differing(a, c) > 160 * 120 / 10, "without maxzoom the fit zooms far closer")
        #expect(TestServer.get("/styles/muted/static/auto/160x120.png?\(path)&maxzoom=abc").status == 400)
    }

    @Test("static maps turned and tilted: @bearing,pitch (pitch clamped to 0...60 as MapLibre does), Mapbox's form")
    func staticCamera() throws {
        let turned = TestServer.get("/styles/muted/static/24.94,60.17,10@30,40/300x200.png")
        let mapbox = TestServer.get("/styles/muted/static/24.94,60.17,10,30,40/300x200.png")
        let flat = TestServer.get("/styles/muted/static/24.94,60.17,10/300x200.png")
        #expect(turned.status == 200 && mapbox.status == 200)
        #expect(turned.body == mapbox.body && turned.body != flat.body)
        #expect(
            TestServer.get("/styles/muted/static/24.94,60.17,10@390,120/300x200.png").body
                == TestServer.get("/styles/muted/static/24.94,60.17,10@30,60/300x200.png").body)
        #expect(TestServer.get("/styles/muted/static/24.94,60.17,10@0,0/300x200.png").body == flat.body)
        // A bearing of any size turns by its exact remainder: -330 is 30, and 10^23 degrees draws a map.
        #expect(TestServer.get("/styles/muted/static/24.94,60.17,10@-330,40/300x200.png").body == turned.body)
        #expect(
            TestServer.get("/styles/muted/static/24.94,60.17,10@100000000000000000000000,0/30x20.png").status == 200)
        // The snapshotter with the camera: MapRaster's zoom one more, heading 30, pitch 40.
        let center = LocationCoordinate2D(latitude: 60.17, longitude: 24.94)
        var options = MapSnapshotter.Options(size: Size(width: 300, height: 200))
        options.visibleMapRect = try MapViewport(size: options.size, center: center, zoomLevel: 11).visibleMapRect
        options.camera = try MapCamera(
            lookingAtCenter: center,
            fromDistance: MapCamera.distance(forZoomLevel: 11, latitude: 60.17, height: 200), pitch: 40, heading: 30)
        options.style = try ShippedStyle.muted.style()
        #expect(turned.body == (try MapSnapshotter(options: options).snapshot().image.pngData()))
    }

    @Test("ETag and If-None-Match give 304; JSON is gzipped for clients that accept it; HEAD and OPTIONS")
    func caching() throws {
        let first = TestServer.get("/styles/muted/1/0/0.png")
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && first.header("Cache-Control") != nil)
        let again = TestServer.get("/styles/muted/1/0/0.png", headers: ["if-none-match": etag])
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        let other = TestServer.get("/styles/muted/1/0/0.png", headers: ["if-none-match": "\"nope\""])
        #expect(other.status == 200 && other.body == first.body)
        let plain = TestServer.get("/styles/standard/style.json")
        let zipped = TestServer.get("/styles/standard/style.json", headers: ["accept-encoding": "gzip, deflate"])
        #expect(zipped.header("Content-Encoding") == "gzip")
        #expect(try Deflate.gunzip(zipped.body) == plain.body)
        let head = TestServer.shared.handle(HTTPRequest(method: "HEAD", target: "/health"))
        #expect(head.status == 200)
        let options = TestServer.shared.handle(HTTPRequest(method: "OPTIONS", target: "/styles/muted/1/0/0.png"))
        #expect(options.status == 204 && options.header("Access-Control-Allow-Methods") != nil)
        let post = TestServer.shared.handle(HTTPRequest(method: "POST", target: "/health"))
        #expect(post.status == 405 && post.header("Allow") == "GET, HEAD")
    }

    @Test("/data passes tiles through as stored, with TileJSON of the file")
    func data() throws {
        let source = try openTileSource(at: TestServer.tilesPath)
        let tile = try TileID(z: 14, x: 8529, y: 5975)
        let truth = try #require(try source.tile(tile))
        let served = TestServer.get("/data/omt/14/8529/5975.pbf")
        #expect(served.status == 200 && served.body == truth)
        #expect(served.header("Content-Type") == "application/x-protobuf")
        let json = try JSONValue.parse(TestServer.get("/data/omt.json").body)
        #expect(json["tiles"]?.array?.first?.string?.hasSuffix("/data/omt/{z}/{x}/{y}.pbf") == true)
        #expect(json["maxzoom"]?.number == 14)
        // A vector tile missing within the file's zooms is 204 (tileserver-gl); beyond them, 404.
        #expect(TestServer.get("/data/omt/14/0/0.pbf").status == 204)
        #expect(TestServer.get("/data/omt/15/0/0.pbf").status == 404)
    }

    @Test("POST /render draws a scene file as the snapshotter does; ?metadata=1 gives its metadata")
    func renderScene() throws {
        let scene = try Data(contentsOf: Fixtures.root.appendingPathComponent("scenes/la-city-hall.json"))
        let response = TestServer.shared.handle(HTTPRequest(method: "POST", target: "/render", body: scene))
        #expect(response.status == 200 && response.header("Content-Type") == "image/png")
        let decoded = try Scene.decode(scene, source: "truth")
        let snapshotter = try MapSnapshotter(
            options: try decoded.options(defaults: MapSnapshotter.Options(size: Size(width: 512, height: 512))))
        decoded.populate(snapshotter)
        let snapshot = try snapshotter.snapshot()
        #expect(response.body == (try snapshot.image.pngData()))
        let metadata = TestServer.shared.handle(
            HTTPRequest(method: "POST", target: "/render?metadata=1", body: scene))
        #expect(metadata.body == Data(snapshot.metadata().serialized(pretty: false).utf8))
        let bad = TestServer.shared.handle(HTTPRequest(method: "POST", target: "/render", body: Data("{".utf8)))
        #expect(bad.status == 400 && TestServer.errorJSON(bad).1 == "body")
        let get = TestServer.get("/render")
        #expect(get.status == 405)
    }

    @Test("/styles/{id}/style.json points sources read from configured data at /data/{id}.json")
    func servedStyle() throws {
        var config = ServerConfiguration()
        try config.addData(id: "omt", path: TestServer.tilesPath)
        try config.addStyle(id: "vt", path: Fixtures.root.appendingPathComponent("render/vector/style.json").path)
        let server = try MapServer(configuration: config)
        let style = try JSONValue.parse(
            server.handle(HTTPRequest(target: "/styles/vt/style.json", headers: ["host": "maps.test"])).body)
        #expect(style["sources"]?["omt"]?["url"]?.string == "http://maps.test/data/omt.json")
        #expect(style["layers"]?.array?.isEmpty == false)
    }

    @Test("/metrics counts requests by endpoint and status in Prometheus text")
    func metrics() {
        _ = TestServer.get("/health")
        _ = TestServer.get("/styles/nope/1/1/1.png")
        let text = String(decoding: TestServer.get("/metrics").body, as: UTF8.self)
        #expect(text.contains("mapraster_http_requests_total{endpoint=\"health\",status=\"200\"}"))
        #expect(text.contains("mapraster_http_requests_total{endpoint=\"styles\",status=\"404\"}"))
        #expect(text.contains("# TYPE mapraster_http_request_seconds histogram"))
        #expect(text.contains("mapraster_render_queue_depth 0"))
        #expect(text.contains("# TYPE mapraster_metatile_cache_bytes gauge"))
        #expect(text.contains("# TYPE mapraster_decoded_tile_bytes gauge"))
    }

    @Test("the viewer page lists the styles and loads Leaflet from the server; only Leaflet's files are served")
    func viewer() throws {
        let page = String(decoding: TestServer.get("/").body, as: UTF8.self)
        #expect(page.contains("<option value=\"standard\">") && page.contains("/leaflet/leaflet.js"))
        #expect(!page.contains("http://") && !page.contains("https://"), "no CDN")
        #expect(TestServer.get("/leaflet/../../etc/passwd").status == 404)
        #expect(TestServer.get("/leaflet/leaflet.min.js.map").status == 404)
        if FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js") {
            #expect(TestServer.get("/leaflet/leaflet.js").status == 200)
        }
    }
}

@Suite("MapServer over loopback HTTP (libmicrohttpd)")
struct MapServerHTTPTests {
    final class Box: @unchecked Sendable {
        var data = Data()
        var status = 0
        var headers: [AnyHashable: Any] = [:]
    }

    static func fetch(_ url: URL, method: String = "GET", body: Data? = nil) -> Box {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.data = data ?? Data()
            if let http = response as? HTTPURLResponse {
                box.status = http.statusCode
                box.headers = http.allHeaderFields
            }
            done.signal()
        }.resume()
        done.wait()
        return box
    }

    @Test("32 parallel clients get the handler's bytes; HEAD, 413 and 414 over the wire, counted and logged")
    func loopback() throws {
        let lines = Mutex<[String]>([])
        let server = try MapServer(configuration: try TestServer.configuration()) { line in
            lines.withLock { $0.append(line) }
        }
        try server.start()
        defer { server.shutdown(grace: 5) }
        let port = try #require(server.port)
        #expect(port > 0)
        let base = "http://127.0.0.1:\(port)"
        let targets = (0..<32).map { "/styles/muted/4/\($0 % 16)/\(($0 / 16) + 5).png" }
        let truth = targets.map { server.handle(HTTPRequest(target: $0)).body }
        let results = Mutex<[Int: Data]>([:])
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let box = Self.fetch(URL(string: base + targets[i])!)
            results.withLock { $0[i] = box.status == 200 ? box.data : Data() }
        }
        for i in 0..<32 { #expect(results.withLock { $0[i] } == truth[i], "\(targets[i])") }
        let head = Self.fetch(URL(string: base + "/styles/muted/4/0/5.png")!, method: "HEAD")
        #expect(head.status == 200 && head.data.isEmpty)
        #expect((head.headers["Content-Length"] as? String) == String(truth[0].count))
        // Every endpoint and every error code over the wire answers as the handler does (status, type, bytes).
        let endpoints = [
            "/", "/health", "/index.json", "/styles/muted.json", "/styles/muted/style.json",
            "/styles/muted/2/1/1.png", "/styles/muted/512/2/1/1@2x.webp",
            "/styles/muted/static/7.42,43.73,12/120x80.jpg",
            "/styles/muted/static/auto/120x80.png?path=stroke:red%7Cwidth:3%7C7.41,43.72%7C7.44,43.75",
            "/staticmap?size=120x80&markers=color:red%7C43.73,7.42&zoom=12&center=43.73,7.42",
            "/data/omt.json", "/data/omt/14/8529/5975.pbf", "/leaflet/nothing.js", "/styles/nope/1/1/1.png",
            "/styles/muted/static/0,0,2/9000x10.png", "/staticmap?size=10x10",
        ]
        for target in endpoints {
            let truth = server.handle(HTTPRequest(target: target))
            let wire = Self.fetch(URL(string: base + target)!)
            #expect(wire.status == truth.status, "\(target)")
            #expect(wire.data == truth.body, "\(target)")
            #expect((wire.headers["Content-Type"] as? String) == truth.header("Content-Type"), "\(target)")
        }
        #expect(Self.fetch(URL(string: base + "/health")!, method: "DELETE").status == 405)
        // A conditional request over the wire.
        let first = Self.fetch(URL(string: base + "/styles/muted/2/1/1.png")!)
        let etag = try #require(first.headers["Etag"] as? String ?? first.headers["ETag"] as? String)
        var conditional = URLRequest(url: URL(string: base + "/styles/muted/2/1/1.png")!)
        conditional.setValue(etag, forHTTPHeaderField: "If-None-Match")
        let notModified = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: conditional) { _, response, _ in
            notModified.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            done.signal()
        }.resume()
        done.wait()
        #expect(notModified.status == 304)
        let big = Self.fetch(URL(string: base + "/render")!, method: "POST", body: Data(count: 2 << 20))
        #expect(big.status == 413)
        let long = Self.fetch(URL(string: base + "/health?q=" + String(repeating: "a", count: 20_000))!)
        #expect(long.status == 414 || long.status == 431)
        // 413 and 414 are counted as any other answer.
        let metrics = String(decoding: Self.fetch(URL(string: base + "/metrics")!).data, as: UTF8.self)
        #expect(metrics.contains("mapraster_http_requests_total{endpoint=\"refused\",status=\"413\"} 1"))
        if long.status == 414 {
            #expect(metrics.contains("mapraster_http_requests_total{endpoint=\"refused\",status=\"414\"} 1"))
        }
        // One Common Log Format line per request, with the client's address and the query.
        let logged = lines.withLock { $0 }
        #expect(logged.count >= 32 + 2 + endpoints.count * 2)
        // (The handler called without a socket logs "-" for the client.)
        let tiles = logged.filter { $0.contains("\"GET /styles/muted/4/0/5.png HTTP/1.1\" 200 ") }
        #expect(tiles.contains { $0.hasPrefix("127.0.0.1 - - [") } && tiles.contains { $0.hasPrefix("- - - [") })
        #expect(logged.contains { $0.contains("\"HEAD /styles/muted/4/0/5.png HTTP/1.1\" 200 -") })
        #expect(logged.contains { $0.contains("\"POST /render HTTP/1.1\" 413 ") })
        #expect(
            logged.contains {
                $0.contains("\"GET /staticmap?size=120x80&markers=color:red%7C43.73,7.42&zoom=12&center=43.73,7.42 ")
            })
    }
}
