import Foundation
import MapData
import Testing

/// Where shipped resources are looked for, and what a missing one says (issue #13).
@Suite("Shipped resources: search order and the missing-resource message")
struct ShippedResourcesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var environment: String?
        var executables: [String]
        var folders: [String]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(
            id: "installed", environment: nil, executables: ["/opt/mr/bin/mapraster"],
            folders: ["/opt/mr/bin", "/opt/mr/share/mapraster"]),
        Case(
            id: "environment first", environment: "/data/res", executables: ["/opt/mr/bin/mapraster"],
            folders: ["/data/res", "/opt/mr/bin", "/opt/mr/share/mapraster"]),
        Case(
            id: "empty environment ignored", environment: "", executables: ["/opt/mr/bin/mapraster"],
            folders: ["/opt/mr/bin", "/opt/mr/share/mapraster"]),
        Case(
            id: "through a link: both executables, resolved first, no repeats", environment: nil,
            executables: ["/opt/mr/bin/mapraster", "/usr/local/bin/mapraster", "/opt/mr/bin/./mapraster"],
            folders: [
                "/opt/mr/bin", "/usr/local/bin", "/opt/mr/share/mapraster", "/usr/local/share/mapraster",
            ]),
        Case(
            id: "build folder", environment: nil, executables: ["/src/.build/debug/mapraster"],
            folders: ["/src/.build/debug", "/src/.build/share/mapraster"]),
    ]

    @Test("search folders, in order", arguments: cases)
    func order(_ c: Case) {
        let folders = ShippedResources.searchFolders(environment: c.environment, executables: c.executables)
        #expect(folders.map(\.path) == c.folders)
    }

    @Test("the first place holding the file wins; a missing file names every path looked at")
    func lookup() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mapraster-res-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bundle = "MapRaster_Test.resources"
        let first = root.appendingPathComponent("a/\(bundle)")
        let second = root.appendingPathComponent("b/\(bundle)")
        for folder in [first, second] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("styles"), withIntermediateDirectories: true)
        }
        try Data("2".utf8).write(to: second.appendingPathComponent("styles/x.json"))
        let resources = ShippedResources(bundleName: bundle, candidates: [first, second])
        #expect(try resources.require("x.json", subdirectory: "styles").path == second.path + "/styles/x.json")
        try Data("1".utf8).write(to: first.appendingPathComponent("styles/x.json"))
        #expect(resources.url("x.json", subdirectory: "styles")?.path == first.path + "/styles/x.json")

        #expect(throws: MissingResourceError.self) { try resources.require("y.json", subdirectory: "styles") }
        do {
            _ = try resources.require("y.json", subdirectory: "styles")
        } catch let error as MissingResourceError {
            #expect(error.resource == "styles/y.json")
            #expect(error.looked == [first.path + "/styles/y.json", second.path + "/styles/y.json"])
            #expect(error.description.hasPrefix("the shipped resource 'styles/y.json' (of \(bundle)) is missing"))
            #expect(error.description.contains("MAPRASTER_RESOURCES"))
        }
    }
}
