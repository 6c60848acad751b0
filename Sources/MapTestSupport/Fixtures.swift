import Foundation

/// Locates files of the repository's `fixtures/` folder from tests.
public enum Fixtures {
    /// The package root: the folder holding `Package.swift`, found from this source file's path.
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// The `fixtures/` folder.
    public static let root: URL = packageRoot.appendingPathComponent("fixtures", isDirectory: true)

    /// The URL of a fixture given by a path relative to `fixtures/`, such as `"geometry/truth.json"`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// The contents of a fixture.
    ///
    /// - Throws: the file system's error, naming the path, when it cannot be read.
    public static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }
}
