// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MapRaster",
    products: [
        .library(name: "MapRaster", targets: ["MapRaster"]),
        .executable(name: "mapraster", targets: ["mapraster"]),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config. Only MapGraphics imports them.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo-ft",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),

        // Pure Swift: coordinates, map points, map rects, projection, viewport, tiles.
        .target(name: "MapGeometry"),
        // Data decoding: JSON with line/column errors, GeoJSON.
        .target(name: "MapData", dependencies: ["MapGeometry"]),
        // Style vocabulary: colors, the MapLibre style-spec subset (decoded with MapData's JSON parser).
        .target(name: "MapStyle", dependencies: ["MapGeometry", "MapData"]),
        // The Cairo canvas: surfaces, contexts, paths, fonts, PNG.
        .target(name: "MapGraphics", dependencies: ["MapStyle", "CCairo", "CFreeType", "CHarfBuzz"]),
        // Snapshotter, base map, annotations, overlays.
        .target(
            name: "MapRender", dependencies: ["MapGeometry", "MapData", "MapStyle", "MapGraphics"],
            resources: [
                .copy("Resources/naturalearth"), .copy("Resources/geonames"), .copy("Resources/helsinki"),
                .copy("Resources/bluemarble"), .copy("Resources/styles"),
            ]),
        // One import for users of the library.
        .target(name: "MapRaster", dependencies: ["MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapRender"]),
        // Command-line interface as a library so that tests can call it.
        .target(name: "MapCLI", dependencies: ["MapRaster"]),
        .executableTarget(name: "mapraster", dependencies: ["MapCLI"]),
        // Renders the views of Scripts/bench-mapnik.py and compares (swift run -c release StyleBenchmark).
        .executableTarget(name: "StyleBenchmark", dependencies: ["MapRaster"], path: "Benchmarks/StyleBenchmark"),
        // Golden-image assertions and fixture lookup for tests.
        .target(name: "MapTestSupport", dependencies: ["MapRaster"]),

        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "MapTestSupport"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle", "MapTestSupport"]),
        .testTarget(name: "MapGraphicsTests", dependencies: ["MapGraphics", "MapTestSupport"]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRaster", "MapTestSupport"]),
        .testTarget(name: "MapCLITests", dependencies: ["MapCLI", "MapTestSupport", "mapraster"]),
    ],
    swiftLanguageModes: [.v6]
)
