// swift-tools-version:6.0
// libFuzzer targets for MapRaster: build and run them with `Scripts/fuzz.sh TARGET SECONDS` (they need
// `-sanitize=fuzzer`, which the script passes; without it the executables do not link).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between clones and worktrees.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let mapRaster = root.lastPathComponent

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzDriver"] + products.map { .product(name: $0, package: mapRaster) },
        path: "Targets/\(name)")
}

let package = Package(
    name: "MapRasterFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // libFuzzer's driver, called from each target's main.swift.
        .target(name: "FuzzDriver", path: "Targets/FuzzDriver"),
        fuzzTarget("FuzzJSON", ["MapRaster"]),
        fuzzTarget("FuzzGeoJSON", ["MapRaster"]),
        fuzzTarget("FuzzScene", ["MapRaster"]),
        fuzzTarget("FuzzPNG", ["MapRaster"]),
        fuzzTarget("FuzzImage", ["MapRaster"]),
        fuzzTarget("FuzzMBTiles", ["MapStorage"]),
        fuzzTarget("FuzzMVT", ["MapRaster"]),
        fuzzTarget("FuzzPMTiles", ["MapStorage"]),
        fuzzTarget("FuzzStyle", ["MapRaster"]),
        fuzzTarget("FuzzServer", ["MapRaster", "MapServer"]),
        fuzzTarget("FuzzStaticMap", ["MapRaster"]),
        fuzzTarget("FuzzGlyphs", ["MapRaster"]),
    ],
    swiftLanguageModes: [.v6]
)
