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

/// `--glyphs TEMPLATE` of render and tiles: glyph PBFs labels are drawn from.
enum GlyphsOption {
    /// The glyph source `--glyphs` names (nil without the option).
    ///
    /// - Throws: ``CLIError/usage(_:)`` when the template lacks `{fontstack}` or `{range}`.
    static func provider(_ args: Arguments) throws -> GlyphPBFTemplate? {
        guard let template = args["--glyphs"] else { return nil }
        do { return try GlyphPBFTemplate(template) } catch { throw CLIError.usage("--glyphs \(error.description)") }
    }
}
