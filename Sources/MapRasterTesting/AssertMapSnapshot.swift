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
/// - Returns: whether the image matched.
@discardableResult
public func assertMapSnapshot(
    of snapshotter: MapSnapshotter, named name: String, approved: URL? = nil,
    tolerance: ImageVerification = .standard, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) -> Bool {
    let image: RGBAImage
    do { image = RGBAImage(try snapshotter.snapshot().image) } catch {
        reportFailure(
            "rendering \(name) failed: \(error)", fileID: fileID, filePath: filePath, line: line, column: column)
        return false
    }
    return assertMapImage(
        image, matches: approved ?? defaultApprovedURL(name: name, filePath: "\(filePath)"), tolerance: tolerance,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks an image against an approved PNG file, failing the current test (Swift Testing or XCTest) on a
/// mismatch; see ``assertMapSnapshot(of:named:approved:tolerance:fileID:filePath:line:column:)``.
///
/// - Returns: whether the image matched.
@discardableResult
public func assertMapImage(
    _ image: RGBAImage, matches approved: URL, tolerance: ImageVerification = .standard, fileID: String = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) -> Bool {
    let outcome = tolerance.verify(image, approved: approved)
    if !outcome.passed {
        reportFailure(outcome.message, fileID: fileID, filePath: filePath, line: line, column: column)
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

/// Fails the running test: through Swift Testing when a Swift Testing test is running, else XCTest.
func reportFailure(_ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt) {
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
