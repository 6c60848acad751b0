import Foundation
import MapRaster

/// `--fonts DIR` of render, tiles and serve: a font catalog of DIR, then Debian's font packages.
enum FontsOption {
    /// The catalog `--fonts` asks for (nil without the option); each skipped file is reported on
    /// standard error.
    ///
    /// - Throws: ``CLIError/usage(_:)`` when DIR is missing or not a directory.
    static func catalog(_ args: Arguments, output streams: MapRasterCLI.Output) throws -> FontCatalog? {
        guard let directory = args["--fonts"] else { return nil }
        let catalog: FontCatalog
        do { catalog = try FontCatalog(directories: [directory]) } catch let error as GraphicsError {
            throw CLIError.usage("--fonts \(error.description)")
        }
        for warning in catalog.warnings { streams.standardError("mapraster: warning: \(warning)\n") }
        return catalog
    }
}
