import Foundation
import MapGeometry

/// The fonts `text-font` stacks resolve to: the faces of the font files in a list of directories, indexed
/// by the family and style names inside each file.
///
/// MapLibre and OpenMapTiles name a font "Family Style" ("Noto Sans Regular", "Open Sans Semibold",
/// "DejaVu Sans Book"); a name matches a face whose family and style (FreeType's `family_name` and
/// `style_name`) give it, ignoring case and repeated spaces, with "Regular", "Book" and "Normal" the
/// same style, and a bare family name meaning its regular face. An absolute path to a font file also works.
///
/// Directories are scanned in sorted order (subdirectories too, up to 8 levels and 10,000 files), the
/// first face found under a name keeps it, so the result does not depend on the file system's order.
/// Files that are not fonts or are damaged are skipped; ``warnings`` names each. The files are listed when
/// the catalog is made and read (their names, through FreeType) in that order only as far as a name looked
/// up needs (issue #11, cold start: the shipped styles' DejaVu faces are among the first files); the answers
/// are those of reading every file first.
///
/// ```swift
/// let catalog = try FontCatalog(directories: ["/srv/fonts"])
/// let font = try catalog.font(stack: ["Open Sans Semibold", "Noto Sans Regular"])
/// ```
public final class FontCatalog: @unchecked Sendable {
    /// One face the catalog found.
    public struct Entry: Sendable, Equatable {
        /// The font file.
        public var path: String
        /// The face's index in the file (collections).
        public var index: Int
        /// The family name inside the file.
        public var family: String
        /// The style name inside the file.
        public var style: String
        /// "Family Style", the name a `text-font` stack uses.
        public var name: String { style.isEmpty ? family : "\(family) \(style)" }
    }

    /// The directories the default catalog scans: Debian's packages of the fonts the shipped styles and
    /// the fallback chain use (fonts-dejavu-core, fonts-ipaexfont-gothic, fonts-lohit-deva), and those of
    /// fonts-noto-core, fonts-noto-cjk and fonts-open-sans when installed.
    public static let defaultDirectories = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/opentype/ipaexfont-gothic",
        "/usr/share/fonts/truetype/lohit-devanagari",
        "/usr/share/fonts/truetype/noto",
        "/usr/share/fonts/opentype/noto",
        "/usr/share/fonts/truetype/open-sans",
    ]

    /// The catalog of ``defaultDirectories``, scanned once per process.
    public static let `default` = FontCatalog(scanning: defaultDirectories, required: [])

    /// The directories scanned, in order.
    public let directories: [String]
    /// Every face found, in scan order.
    public var entries: [Entry] {
        lock.lock()
        defer { lock.unlock() }
        readAll()
        return read.entries
    }
    /// One line per file skipped: its path and why.
    public var warnings: [String] {
        lock.lock()
        defer { lock.unlock() }
        readAll()
        return listingWarnings + read.warnings
    }
    /// The stack used when a stack names no installed font; nil makes that an error.
    public let fallbackStack: [String]?
    /// The font files, in scan order, each once.
    private let files: [String]
    /// The directories skipped while listing.
    private let listingWarnings: [String]
    private let lock = NSLock()
    /// Guarded by `lock`: the files read so far (a prefix of `files`) and what they gave.
    private var read = Read()
    /// Guarded by `lock`: the stacks that fell back to another face, each reported once.
    private var reportedFallbacks = Set<[String]>()

    private struct Read {
        var count = 0
        var entries: [Entry] = []
        var warnings: [String] = []
        var index: [String: Int] = [:]
    }

    /// Scans `directories` (then the default directories, when `includeDefaults`) for font files.
    ///
    /// - Parameters:
    ///   - directories: directories of .ttf, .otf, .ttc and .otc files, searched before the defaults.
    ///   - includeDefaults: also scan ``defaultDirectories`` (after `directories`).
    ///   - fallbackStack: a stack to use when one names no installed font, instead of an error.
    /// - Throws: ``GraphicsError/cannotReadFontDirectory(path:reason:)`` when one of `directories` is
    ///   missing or not a directory.
    public convenience init(
        directories: [String], includeDefaults: Bool = true, fallbackStack: [String]? = nil
    ) throws {
        for directory in directories {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                throw GraphicsError.cannotReadFontDirectory(path: directory, reason: "no such directory")
            }
            guard isDirectory.boolValue else {
                throw GraphicsError.cannotReadFontDirectory(path: directory, reason: "not a directory")
            }
        }
        self.init(
            scanning: directories + (includeDefaults ? Self.defaultDirectories : []), required: directories,
            fallbackStack: fallbackStack)
    }

    private init(scanning directories: [String], required: [String], fallbackStack: [String]? = nil) {
        var seen = Set<String>()
        let unique = directories.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
        self.directories = unique
        self.fallbackStack = fallbackStack
        var warnings: [String] = []
        var files: [String] = []
        for directory in unique {
            Self.collect(
                directory, depth: 0, into: &files, warnings: &warnings, reportMissing: required.contains(directory))
        }
        var visited = Set<String>()
        self.files = files.filter { visited.insert($0).inserted }
        self.listingWarnings = warnings
    }

    /// Reads the next file's faces into `read`; false when every file is read. Call with `lock` held.
    private func readNext() -> Bool {
        guard read.count < files.count else { return false }
        let file = files[read.count]
        read.count += 1
        do {
            for names in try FreeTypeFace.names(path: file) {
                let entry = Entry(path: file, index: names.index, family: names.family, style: names.style)
                for key in Self.keys(family: entry.family, style: entry.style) where read.index[key] == nil {
                    read.index[key] = read.entries.count
                }
                read.entries.append(entry)
            }
        } catch let error as GraphicsError {
            read.warnings.append("skipped font file '\(file)': \(Self.reason(error))")
        } catch {
            read.warnings.append("skipped font file '\(file)': \(error)")
        }
        return true
    }

    /// Reads every file not read yet. Call with `lock` held.
    private func readAll() {
        while readNext() {}
    }

    static let maximumFiles = 10_000
    static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    private static func reason(_ error: GraphicsError) -> String {
        if case .cannotLoadFont(_, let reason) = error { return reason }
        return error.description
    }

    private static func collect(
        _ directory: String, depth: Int, into files: inout [String], warnings: inout [String], reportMissing: Bool
    ) {
        guard depth <= 8, files.count < maximumFiles else { return }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
            if reportMissing || depth > 0 { warnings.append("skipped font directory '\(directory)': not readable") }
            return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            guard files.count < maximumFiles else {
                warnings.append("stopped scanning at \(maximumFiles) font files, in '\(directory)'")
                return
            }
            let path = (directory as NSString).appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                collect(path, depth: depth + 1, into: &files, warnings: &warnings, reportMissing: false)
            } else if fontExtensions.contains((name as NSString).pathExtension.lowercased()) {
                files.append(path)
            }
        }
    }

    /// Lowercased words, "book" and "normal" as "regular", "italic" kept.
    static func normalize(_ name: String) -> String {
        name.lowercased().split(whereSeparator: \.isWhitespace).map { word in
            word == "book" || word == "normal" ? "regular" : String(word)
        }.joined(separator: " ")
    }

    /// The names a face is found under: "family style", and the bare family for a regular face.
    static func keys(family: String, style: String) -> [String] {
        let f = normalize(family)
        let s = normalize(style)
        if s.isEmpty || s == "regular" { return ["\(f) regular", f] }
        return ["\(f) \(s)"]
    }

    /// The face a stack entry names, if the catalog has it: "Family Style", a bare family name, or an
    /// absolute path to a font file.
    public func entry(named name: String) -> Entry? {
        if name.hasPrefix("/") {
            return Self.fontExtensions.contains((name as NSString).pathExtension.lowercased())
                && FileManager.default.isReadableFile(atPath: name)
                ? Entry(path: name, index: 0, family: name, style: "") : nil
        }
        let key = Self.normalize(name)
        lock.lock()
        defer { lock.unlock() }
        // The first face under `key` keeps it: found, it is the answer; `key + " regular"` only counts when
        // no file has `key`, which takes reading them all.
        while read.index[key] == nil, readNext() {}
        guard let i = read.index[key] ?? read.index[key + " regular"] else { return nil }
        return read.entries[i]
    }

    /// The family names the catalog has, sorted, each once.
    public var families: [String] { Array(Set(entries.map(\.family))).sorted() }

    /// The font for a `text-font` stack: the faces it names that the catalog has, in order, followed by
    /// the fallback chain (``Font/fallbackPaths``). Names the catalog lacks are skipped. A stack naming no
    /// installed face takes the ``fallbackStack`` when one is configured, otherwise the installed face
    /// closest in family, weight and slant (``fallback(for:)``), reported once per stack on standard error.
    ///
    /// - Throws: ``GraphicsError/unknownFontStack(stack:available:)`` only when the catalog has no face at
    ///   all; ``GraphicsError/cannotLoadFont(path:reason:)`` when a file fails.
    public func font(stack: [String]) throws -> Font {
        var faces: [FontFace] = []
        for name in stack {
            guard let entry = entry(named: name) else { continue }
            faces.append(try FontFace.load(path: entry.path, index: entry.index))
        }
        if faces.isEmpty, let fallbackStack, fallbackStack != stack {
            for name in fallbackStack {
                guard let entry = entry(named: name) else { continue }
                faces.append(try FontFace.load(path: entry.path, index: entry.index))
            }
        }
        if faces.isEmpty, let fallback = fallback(for: stack) {
            report(fallback)
            faces.append(try FontFace.load(path: fallback.face.path, index: fallback.face.index))
        }
        guard !faces.isEmpty else { throw GraphicsError.unknownFontStack(stack: stack, available: families) }
        return try Font.stack(faces)
    }

    /// Checks a stack without loading fonts: the error ``font(stack:)`` would throw, if any (only when the
    /// catalog has no face at all: other stacks fall back).
    public func check(stack: [String]) throws {
        if stack.contains(where: { entry(named: $0) != nil }) { return }
        if let fallbackStack, fallbackStack.contains(where: { entry(named: $0) != nil }) { return }
        if let fallback = fallback(for: stack) {
            report(fallback)
            return
        }
        throw GraphicsError.unknownFontStack(stack: stack, available: families)
    }

    /// Writes the warning about a stack that falls back, the first time it does in this catalog.
    private func report(_ fallback: FontFallback) {
        lock.lock()
        let first = reportedFallbacks.insert(fallback.stack).inserted
        lock.unlock()
        if first { FileHandle.standardError.write(Data("mapraster: warning: \(fallback.description)\n".utf8)) }
    }
}
