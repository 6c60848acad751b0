import Foundation
import MapData
import MapGeometry
import MapGraphics

/// Compares a folder of approved PNGs with a folder of new renders, image by image.
///
/// Images are matched by their path relative to each folder (`3/4/2.png` with `3/4/2.png`); an image only
/// in the actual folder is *new*, one only in the expected folder is *missing*. Images are compared a few
/// at a time on all cores; only the images in flight are in memory (two decoded images and a diff image
/// each), whatever the number of files, and every changed image is handed to `changed` while it is
/// still in memory (the report writer copies it there) and then dropped.
///
/// Files that are not PNGs, truncated or corrupt are reported as ``Entry/Status-swift.enum/error`` with
/// the reason, and the rest are compared. Symbolic links that lead out of their folder are not followed
/// (reported as errors); links inside the folder are followed, folders reached through links are not
/// entered.
///
/// ```swift
/// let run = try FolderDiff(expected: goldens, actual: renders).run()
/// print(run.entries.filter { $0.status != .passed }.count)
/// ```
public struct FolderDiff: Sendable {
    /// What happened to one image.
    public struct Entry: Sendable {
        /// The outcome of one image.
        public enum Status: String, Sendable, CaseIterable {
            /// Within its allowance (possibly with a few differing pixels).
            case passed
            /// More differing pixels than allowed.
            case changed
            /// Only in the actual folder: no approved image yet.
            case new
            /// Only in the expected folder: not rendered.
            case missing
            /// Unreadable, not a PNG, or the sizes differ.
            case error
        }

        /// The path relative to the folders, with `/` separators.
        public var path: String
        /// The outcome.
        public var status: Status
        /// The counts, when the images were compared.
        public var result: PixelMatch.Result?
        /// Width and height of the compared (or the one present) image; 0 when unknown.
        public var width = 0
        /// See ``width``.
        public var height = 0
        /// The tolerance applied to the image.
        public var tolerance: Tolerance
        /// What went wrong (errors), or a note about the file (16-bit or palette PNG).
        public var message: String?

        /// Whether this image passes: passed, nothing else.
        public var passed: Bool { status == .passed }
    }

    /// The images in the comparison, read while they are in flight.
    public struct Images {
        /// The approved image, when it could be read.
        public var expected: RGBAImage?
        /// The new image, when it could be read.
        public var actual: RGBAImage?
        /// The diff image (changed images only).
        public var diff: RGBAImage?
        /// The approved file's bytes, when it could be read.
        public var expectedFile: Data?
        /// The new file's bytes, when it could be read.
        public var actualFile: Data?
    }

    /// A whole run: every image's entry, sorted by path.
    public struct Run: Sendable {
        /// One entry per path in either folder.
        public var entries: [Entry]
        /// Whether every image passed.
        public var passed: Bool { entries.allSatisfy(\.passed) }
        /// The number of entries with `status`.
        public func count(_ status: Entry.Status) -> Int { entries.lazy.filter { $0.status == status }.count }
    }

    /// The folder of approved images.
    public var expected: URL
    /// The folder of new images.
    public var actual: URL
    /// The tolerance of every image without an override.
    public var tolerance: Tolerance
    /// Per-image tolerances (a `thresholds.json`).
    public var overrides: ToleranceOverrides
    /// Pixels to leave out of every image, in addition to each override's rectangles.
    public var mask: IgnoreMask?
    /// Images compared at once (and threads); 0 means one per core.
    public var threads: Int
    /// Diff-image colors and alpha (the threshold and anti-aliasing come from each image's tolerance).
    public var drawing: PixelMatch.Options

    /// The largest PNG file read: 256 MiB.
    public static let fileLimit = 256 << 20
    /// The most pixels an image may have: 8192x8192.
    public static let maximumPixels = 1 << 26

    /// Creates a folder comparison.
    public init(
        expected: URL, actual: URL, tolerance: Tolerance = Tolerance(), overrides: ToleranceOverrides = .none,
        mask: IgnoreMask? = nil, threads: Int = 0, drawing: PixelMatch.Options = PixelMatch.Options()
    ) {
        self.expected = expected
        self.actual = actual
        self.tolerance = tolerance
        self.overrides = overrides
        self.mask = mask
        self.threads = threads
        self.drawing = drawing
    }

    /// Compares the folders.
    ///
    /// - Parameter changed: called (from several threads, one image at a time each) for every image that is
    ///   not passed, with the images read; it must be safe to call concurrently.
    /// - Returns: the entries, sorted by path.
    /// - Throws: ``FolderDiffError`` when a folder cannot be listed.
    public func run(changed: @Sendable (Entry, Images) -> Void = { _, _ in }) throws -> Run {
        let expectedFiles = try FolderListing(root: expected)
        let actualFiles = try FolderListing(root: actual)
        let paths = Set(expectedFiles.files.keys).union(actualFiles.files.keys).sorted()
        let lanes = PixelMatch.lanes(threads)
        // Batches of a few images per lane keep memory to the images in flight.
        let batchSize = lanes * 2
        var entries: [Entry] = []
        entries.reserveCapacity(paths.count)
        var start = 0
        while start < paths.count {
            let batch = Array(paths[start..<min(paths.count, start + batchSize)])
            let results = Locked([Entry?](repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: min(lanes, batch.count)) { lane in
                var i = lane
                while i < batch.count {
                    let path = batch[i]
                    let entry = compare(path, expectedFiles.files[path], actualFiles.files[path], changed)
                    results.withLock { $0[i] = entry }
                    i += lanes
                }
            }
            entries += results.withLock { $0.compactMap { $0 } }
            start += batchSize
        }
        return Run(entries: entries)
    }

    private func compare(
        _ path: String, _ expectedFile: FolderListing.File?, _ actualFile: FolderListing.File?,
        _ changed: (Entry, Images) -> Void
    ) -> Entry {
        let tolerance = overrides.tolerance(for: path, default: self.tolerance)
        var entry = Entry(path: path, status: .passed, tolerance: tolerance)
        var images = Images()
        func fail(_ status: Entry.Status, _ message: String?) -> Entry {
            entry.status = status
            entry.message = message
            changed(entry, images)
            return entry
        }
        let e = expectedFile.map(Self.readFile)
        let a = actualFile.map(Self.readFile)
        images.expectedFile = e?.data
        images.actualFile = a?.data
        if let problem = e?.problem { return fail(.error, "expected: \(problem)") }
        if let problem = a?.problem { return fail(.error, "actual: \(problem)") }
        guard let e, let a else {
            let present = e ?? a
            entry.width = present?.header?.width ?? 0
            entry.height = present?.header?.height ?? 0
            let image = present.flatMap { try? Self.decode($0) }
            if expectedFile == nil {
                images.actual = image
                return fail(.new, "no approved image; the actual image is new")
            }
            images.expected = image
            return fail(.missing, "no actual image was rendered")
        }
        guard let expectedHeader = e.header, let actualHeader = a.header, let eData = e.data, let aData = a.data
        else { return entry }
        entry.width = expectedHeader.width
        entry.height = expectedHeader.height
        entry.message =
            [expectedHeader.note.map { "expected: \($0)" }, actualHeader.note.map { "actual: \($0)" }]
            .compactMap { $0 }.joined(separator: "; ").nilIfEmpty
        // Equal files hold equal images: a compare of the bytes, no decoding.
        if eData == aData {
            entry.result = PixelMatch.Result(
                differentPixels: 0, antialiasedPixels: 0, ignoredPixels: 0,
                totalPixels: expectedHeader.width * expectedHeader.height)
            return entry
        }
        let expectedImage: RGBAImage
        let actualImage: RGBAImage
        do { expectedImage = try Self.decode(e) } catch { return fail(.error, "expected: \(error)") }
        do { actualImage = try Self.decode(a) } catch { return fail(.error, "actual: \(error)") }
        images.expected = expectedImage
        images.actual = actualImage
        guard expectedImage.width == actualImage.width, expectedImage.height == actualImage.height else {
            return fail(
                .error,
                "the images differ in size: expected is \(expectedImage.width)x\(expectedImage.height), actual is "
                    + "\(actualImage.width)x\(actualImage.height)")
        }
        let options = tolerance.options(drawing: drawing)
        do {
            let mask = try IgnoreMask.combined(self.mask, tolerance.ignore, width: entry.width, height: entry.height)
            // Compared without drawing first: a passing image (most of them) never pays for a diff image.
            let result = try PixelMatch.compare(expectedImage, actualImage, options: options, mask: mask, threads: 1)
            entry.result = result
            if tolerance.passes(result) { return entry }
            let drawn = try PixelMatch.diffImage(expectedImage, actualImage, options: options, mask: mask, threads: 1)
            entry.result = drawn.result
            images.diff = drawn.image
            return fail(.changed, entry.message)
        } catch {
            return fail(.error, "\(error)")
        }
    }

    /// A PNG file read from a folder: its bytes and header, or what is wrong with it.
    struct ReadFile {
        var url: URL
        var data: Data?
        var header: PNGHeader?
        var problem: String?
    }

    static func readFile(_ file: FolderListing.File) -> ReadFile {
        var read = ReadFile(url: file.url)
        if let problem = file.problem {
            read.problem = problem
            return read
        }
        do { read.data = try FileReader.read(file.url, limit: fileLimit) } catch {
            read.problem = "cannot read: \(error.problem)"
            return read
        }
        guard let data = read.data, let header = PNGHeader(data) else {
            read.problem = "not a PNG file (no PNG signature and IHDR header)"
            return read
        }
        read.header = header
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > maximumPixels {
            read.problem =
                "\(header.width)x\(header.height) is more than the \(maximumPixels) pixels (8192x8192) diff "
                + "compares (limit)"
        }
        return read
    }

    static func decode(_ file: ReadFile) throws -> RGBAImage {
        guard let data = file.data else { throw GraphicsError.cannotReadPNG(path: file.url.path, reason: "unread") }
        return try RGBAImage(pngData: data, source: file.url.path)
    }
}
/// A folder that cannot be compared.
public enum FolderDiffError: MapRasterError, Equatable {
    /// The folder does not exist, is not a folder or cannot be listed.
    case cannotList(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotList(path, reason):
            return "cannot list the folder '\(path)': \(reason); give a folder of PNG files"
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
