import Foundation
import MapRaster
import MapServer

/// `mapraster serve`: the HTTP server for static maps and raster tiles (see README "Serving maps").
enum ServeCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws -> Int32 {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.serve, output: streams) else { return 0 }
        guard args.positional.isEmpty else { throw CLIError.usage("unexpected argument '\(args.positional[0])'") }
        var config: ServerConfiguration
        let styleOptions = StyleLoadOptions(strict: args.flags.contains("--strict"))
        var sprites: [String: String] = [:]
        for item in args.repeated["--sprite"] ?? [] {
            let (id, path) = try pair(item, flag: "--sprite")
            sprites[id] = path
        }
        do {
            if let file = args["--config"] {
                config = try ServerConfiguration.load(
                    contentsOf: URL(fileURLWithPath: file), styleOptions: styleOptions)
            } else {
                config = ServerConfiguration()
                config.styleOptions = styleOptions
            }
            for item in args.repeated["--data"] ?? [] {
                let (id, path) = try pair(item, flag: "--data")
                try config.addData(id: id, path: path)
            }
            if let fonts = try FontsOption.catalog(args, output: streams) { config.fonts = fonts }
            if let folder = args["--glyph-folder"] {
                do { config.glyphFolder = try GlyphFolder(directory: folder) } catch {
                    throw CLIError.usage("--glyph-folder \(error.description)")
                }
            }
            for item in args.repeated["--style"] ?? [] {
                let (id, path) = try pair(item, flag: "--style")
                try config.addStyle(id: id, path: path, sprite: sprites[id])
            }
            for line in config.styleWarnings { streams.standardError("mapraster: warning: \(line)\n") }
            if config.styles.isEmpty && config.data.isEmpty { config.styles = try ServerConfiguration.shippedStyles() }
        } catch let error as ServerError {
            throw CLIError.usage(error.description)
        }
        func integer(_ flag: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let text = args[flag] else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw CLIError.usage(
                    "\(flag) '\(text)' is invalid: use a whole number in \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        if let port = try integer("--port", 0...65_535) { config.port = port }
        if let bind = args["--bind"] { config.address = bind == "localhost" ? "127.0.0.1" : bind }
        if let workers = try integer("--workers", 1...256) { config.workers = workers }
        if let queue = try integer("--queue", 0...100_000) { config.queueLimit = queue }
        if let bytes = try integer("--cache-bytes", 0...(1 << 40)) { config.cacheBytes = bytes }
        if let size = try integer("--metatile", 1...64) { config.metatileSize = size }
        if let level = try integer("--compression", 0...9) { config.compressionLevel = level }
        if let limit = try integer("--max-connections", 1...1_000_000) { config.connectionLimit = limit }
        if let limit = try integer("--connections-per-client", 0...1_000_000) { config.connectionsPerClient = limit }
        if let seconds = try integer("--head-timeout", 1...3_600) { config.headTimeout = seconds }
        if let seconds = try integer("--keep-alive-timeout", 1...3_600) { config.keepAliveTimeout = seconds }
        if let threads = try integer("--io-threads", 1...64) { config.ioThreads = threads }
        if let size = try integer("--max-size", 1...16_384) { config.maximumSize = size }
        if let url = args["--public-url"] { config.publicURL = url }
        if let cors = args["--cors"] { config.cors = cors == "none" ? nil : cors }
        if let icons = args["--icons"] { config.iconsDirectory = icons }
        if let format = args["--access-log"] {
            guard let chosen = AccessLogFormat(rawValue: format) else {
                throw CLIError.usage("--access-log '\(format)' is invalid: use common, json or off")
            }
            config.accessLog = chosen
        }
        if args.flags.contains("--quiet") { config.accessLog = .off }
        if let text = args["--render-timeout"] {
            guard let seconds = Double(text), (0.05...3_600).contains(seconds) else {
                throw CLIError.usage("--render-timeout '\(text)' is invalid: use seconds in 0.05...3600")
            }
            config.renderTimeout = seconds
        }
        let log: @Sendable (String) -> Void = { line in streams.standardError(line + "\n") }
        let server: MapServer
        do {
            server = try MapServer(configuration: config, log: log)
            try server.start()
        } catch { throw CLIError.failure("\(error)") }
        // Stop on SIGINT or SIGTERM: no new connections, requests in flight finish, exit 0. Set up before the
        // banner, which tells scripts and tests that the server is ready: for requests (the bound port, also with
        // --port 0) and for stopping.
        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        let port = server.port ?? config.port
        let styles = config.styles.map(\.id).joined(separator: ", ")
        let data = config.data.isEmpty ? "none" : config.data.map(\.id).joined(separator: ", ")
        streams.standardOutput(
            "mapraster: serving http://\(config.address):\(port)/ (styles: \(styles); data: \(data)); "
                + "SIGINT or SIGTERM stops\n")

        stop.wait()
        streams.standardError("mapraster: stopping; finishing requests in flight\n")
        server.shutdown(grace: 30)
        for source in sources { source.cancel() }
        return 0
    }

    static func pair(_ item: String, flag: String) throws -> (String, String) {
        guard let eq = item.firstIndex(of: "="), eq != item.startIndex, item.index(after: eq) != item.endIndex else {
            throw CLIError.usage("\(flag) '\(item)' is invalid: expected ID=PATH")
        }
        return (String(item[..<eq]), String(item[item.index(after: eq)...]))
    }
}
