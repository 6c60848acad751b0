import Foundation
import Testing

@testable import MapServer

@Suite("Entity tags")
struct EntityTagTests {
    @Test("the same body gives the same tag; one changed byte anywhere (each lane, the tail) or one more byte another")
    func distinct() {
        let body = Data((0..<203).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let tag = MapServer.etag(body)
        #expect(tag == MapServer.etag(Data(body)))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("-cb\""))
        var tags: Set<String> = [tag]
        for index in [0, 8, 16, 24, 32, 199, 202] {
            var changed = body
            changed[index] ^= 1
            tags.insert(MapServer.etag(changed))
        }
        tags.insert(MapServer.etag(body + [0]))
        tags.insert(MapServer.etag(Data()))
        #expect(tags.count == 10)
    }
}
