import Foundation
import MapRaster
import MapTestSupport
import Synchronization
import Testing

@Suite("A scene prepared once gives fresh, equal scenes on any thread")
struct PreparedSceneTests {
    @Test("scenes made from one prepared scene have their own objects and draw the same image as a decoded scene")
    func freshAndEqual() throws {
        let url = Fixtures.root.appendingPathComponent("annotations/southwest-scene.json")
        let data = try Data(contentsOf: url)
        let prepared = try PreparedScene(data: data, source: url.path)
        let a = try prepared.makeScene()
        let b = try prepared.makeScene()
        #expect(a.annotations.count == b.annotations.count && a.overlays.count == b.overlays.count)
        #expect(zip(a.annotations, b.annotations).allSatisfy { $0.annotation !== $1.annotation })
        #expect(zip(a.overlays, b.overlays).allSatisfy { $0.overlay !== $1.overlay })
        @Sendable func render(_ scene: Scene) throws -> [UInt8] {
            var options = try scene.options(defaults: MapSnapshotter.Options(size: Size(width: 200, height: 150)))
            options.showsAttribution = false
            let snapshotter = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
            scene.populate(snapshotter)
            return try snapshotter.snapshot().image.rgbaBytes()
        }
        let decoded = try render(try Scene.decode(data, source: url.path))
        #expect(try render(a) == decoded)
        // On several threads at once, from the one prepared scene.
        let images = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let image = try? render(prepared.makeScene()) { images.withLock { $0.append(image) } }
        }
        #expect(images.withLock { $0.count == 4 && $0.allSatisfy { $0 == decoded } })
    }

    @Test("a bad scene is refused when prepared, with the same error as decoding it")
    func refused() {
        let data = Data(#"{"features": {"type": "Point"}}"#.utf8)
        var decodeError = ""
        do { _ = try Scene.decode(data, source: "bad.json") } catch { decodeError = "\(error)" }
        do {
            _ = try PreparedScene(data: data, source: "bad.json")
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == decodeError && !decodeError.isEmpty)
        }
    }
}
