import Foundation
import MapData
import MapRaster
import MapServer
import MapTestSupport
import Testing

/// tileserver-gl's own test suite (`test/*.js` in maptiler/tileserver-gl: metadata, style, tiles_data,
/// tiles_rendered, static, static_images, metrics), translated check by check against a configuration
/// equivalent to its `test_data/config.json`: style `test-style` (here the shipped `standard` style, which has a
/// sprite and reads the vector tiles), data `openmaptiles` (here the shipped OpenMapTiles extract), public URL
/// `/test/`. Each row keeps the original check's URL and expectation; tiles that must exist use this extract's
/// tiles. Checks that do not apply are listed in ``notApplicable`` with the reason; Notes/server-parity.md has
/// the tally.
enum ParityServer {
    static let iconsFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "mapraster-parity-\(getpid())")

    static let shared: MapServer = {
        do {
            try FileManager.default.createDirectory(at: iconsFolder, withIntermediateDirectories: true)
            // tileserver-gl's marker icons, as files of the icons folder (plain PNGs of Leaflet's sizes).
            for (name, width, height) in [("marker-icon.png", 25, 41), ("marker-icon-2x.png", 50, 82)] {
                let surface = try ImageSurface(width: width, height: height)
                try surface.writePNG(to: iconsFolder.appendingPathComponent(name))
            }
            var config = ServerConfiguration()
            try config.addData(id: "openmaptiles", path: TestServer.tilesPath)
            try config.addStyle(
                id: "test-style",
                path: Fixtures.packageRoot.appendingPathComponent("Sources/MapBaseMap/Resources/styles/standard.json")
                    .path)
            config.publicURL = "/test/"
            config.iconsDirectory = iconsFolder.path
            config.workers = 2
            return try MapServer(configuration: config)
        } catch { fatalError("the parity server cannot be configured: \(error)") }
    }()

    static func answer(_ check: ParityCheck) -> HTTPResponse {
        var request = HTTPRequest(
            method: check.method, target: check.target, headers: ["host": "localhost:8888"],
            body: Data((check.body ?? "").utf8))
        if check.body != nil { request.headers["content-type"] = "application/json" }
        return shared.handle(request)
    }
}

/// One translated check: the request, the statuses and content type tileserver-gl's test expects, and what
/// else it looks at in the body.
struct ParityCheck: Sendable, CustomTestStringConvertible {
    enum Body: Sendable {
        case any, nonEmptyArray, stylesItem, tileJSON, styleProperties, wmtsHref, wmtsTemplates, metricNames
        case mentions([String])
    }

    let file: String
    let method: String
    let target: String
    let body: String?
    let statuses: Set<Int>
    let type: String?
    let check: Body
    /// Why this check fails today, when it does (a missing feature named in Notes/server-parity.md).
    let knownIssue: String?

    var testDescription: String { "\(file): \(method) \(target.prefix(90)) -> \(statuses.sorted())" }

    init(
        _ file: String, _ target: String, _ statuses: Set<Int>, _ type: String? = nil, _ check: Body = .any,
        method: String = "GET", body: String? = nil, knownIssue: String? = nil
    ) {
        self.file = file
        self.target = target
        self.statuses = statuses
        self.type = type
        self.check = check
        self.method = method
        self.body = body
        self.knownIssue = knownIssue
    }
}

@Suite("tileserver-gl's test suite, translated")
struct TileserverGLParityTests {
    static let style = "/styles/test-style"
    static let png = "image/png"
    static let json = "application/json"

    static let metadata: [ParityCheck] = [
        .init("metadata", "/health", [200]),
        .init("metadata", "/index.json", [200], json), .init("metadata", "/index.json", [200], nil, .nonEmptyArray),
        .init("metadata", "/rendered.json", [200], json),
        .init("metadata", "/rendered.json", [200], nil, .nonEmptyArray),
        .init("metadata", "/data.json", [200], json), .init("metadata", "/data.json", [200], nil, .nonEmptyArray),
        .init("metadata", "/styles.json", [200], json), .init("metadata", "/styles.json", [200], nil, .stylesItem),
        .init("metadata", "/styles/test-style.json", [200], json),
        .init("metadata", "/styles/test-style.json", [200], nil, .tileJSON),
        .init("metadata", "/data/openmaptiles.json", [200], json),
        .init("metadata", "/data/openmaptiles.json", [200], nil, .tileJSON),
    ]

    static let styles: [ParityCheck] = {
        var checks: [ParityCheck] = [
            .init("style", style + "/style.json", [200], json),
            .init("style", style + "/style.json", [200], nil, .styleProperties),
            .init("style", "/styles/streets/style.json", [404]),
        ]
        for file in ["sprite.json", "sprite@2x.json", "sprite/default.json", "sprite/default@2x.json"] {
            checks.append(.init("style", style + "/" + file, [200], json))
        }
        for file in ["sprite.png", "sprite@2x.png", "sprite/default.png", "sprite/default@2x.png"] {
            checks.append(.init("style", style + "/" + file, [200], png))
        }
        checks += [
            .init("style", style + "/wmts.xml", [200], "text/xml"),
            .init("style", style + "/wmts.xml", [200], nil, .wmtsHref),
            .init("style", style + "/wmts.xml", [200], nil, .wmtsTemplates),
            .init("style", "/styles/non_existent/wmts.xml", [404]),
            // Fonts: served from the installed fonts (tileserver-gl's fixture has them as PBF folders).
            .init("style", "/fonts/Open%20Sans%20Bold/0-255.pbf", [200], "application/x-protobuf"),
            .init("style", "/fonts/Open%20Sans%20Regular/65280-65535.pbf", [200], "application/x-protobuf"),
            .init(
                "style", "/fonts/Open%20Sans%20Bold,Open%20Sans%20Regular/0-255.pbf", [200], "application/x-protobuf"),
            .init("style", "/fonts/Nonsense,Open%20Sans%20Bold/0-255.pbf", [400]),
            .init("style", "/fonts/Nonsense/0-255.pbf", [400]),
            .init("style", "/fonts/Nonsense1,Nonsense2/0-255.pbf", [400]),
        ]
        return checks
    }()

    static let dataTiles: [ParityCheck] = [
        .init("tiles_data", "/data/openmaptiles/0/0/0.pbf", [200], "application/x-protobuf"),
        // tileserver-gl's 14/8581/5738 is a tile of its Zurich extract; this extract's tile at z14:
        .init("tiles_data", "/data/openmaptiles/14/8236/6039.pbf", [200], "application/x-protobuf"),
        .init("tiles_data", "/data/non_existent/0/0/0.pbf", [404]),
        .init("tiles_data", "/data/openmaptiles/-1/0/0.pbf", [404]),
        .init("tiles_data", "/data/openmaptiles/20/0/0.pbf", [404]),
        .init("tiles_data", "/data/openmaptiles/0/1/0.pbf", [404]),
        .init("tiles_data", "/data/openmaptiles/0/0/1.pbf", [404]),
        .init("tiles_data", "/data/openmaptiles/14/0/0.pbf", [204]),
    ]

    static let renderedTiles: [ParityCheck] = {
        var checks: [ParityCheck] = []
        for size in [256, 512] {
            for (format, type) in [("png", png), ("jpg", "image/jpeg"), ("jpeg", "image/jpeg"), ("webp", "image/webp")]
            {
                checks.append(.init("tiles_rendered", "\(style)/\(size)/0/0/0.\(format)", [200], type))
            }
        }
        for size in [256, 512] { checks.append(.init("tiles_rendered", "\(style)/\(size)/1/0/0.png", [200])) }
        for size in [256, 512] {
            checks.append(.init("tiles_rendered", "\(style)/\(size)/0/0/0@2x.png", [200]))
            checks.append(.init("tiles_rendered", "\(style)/\(size)/0/0/0@3x.png", [200]))
            checks.append(.init("tiles_rendered", "\(style)/\(size)/2/1/1@3x.png", [200]))
        }
        checks += [
            .init("tiles_rendered", "/styles/non_existent/256/0/0/0.png", [404]),
            .init("tiles_rendered", "\(style)/256/-1/0/0.png", [400]),
            .init("tiles_rendered", "\(style)/256/25/0/0.png", [400]),
            .init("tiles_rendered", "\(style)/256/0/1/0.png", [400]),
            .init("tiles_rendered", "\(style)/256/0/0/1.png", [400]),
            .init("tiles_rendered", "\(style)/256/0/0/0.gif", [400]),
            .init("tiles_rendered", "\(style)/256/0/0/0.pbf", [400]),
            .init("tiles_rendered", "\(style)/256/0/0/0@1x.png", [400]),
            .init("tiles_rendered", "\(style)/256/0/0/0@5x.png", [400]),
            .init("tiles_rendered", "\(style)/300/0/0/0.png", [400]),
        ]
        return checks
    }()

    static func statik(_ area: String, _ statuses: Set<Int>, _ type: String? = nil) -> ParityCheck {
        .init("static", "\(style)/static/\(area)", statuses, type)
    }

    static let staticMaps: [ParityCheck] = {
        var checks: [ParityCheck] = [
            statik("0,0,0/256x256.png", [200], png), statik("0,0,0/256x256.jpg", [200], "image/jpeg"),
            statik("0,0,0/256x256.jpeg", [200], "image/jpeg"), statik("0,0,0/256x256.webp", [200], "image/webp"),
            statik("0,0,0/300x300@2x.png", [200]), statik("0,0,0/300x300@3x.png", [200]),
            statik("0,0,1.5/256x256.png", [200]), statik("80,40,20/600x300@3x.png", [200]),
            statik("8.5,40.5,20/300x150@3x.png", [200]), statik("-8.5,-40.5,20/300x150@3x.png", [200]),
            statik("8,40,2@0,0/300x150.png", [200]), statik("8,40,2@180,45/300x150@2x.png", [200], png),
            statik("8,40,2@10/300x150@3x.png", [200], png), statik("8,40,2@10.3,20.4/300x300.png", [200], png),
            statik("0,0,2@390,120/300x300.png", [200], png),
            statik("190,0,0/256x256.png", [400]), statik("0,86,0/256x256.png", [400]),
            statik("80,40,20/0x0.png", [400]), statik("0,0,0/256x256.gif", [400]),
            statik("0,0,0/256x256@1x.png", [404]), statik("0,0,-1/256x256.png", [404]),
            statik("0,0,0/256.5x256.5.png", [400]), statik("0,0,0,/256x256.png", [404]),
            statik("0,0,0,0,/256x256.png", [404]),
            statik("-180,-80,180,80/10x10.png", [200], png), statik("-180,-80,180,80/10x10.jpg", [200], "image/jpeg"),
            statik("-180,-80,180,80/10x10.jpeg", [200], "image/jpeg"),
            statik("-180,-80,180,80/10x10.webp", [200], "image/webp"),
            statik("-180,-90,180,90/20x20@2x.png", [200]), statik("0,0,1,1/200x200@3x.png", [200]),
            statik("-280,-80,0,80/280x160.png", [200]),
            statik("0,87,1,88/5x2.png", [400]), statik("0,0,1,1/1x1.gif", [400]),
            statik("-180,-80,180,80/0.5x2.6.png", [400]),
            statik("auto/256x256.png?path=10,10|20,20", [200], png),
            statik("auto/20x20@2x.png?path=10,10|20,20", [200], png),
            statik("auto/200x200@3x.png?path=-10,-10|-20,-20", [200], png),
            statik("auto/20x20@2x.png?path=enc%3A%7B%7BbiGwvyGoUi%40s_A%7C%7B%40", [200], png),
            statik("auto/256x256.png", [400]), statik("auto/256x256.png?path=invalid", [400]),
            statik("auto/2560x2560.png?path=10,10|20,20", [400]),
        ]
        let auto = "\(style)/static/auto/256x256.png"
        let manyPoints = (0..<200).map { "\(10 + Double($0) * 0.1),\(20 + Double($0) * 0.1)" }.joined(separator: "|")
        checks += [
            .init("static", auto, [200], png, method: "POST", body: #"{"path": "10,10|20,20"}"#),
            .init("static", auto, [200], png, method: "POST", body: #"{"path": "\#(manyPoints)"}"#),
            .init(
                "static", "\(style)/static/auto/20x20@2x.png", [200], png, method: "POST",
                body: #"{"path": "10,10|20,20"}"#),
            .init("static", auto, [200], png, method: "POST", body: #"{"path": ["10,10|20,20", "-5,-5|5,5"]}"#),
            .init("static", auto, [400], method: "POST", body: "{}"),
            .init("static", auto, [400, 415], method: "POST", body: "not json"),
            .init("static", "\(style)/0/0/0.png", [405], method: "POST", body: "{}"),
            .init("static", "\(style)/0/0/0.png", [405], method: "POST", body: "not json"),
            // getSecureMergedParams, through the endpoint: repeated query values, body arrays, both merged (the
            // markers with an icon: tileserver-gl skips a marker without one, MapRaster refuses it).
            .init(
                "static",
                auto + "?path=10,10|20,20&path=10,20|20,10&marker=10,15|marker-icon.png&marker=20,15|marker-icon.png",
                [200], png),
            .init(
                "static", auto, [200], png, method: "POST",
                body:
                    #"{"path": ["10,20|20,10", "10,10|20,20"], "marker": ["20,15|marker-icon.png", "10,15|marker-icon.png"]}"#
            ),
            .init("static", auto + "?path=10,10|20,20", [200], png, method: "POST", body: #"{"path": "10,20|20,10"}"#),
            .init(
                "static", auto + "?path=10,10|20,20", [200], png, method: "POST",
                body: #"{"path": ["10,20|20,10", "10,10|15,20|20,10"]}"#),
            .init(
                "static", auto + "?path=10,10|20,20&path=10,20|20,10", [200], png, method: "POST",
                body: #"{"path": ["10,10|15,20|20,10", "5,5|10,10"]}"#),
            .init(
                "static", auto, [400], nil, .mentions(["nested objects"]), method: "POST",
                body: #"{"path": {"lat": 10, "lon": 10}}"#),
            .init("static", auto, [200], png, method: "POST", body: #"{"__proto__": true, "path": "10,10|20,20"}"#),
            .init(
                "static", auto, [400], nil, .mentions(["Invalid JSON", "forbidden"]), method: "POST",
                body: #"{"__proto__": {"admin": true}, }"#),
            .init(
                "static", auto, [400], nil, .mentions(["Invalid data"]), method: "POST",
                body: #"["not", "an", "object"]"#),
        ]
        return checks
    }()

    /// static_images.js compares pixels with images MapLibre Native drew from its own style: not applicable to
    /// another renderer and style; each request's status and type are.
    static let staticImages: [ParityCheck] = {
        let zurich = "\(style)/static/8.5375,47.379,12/400x300.png"
        return [
            .init("static_images", zurich, [200], png),
            .init("static_images", "\(style)/static/8.5375,47.379,11/200x150@2x.png", [200], png),
            .init("static_images", "\(style)/static/8.5375,47.379,12@180/400x300.png", [200], png),
            .init("static_images", "\(style)/static/8.5375,47.379,12@15,80/400x300.png", [200], png),
            .init(
                "static_images",
                "\(style)/static/auto/400x300.png?fill=%23ff000080&path=8.53180,47.38713|8.53841,47.38248|8.53320,47.37457",
                [200], png),
            .init(
                "static_images",
                "\(style)/static/auto/400x300.png?stroke=red&width=5&path=enc:wwg%60Hyu%7Dr@fNgn@hKyh@rR%7BZlP%7BYrJmM%60PJhNbH%60P%60VjUbNfJ%7CLzM~TtLnKxQZ",
                [200], png),
            .init(
                "static_images", zurich + "?width=30&linejoin=round&linecap=round&path=enc:uhd%60Hqk_s@kiA%7DnAnfAqpA",
                [200], png),
            .init(
                "static_images", zurich + "?width=30&linejoin=bevel&linecap=square&path=enc:uhd%60Hqk_s@kiA%7DnAnfAqpA",
                [200], png),
            .init(
                "static_images",
                zurich
                    + "?marker=8.531,47.38|marker-icon.png|scale:0.8&marker=8.545,47.375|marker-icon-2x.png|offset:5,-10",
                [200], png),
            .init("static_images", "\(style)/static/8.5,47.35,8.6,47.4/400x300.png", [200], png),
            .init(
                "static_images",
                zurich + "?path=stroke:blue|width:8|fill:none|8.53,47.38|8.54,47.385"
                    + "&path=stroke:red|width:3|fill:yellow|8.53,47.37|8.54,47.375", [200], png),
            .init(
                "static_images",
                "\(style)/static/auto/400x300.png?latlng=true&path=47.38,8.53|47.385,8.54&fill=rgba(0,0,255,0.5)",
                [200],
                png),
            .init(
                "static_images",
                zurich + "?path=stroke:yellow|width:10|border:black|borderwidth:2|8.53,47.37|8.54,47.38|8.53,47.39",
                [200],
                png),
            .init(
                "static_images", zurich + "?path=border:black|borderwidth:10|8.53,47.37|8.54,47.38|8.53,47.39", [200],
                png),
            .init(
                "static_images",
                zurich + "?stroke=yellow&width=10&border=black&borderwidth=2&path=8.53,47.37|8.54,47.38|8.53,47.39",
                [200], png),
        ]
    }()

    static let metrics: [ParityCheck] = [
        .init("metrics", "/metrics", [200], "text/plain"),
        // tileserver_http_requests_total, tileserver_tiles_served_total, tileserver_render_pool_size: the same
        // measures under MapRaster's names.
        .init("metrics", "/metrics", [200], nil, .metricNames),
    ]

    /// Checks of tileserver-gl's suite that do not apply, and why.
    static let notApplicable: [(check: String, reason: String)] = [
        ("static_images: 15 pixel comparisons", "they compare with MapLibre Native's drawing of its own test style"),
        ("static: getSecureMergedParams keeps empty strings", "an Express query-object detail; no endpoint shows it"),
        ("static: getSecureMergedParams result has no prototype", "a JavaScript object-model detail"),
        ("metrics: no metrics server when metrics: false", "/metrics is on the main port, not a separate server"),
        ("metrics: a request increments tileserver_http_requests_total", "checked by MapServerTests' metrics test"),
    ]

    static var all: [ParityCheck] {
        metadata + styles + dataTiles + renderedTiles + staticMaps + staticImages + metrics
    }

    @Test("every translated check", arguments: all)
    func translated(_ check: ParityCheck) throws {
        let run = {
            let response = ParityServer.answer(check)
            #expect(
                check.statuses.contains(response.status),
                "status \(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
            if let type = check.type { #expect(response.header("Content-Type")?.hasPrefix(type) == true) }
            try Self.verify(check.check, response)
        }
        if let issue = check.knownIssue {
            withKnownIssue(Comment(rawValue: issue)) { try run() }
        } else {
            try run()
        }
    }

    @Test("the tally: at least 95 % of the applicable checks are expected to pass")
    func tally() {
        let applicable = Self.all.count
        let failing = Self.all.filter { $0.knownIssue != nil }.count
        #expect(Double(applicable - failing) / Double(applicable) >= 0.95, "\(applicable - failing) of \(applicable)")
        #expect(Self.notApplicable.count == 5)
    }

    @Test("POST static with a JSON body over the limit is 413 over the wire (tileserver-gl: 6 MB over its 5 MB)")
    func oversizedBody() {
        let body =
            Array(#"{"data": ""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 6 << 20) + Array(#""}"#.utf8)
        let head =
            "POST /styles/standard/static/auto/256x256.png HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        let reply = HostileServer.client.exchange(Array(head.utf8) + body)
        #expect(reply.status == 413)
    }

    static func verify(_ check: ParityCheck.Body, _ response: HTTPResponse) throws {
        let text = String(decoding: response.body, as: UTF8.self)
        switch check {
        case .any: return
        case .nonEmptyArray:
            let array = try #require(try JSONValue.parse(response.body).array)
            #expect(!array.isEmpty)
        case .stylesItem:
            let first = try #require(try JSONValue.parse(response.body).array?.first)
            #expect(first["version"]?.number == 8 && first["id"]?.string != nil && first["name"]?.string != nil)
        case .tileJSON:
            #expect(try JSONValue.parse(response.body)["tiles"]?.array?.isEmpty == false)
        case .styleProperties:
            let style = try JSONValue.parse(response.body)
            #expect(style["version"]?.number == 8 && style["name"]?.string != nil)
            #expect(style["sources"]?.members != nil && style["layers"]?.array != nil)
            #expect(style["sprite"]?.string?.contains("/test/styles/test-style/sprite") == true)
            #expect(style["glyphs"]?.string == "http://localhost:8888/test/fonts/{fontstack}/{range}.pbf")
        case .wmtsHref:
            #expect(!text.contains("href=\"/test/") && text.contains("href=\"http://"))
            #expect(text.contains("/test/styles/test-style/wmts.xml"))
        case .wmtsTemplates:
            #expect(!text.contains("template=\"/test/") && text.contains("template=\"http://"))
            #expect(text.contains("/test/styles/test-style/256/") && text.contains("/test/styles/test-style/512/"))
        case .metricNames:
            for name in ["mapraster_http_requests_total", "mapraster_cache_hits_total", "mapraster_renders_in_flight"] {
                #expect(text.contains(name))
            }
        case .mentions(let words):
            #expect(words.contains { text.contains($0) }, "\(text)")
        }
    }
}
