import Foundation
import MapRaster

/// The `mapraster` command line, as a library so that tests can call it.
public enum MapRasterCLI {
    /// Output streams of one run.
    public struct Output: Sendable {
        public var standardOutput: @Sendable (String) -> Void
        public var standardError: @Sendable (String) -> Void

        /// Streams writing to the process's stdout and stderr.
        public static let process = Output(
            standardOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            standardError: { FileHandle.standardError.write(Data($0.utf8)) })

        /// Creates streams from closures.
        public init(
            standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void
        ) {
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    /// The version of MapRaster.
    public static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name) and returns the exit code:
    /// 0 success, 1 failure, 64 usage error.
    public static func run(_ arguments: [String], output: Output = .process) -> Int32 {
        do {
            return try dispatch(arguments, output: output)
        } catch let error as CLIError {
            output.standardError("mapraster: error: \(error.description)\n")
            if case .usage = error { output.standardError("Run 'mapraster --help' for usage.\n") }
            return error.exitCode
        } catch {
            output.standardError("mapraster: error: \(error)\n")
            return 1
        }
    }

    static func dispatch(_ arguments: [String], output: Output) throws -> Int32 {
        guard let first = arguments.first else {
            try RenderCommand.run([], output: output)
            return 0
        }
        switch first {
        case "render": try RenderCommand.run(Array(arguments.dropFirst()), output: output)
        case "diff": return try DiffCommand.run(Array(arguments.dropFirst()), output: output)
        case "tiles": try TilesCommand.run(Array(arguments.dropFirst()), output: output)
        case "mbtiles": try MBTilesCommand.run(Array(arguments.dropFirst()), output: output)
        case "geocode": return try GeocodeCommand.run(Array(arguments.dropFirst()), output: output)
        case "serve": return try ServeCommand.run(Array(arguments.dropFirst()), output: output)
        case "version": try versionCommand(Array(arguments.dropFirst()), output: output)
        case "help", "--help", "-h": output.standardOutput(helpText)
        default:
            if first.hasPrefix("-") {
                try RenderCommand.run(arguments, output: output)
            } else {
                throw CLIError.usage(
                    "unknown command '\(first)'; commands: render, diff, tiles, mbtiles, geocode, serve, version, help")
            }
        }
        return 0
    }

    static func versionCommand(_ arguments: [String], output: Output) throws {
        let args = try Arguments(arguments, valued: [], boolean: ["--verbose"])
        guard args.positional.isEmpty else { throw CLIError.usage("unexpected argument '\(args.positional[0])'") }
        var text = "mapraster \(version)\n"
        if args.flags.contains("--verbose") {
            for library in GraphicsLibraryVersions.all { text += "\(library.name) \(library.version)\n" }
        }
        output.standardOutput(text)
    }

    static let helpText = """
        mapraster: render maps to PNG with MapKit's model (regions, annotations, overlays).

        USAGE
          mapraster                       render the default world map to ./mapraster.png
          mapraster render [options]      render a map
          mapraster diff A.png B.png      compare two PNGs like pixelmatch (mapraster diff --help)
          mapraster tiles -o OUT          render an XYZ tile pyramid (mapraster tiles --help)
          mapraster mbtiles merge OUT IN...   combine MBTiles shards
          mapraster geocode ...           placemark of a point, places for a name (mapraster geocode --help)
          mapraster version [--verbose]   print the version (and the C libraries' with --verbose)
          mapraster help                  print this help

        RENDER OPTIONS
          --center LAT,LON        center of the map, degrees, or a place name (with --span, --meters or --zoom)
          --span DLAT,DLON        region size in degrees (latitudeDelta in (0,180], longitudeDelta in (0,360]),
                                  each at least 0.000001
          --meters M              square region M meters on a side around --center (at least 0.000001)
          --zoom Z                zoom level 0...22 (fractional allowed) around --center
          --bbox W,S,E,N          show a longitude/latitude box (W > E crosses the 180th meridian)
          --size WxH              image size in points (default 512x512)
          --scale N               device pixels per point: 1, 2 or 3 (default 1)
          --map-type TYPE         base map: standard, satellite or hybrid (the shipped styles)
          --style FILE            base map from a style file (MapLibre style subset; see styles/README.md)
          --source NAME=PATH      read the style's source NAME from PATH (.mbtiles, .pmtiles, a {z}/{x}/{y}
                                  template, TileJSON or GeoJSON) instead (repeatable)
          --scene FILE            JSON scene: area, size and GeoJSON features (pins, lines, polygons, circles);
                                  '-' reads it from standard input
          --marker SPEC           markers, repeatable: Google's 'color:blue|size:mid|label:S|LAT,LNG|...' or
                                  tileserver-gl's 'LNG,LAT|icon.png|scale:F|offset:X,Y'
          --path SPEC             a line or filled area, repeatable: Google's 'color:0xRRGGBBAA|weight:5|
                                  fillcolor:C|geodesic:true|LAT,LNG|LAT,LNG...' or '...|enc:POLYLINE', or
                                  tileserver-gl's 'stroke:C|width:N|fill:C|LNG,LAT|LNG,LAT...'
          --visible LAT,LON       a point that must be in the image, repeatable
          --padding PX            with no area the map fits everything it draws, PX points from the edges
                                  (default 16)
          --no-attribution        leave out the data attribution in the bottom-right corner
          --no-base-map           draw no base map: only the scene's shapes and annotations, on transparency
          -o, --output FILE       PNG to write (default mapraster.png); '-' writes it to standard output
          --metadata FILE         also write JSON: size, scale, region, visibleMapRect, zoomLevel, annotations
                                  (frame, state visible/hidden/clustered, cluster id, callout) and clusters
          -h, --help              print this help

        Options on the command line override the scene file. Exit codes: 0 success, 1 failure, 64 usage error.

        """
}
