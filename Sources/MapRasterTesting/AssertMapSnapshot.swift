import Foundation
import MapDiff
import MapGraphics
import MapRender
import Testing
import XCTest

/// Renders `snapshotter` and checks the image against an approved PNG, failing the current test (Swift
/// Testing or XCTest, whichever runs it) with counts and the paths of `actual` and `diff` images.
///
/// ```swift
/// @Test func helsinki() throws {
///     let snapshotter = try MapSnapshotter(options: options)
///     assertMapSnapshot(of: snapshotter, named: "helsinki")
///     // compares with __Snapshots__/<TestFile>/helsinki.png next to the test file
/// }
/// ```
///
/// - Parameters:
///   - snapshotter: what to render.
///   - name: the approved image's name, without `.png`.
///   - approved: the approved image's URL; by default `__Snapshots__/<test file name>/<name>.png` beside
///     the test file.
///   - tolerance: threshold, allowed fraction and anti-aliasing handling; ``ImageVerification/standard`` by
///     default.
///   - ignoring: what the snapshot drew that the comparison leaves out (the attribution box, annotation
///     views, the base map's labels), so that a test pins the geometry while text moves:
///     `assertMapSnapshot(of: s, named: "roads", ignoring: [.attribution, .labels])`. The boxes of the new
///     render are left out, and those of the approved image's metadata (`<name>.metadata.json`, written
///     with it when recording) too.
/// - Returns: whether the image matched.
@discardableResult
public func assertMapSnapshot(
    of snapshotter: MapSnapshotter, named name: String, approved: URL? = nil,
    tolerance: ImageVerification = .standard, ignoring: Set<MapMask.Part> = [], fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let snapshot: Snapshot
    do { snapshot = try snapshotter.snapshot() } catch {
        reportFailure(
            "rendering \(name) failed: \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }
    let approvedURL = approved ?? defaultApprovedURL(name: name, filePath: "\(filePath)")
    // The boxes of the new render and those recorded with the approved image (its metadata beside it), so
    // that a label that moved is left out where it was and where it is.
    let sidecar = metadataURL(approved: approvedURL)
    var rects = MapMask(snapshot).rects(ignoring: ignoring)
    if !ignoring.isEmpty, let recorded = try? MapMask(contentsOf: sidecar) {
        rects += recorded.rects(ignoring: ignoring)
    }
    let passed = assertMapImage(
        RGBAImage(snapshot.image), matches: approvedURL, tolerance: tolerance,
        mask: rects.isEmpty ? nil : IgnoreMask(rects: rects), fileID: fileID, filePath: filePath, line: line,
        column: column)
    let environment = ProcessInfo.processInfo.environment
    if environment["MAPRASTER_RECORD_GOLDENS"] == "1",
        environment["CI"].map({ $0.isEmpty || $0 == "false" || $0 == "0" }) ?? true
    {
        try? Data(snapshot.metadata().serialized().utf8).write(to: sidecar)
    }
    return passed
}

/// `<name>.metadata.json` beside an approved image: the snapshot metadata recorded with it, whose boxes
/// `ignoring:` leaves out too.
public func metadataURL(approved: URL) -> URL {
    approved.deletingPathExtension().appendingPathExtension("metadata.json")
}

/// Checks an image against an approved PNG file, failing the current test (Swift Testing or XCTest) on a
/// mismatch; see ``assertMapSnapshot(of:named:approved:tolerance:fileID:filePath:line:column:)``.
///
/// - Returns: whether the image matched.
@discardableResult
public func assertMapImage(
    _ image: RGBAImage, matches approved: URL, tolerance: ImageVerification = .standard, mask: IgnoreMask? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let outcome = tolerance.verify(image, approved: approved, mask: mask)
    if !outcome.passed {
        reportFailure(
            outcome.message, attachments: outcome.attachments, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
    return outcome.passed
}

/// Checks a folder of rendered images against a folder of approved PNGs (matched by relative path), failing
/// the current test with one line that names the report; see ``ImageVerification/verifyFolder(_:approved:environment:)``.
///
/// ```swift
/// assertMapFolder(["harbour.png": harbour, "tiles/3/4/2.png": tile], matches: goldensURL)
/// ```
///
/// - Returns: whether every image matched.
@discardableResult
public func assertMapFolder(
    _ images: [String: RGBAImage], matches approved: URL, tolerance: ImageVerification = .standard,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let outcome = tolerance.verifyFolder(images, approved: approved)
    if !outcome.passed {
        reportFailure(
            outcome.message, attachments: outcome.attachments, fileID: fileID, filePath: filePath, line: line,
            column: column)
    }
    return outcome.passed
}

/// `__Snapshots__/<test file name without .swift>/<name>.png` beside the test file.
func defaultApprovedURL(name: String, filePath: String) -> URL {
    let file = URL(fileURLWithPath: filePath)
    return file.deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__", isDirectory: true)
        .appendingPathComponent(file.deletingPathExtension().lastPathComponent, isDirectory: true)
        .appendingPathComponent("\(name).png")
}

/// Fails the running test: through Swift Testing when a Swift Testing test is running (with `attachments`
/// recorded as the test's attachments), else XCTest (the files stay where they were written).
func reportFailure(
    _ message: String, attachments: [(name: String, url: URL)] = [], fileID: String, filePath: StaticString,
    line: UInt, column: UInt
) {
    if Test.current != nil {
        let location = SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        for (name, url) in attachments {
            guard let data = try? Data(contentsOf: url) else { continue }
            Attachment.record([UInt8](data), named: name, sourceLocation: location)
        }
        Issue.record(Comment(rawValue: message), sourceLocation: location)
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
