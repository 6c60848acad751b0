// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MapRaster",
    products: [
        .library(name: "MapRaster", targets: ["MapRaster"]),
        .library(name: "MapRasterTesting", targets: ["MapRasterTesting"]),
        // MBTiles storage, a product so that the fuzz package (Fuzz/) can read MBTiles files.
        .library(name: "MapStorage", targets: ["MapStorage"]),
        // The HTTP server, a product so that the fuzz package can drive its routes.
        .library(name: "MapServer", targets: ["MapServer"]),
        .executable(name: "mapraster", targets: ["mapraster"]),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config. MapGraphics imports them all but SQLite, which
        // only MapStorage imports, and libdeflate, which only MapCompression imports.
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo-ft",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        // ICU (Debian's libicu-dev) behind a small C file, so that its headers never meet Foundation's ICU.
        .target(name: "CICU", linkerSettings: [.linkedLibrary("icuuc")]),
        // Pixel kernels in C for instruction sets Swift cannot pick per function (AVX2), chosen at run time.
        .target(name: "CRasterKernels"),
        .systemLibrary(
            name: "CSPNG", pkgConfig: "spng",
            providers: [.apt(["libspng-dev"])]),
        .systemLibrary(
            name: "CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // glibc's malloc.h (mallopt), part of libc: no package.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CImageQuant", pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]),
        // librsvg (Debian's librsvg2-dev): SVG icons drawn for `mapraster sprite` (MapGraphics' SpriteBuilder).
        // No pkgConfig: its GLib flags carry `-pthread`, which SwiftPM warns about; see Sources/CRsvg/shim.h.
        .systemLibrary(name: "CRsvg"),

        // Deflate (zlib, gzip) through libdeflate: the only module that calls it.
        .target(name: "MapCompression", dependencies: ["MapGeometry", "CDeflate"]),
        // Pure Swift: coordinates, map points, map rects, projection, viewport, tiles.
        .target(name: "MapGeometry"),
        // Data decoding: JSON with line/column errors, GeoJSON.
        .target(name: "MapData", dependencies: ["MapGeometry"]),
        // Style vocabulary: colors, the MapLibre style-spec subset (decoded with MapData's JSON parser).
        .target(name: "MapStyle", dependencies: ["MapGeometry", "MapData"]),
        // The Cairo canvas: surfaces, contexts, paths, fonts, PNG (written through MapData's AtomicFile), sprites
        // built from SVG icons (librsvg).
        .target(
            name: "MapGraphics",
            dependencies: [
                "MapGeometry", "CCairo", "CFreeType", "CHarfBuzz", "CICU", "CSPNG", "CPixman", "CPNG", "CImageQuant",
                "CMalloc", "CRasterKernels",
                "CTurboJPEG", "CWebP", "CRsvg", "MapCompression", "MapData",
            ]),
        // The base map: MapLibre-style rendering of every layer type, labels, the shipped styles and data.
        .target(
            name: "MapBaseMap", dependencies: ["MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapStorage"],
            resources: [
                .copy("Resources/naturalearth"), .copy("Resources/geonames"), .copy("Resources/helsinki"),
                .copy("Resources/bluemarble"), .copy("Resources/styles"), .copy("Resources/vectortiles"),
            ]),
        // MapKit's overlays and their renderers (tile overlays read MBTiles through MapStorage).
        .target(name: "MapOverlays", dependencies: ["MapGeometry", "MapData", "MapGraphics", "MapStorage"]),
        // MapKit's annotations, their views and the layout engine (clusters, collisions, callouts).
        .target(name: "MapAnnotations", dependencies: ["MapGeometry", "MapData", "MapGraphics"]),
        // The snapshotter: MKMapView's API as a thin facade over base map, overlays and annotations.
        .target(
            name: "MapRender",
            dependencies: [
                "MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapBaseMap", "MapOverlays", "MapAnnotations",
            ]),
        // Scene files and GeoJSON import: one converter from GeoJSON to annotations and overlays.
        .target(
            name: "MapScene",
            dependencies: [
                "MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapBaseMap", "MapOverlays", "MapAnnotations",
                "MapRender",
            ]),
        // Offline geocoding: placemarks from coordinates (Natural Earth, GeoNames, OSM addresses) and places by name.
        // No drawing: `Placemark: Annotation` lives in MapRaster, which sees both.
        .target(
            name: "MapGeocoding", dependencies: ["MapGeometry", "MapData"],
            resources: [.copy("Resources/geocoding")]),
        // Tile storage: MBTiles in SQLite (the only module that calls SQLite).
        .target(name: "MapStorage", dependencies: ["MapGeometry", "MapData", "MapCompression", "CSQLite"]),
        // Tile pyramids: metatiles, parallel rendering, directory and MBTiles output.
        .target(
            name: "MapTiles",
            dependencies: [
                "MapGeometry", "MapData", "MapRender", "MapBaseMap", "MapAnnotations", "MapOverlays", "MapGraphics",
                "MapStorage",
            ]),
        // pixelmatch-compatible image comparison with ignore masks.
        .target(name: "MapDiff", dependencies: ["MapGeometry", "MapData", "MapGraphics"]),
        // One import for users of the library; also where a geocoder's `Placemark` becomes an `Annotation`
        // (MapGeocoding itself draws nothing and never sees Cairo).
        .target(
            name: "MapRaster",
            dependencies: [
                "MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapBaseMap", "MapOverlays", "MapAnnotations",
                "MapRender", "MapScene", "MapDiff", "MapGeocoding",
            ]),
        // The HTTP server (`mapraster serve`): tiles, static maps, data passthrough, metrics, through libmicrohttpd.
        .target(
            name: "MapServer",
            dependencies: [
                "MapRaster", "MapTiles", "MapStorage", "MapData", "MapCompression", "MapGeocoding", "CMicroHTTPD",
            ]),
        // Command-line interface as a library so that tests can call it.
        .target(
            name: "MapCLI",
            dependencies: [
                "MapGeometry", "MapData", "MapRaster", "MapTiles", "MapStorage", "MapGeocoding", "MapServer",
            ]),
        .executableTarget(name: "mapraster", dependencies: ["MapCLI"]),
        // For users' test targets: render and compare with approved images (XCTest and Swift Testing).
        .target(name: "MapRasterTesting", dependencies: ["MapRender", "MapDiff", "MapGraphics"]),
        // Annotation benchmarks, never run by `swift test`:
        // `swift build -c release && .build/release/AnnotationBenchmarks`.
        .executableTarget(
            name: "AnnotationBenchmarks", dependencies: ["MapRaster"], path: "Benchmarks/AnnotationBenchmarks"),
        // Overlay benchmark (1,000,000-point polyline); run with `swift run -c release OverlayBenchmarks`.
        .executableTarget(name: "OverlayBenchmarks", dependencies: ["MapRaster"], path: "Benchmarks/OverlayBenchmarks"),
        // Renders the views of Scripts/bench-mapnik.py and compares (swift run -c release StyleBenchmark).
        .executableTarget(name: "StyleBenchmark", dependencies: ["MapRaster"], path: "Benchmarks/StyleBenchmark"),
        // MapRaster's side of Benchmarks/streets/bench-streets.py (streets style over vector tiles vs MapLibre Native).
        .executableTarget(
            name: "StreetsBenchmark", dependencies: ["MapRaster", "MapTiles"], path: "Benchmarks/StreetsBenchmark"),
        // Reverse geocoding of 1,000,000 land points against PyPI reverse_geocoder, same run (see its main.swift).
        .executableTarget(
            name: "GeocodingBenchmark", dependencies: ["MapGeometry", "MapGeocoding"],
            path: "Benchmarks/GeocodingBenchmark"),
        // The in-process side of Benchmarks/server-load.sh (requests answered by MapServer.handle()).
        .executableTarget(
            name: "ServerBenchmark", dependencies: ["MapServer", "MapRaster"], path: "Benchmarks/ServerBenchmark"),
        // The in-process side of Benchmarks/diff/bench.py (`mapraster diff`'s file comparison, no process start-up).
        .executableTarget(
            name: "DiffBenchmark", dependencies: ["MapGeometry", "MapData", "MapGraphics", "MapDiff"],
            path: "Benchmarks/DiffBenchmark"),
        // Golden-image assertions and fixture lookup for this package's tests.
        .target(
            name: "MapTestSupport", dependencies: ["MapGeometry", "MapGraphics", "MapRaster", "MapRasterTesting"]),

        .testTarget(name: "MapCompressionTests", dependencies: ["MapCompression"]),
        .testTarget(name: "MapDataTests", dependencies: ["MapGeometry", "MapData", "MapTestSupport"]),
        .testTarget(
            name: "MapStorageTests",
            dependencies: ["MapGeometry", "MapStorage", "MapData", "MapCompression", "MapTestSupport"]),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry", "MapTestSupport"]),
        .testTarget(
            name: "MapGeocodingTests", dependencies: ["MapGeometry", "MapGeocoding", "MapRaster", "MapTestSupport"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapGeometry", "MapData", "MapStyle", "MapTestSupport"]),
        .testTarget(
            name: "MapGraphicsTests", dependencies: ["MapGeometry", "MapGraphics", "MapCompression", "MapTestSupport"]),
        .testTarget(name: "MapRenderTests", dependencies: ["MapRaster", "MapTestSupport"]),
        .testTarget(
            name: "MapBaseMapTests",
            dependencies: [
                "MapGeometry", "MapData", "MapStyle", "MapGraphics", "MapBaseMap", "MapRender", "MapRaster",
                "MapTestSupport",
            ]),
        .testTarget(name: "MapOverlaysTests", dependencies: ["MapRaster", "MapOverlays", "MapTestSupport"]),
        .testTarget(name: "MapAnnotationsTests", dependencies: ["MapRaster", "MapAnnotations", "MapTestSupport"]),
        .testTarget(name: "MapSceneTests", dependencies: ["MapRaster", "MapScene", "MapTestSupport"]),
        .testTarget(
            name: "MapDiffTests",
            dependencies: ["MapGraphics", "MapDiff", "MapRasterTesting", "MapRaster", "MapTestSupport"]),
        .testTarget(
            name: "MapTilesTests",
            dependencies: [
                "MapGeometry", "MapGraphics", "MapDiff", "MapTiles", "MapStorage", "MapRaster", "MapTestSupport",
            ]),
        .testTarget(
            name: "MapServerTests",
            dependencies: [
                "MapServer", "MapRaster", "MapTiles", "MapStorage", "MapData", "MapCompression", "MapTestSupport",
            ]),
        .testTarget(
            name: "MapCLITests",
            dependencies: [
                "MapGeometry", "MapData", "MapRaster", "MapCLI", "MapTestSupport", "MapStorage", "MapServer",
                "mapraster",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
