import Foundation
import MapRaster
import MapRasterTesting
import MapTestSupport
import XCTest

/// MapRasterTesting from an XCTest test case: one call renders and compares with the approved image.
final class XCTestSnapshotTests: XCTestCase {
    func testWorldSnapshotMatchesTheGoldenFromXCTest() throws {
        let snapshotter = try MapSnapshotter(options: MapSnapshotter.Options(size: Size(width: 512, height: 512)))
        XCTAssertTrue(assertMapSnapshot(of: snapshotter, named: "world", approved: GoldenImage.url("world/zoom1")))
    }
}
