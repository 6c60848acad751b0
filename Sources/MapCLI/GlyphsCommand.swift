import Foundation
import MapData
import MapRaster

/// `mapraster glyphs FONT... -o DIR [--fonts DIR]`: glyph PBFs of installed fonts, as node-fontnik's
/// `build-glyphs` writes them: `DIR/{font name}/{start}-{end}.pbf` for each of the 256 ranges, the folder
/// tileserver-gl serves from its `paths.fonts` and a style's `glyphs` URL names.
enum GlyphsCommand {
    static func run(_ arguments: [String], output streams: MapRasterCLI.Output) throws -> Int32 {
        guard let args = try MapRasterCLI.parse(arguments, CommandTable.glyphs, output: streams) else { return 0 }
        guard !args.positional.isEmpty else {
            throw CLIError.usage("glyphs needs font names: mapraster glyphs \"Open Sans Regular\" -o fonts")
        }
        guard let directory = args.values["--output"], !directory.isEmpty else {
            throw CLIError.usage("glyphs needs -o DIR (writes DIR/FONT/0-255.pbf ... DIR/FONT/65280-65535.pbf)")
        }
        let catalog = try FontsOption.catalog(args, output: streams) ?? FontCatalog.default
        var faces: [FontCatalog.Entry] = []
        for name in args.positional {
            guard !name.hasPrefix("/"), let entry = catalog.entry(named: name) else {
                let names = catalog.entries.map(\.name)
                let listed = names.prefix(12).joined(separator: ", ") + (names.count > 12 ? ", ..." : "")
                let hint =
                    name.hasPrefix("/") ? "give the font's name (its folder with --fonts DIR)" : "installed: \(listed)"
                throw CLIError.failure(
                    "no installed font named '\(name)'; \(hint)"
                        + (args["--fonts"] == nil ? " (--fonts DIR adds a folder of font files)" : ""))
            }
            faces.append(entry)
        }
        for (entry, name) in zip(faces, args.positional) {
            let folder = URL(fileURLWithPath: directory).appendingPathComponent(entry.name)
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw CLIError.failure("cannot create folder '\(folder.path)': \(error.localizedDescription)")
            }
            var count = 0
            for index in 0..<GlyphRange.count {
                let range = try InstalledGlyphs.glyphRange(face: entry, index: index)
                count += range.glyphs.count
                let file = folder.appendingPathComponent(GlyphRange.name(ofRange: index) + ".pbf")
                do { _ = try AtomicFile.write(Data(range.pbfBytes()), to: file) } catch {
                    throw CLIError.failure(error.description)
                }
            }
            let asked = name == entry.name ? "" : " (for '\(name)')"
            streams.standardOutput(
                "wrote \(folder.path)/: \(GlyphRange.count) ranges, \(count) glyphs of \(entry.name)\(asked)\n")
        }
        return 0
    }
}
