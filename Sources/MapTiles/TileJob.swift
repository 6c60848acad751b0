import Dispatch
import Foundation
import MapAnnotations
import MapBaseMap
import MapGeometry
import MapGraphics
import MapOverlays
import MapRender
import Synchronization

/// Renders a pyramid into a sink: metatiles in parallel, written in a fixed order, so the output does not
/// depend on the number of threads.
public struct TileJob {
    /// How far a run has come.
    public struct Progress: Sendable {
        public var tilesDone: Int
        public var tilesTotal: Int
        public var seconds: Double
        /// Tiles per second so far.
        public var rate: Double { seconds > 0 ? Double(tilesDone) / seconds : 0 }
    }

    /// What a run did.
    public struct Summary: Sendable {
        /// Tiles written by this run.
        public var tilesWritten: Int
        /// Tiles that were already there (resume).
        public var tilesSkipped: Int
        /// Distinct tile images written.
        public var uniqueTiles: Int
        /// Bytes of tile images written.
        public var bytes: Int
        /// Metatiles rendered.
        public var metatiles: Int
        /// Wall-clock seconds.
        public var seconds: Double
    }

    public let renderer: TileRenderer
    public var shard: Shard = .all
    /// Threads; 0 means one per core.
    public var threads: Int = 0

    /// Creates a job.
    public init(renderer: TileRenderer, shard: Shard = .all, threads: Int = 0) {
        self.renderer = renderer
        self.shard = shard
        self.threads = threads
    }

    /// Runs the job.
    ///
    /// - Parameters:
    ///   - sink: where tiles go.
    ///   - resume: skip tiles the sink already has.
    ///   - progress: called after every batch.
    /// - Throws: the first rendering or writing error.
    public func run(into sink: TileSink, resume: Bool, progress: (Progress) -> Void = { _ in }) throws -> Summary {
        let start = Date()
        GraphicsMemory.keepLargeBuffersForReuse()
        let existing = resume ? try sink.existingTiles() : []
        // Labels and annotation views are laid out once per zoom over the whole pyramid (all shards
        // alike), never per metatile. Metatiles are made as the walk reaches them, never listed whole.
        let pyramid = renderer.pyramid
        let total =
            shard == .all
            ? pyramid.tileCount : shard.selectLazily(pyramid.lazyMetatiles).reduce(0) { $0 + $1.tiles.count }
        var metatiles = shard.selectLazily(pyramid.lazyMetatiles).makeIterator()
        let lanes = threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount
        let batchSize = max(lanes * 4, 8)
        var summary = Summary(tilesWritten: 0, tilesSkipped: 0, uniqueTiles: 0, bytes: 0, metatiles: 0, seconds: 0)
        var seen = Set<UInt64>()
        var done = 0
        var placements: [Int: SharedPlacement?] = [:]
        while true {
            var collected: [Metatile] = []
            while collected.count < batchSize, let next = metatiles.next() { collected.append(next) }
            if collected.isEmpty { break }
            let batch = collected
            // Keep the layouts of this batch's zooms only (memory does not grow with the zoom range).
            let zooms = Set(batch.map(\.z))
            placements = placements.filter { zooms.contains($0.key) }
            for z in zooms.sorted() where placements[z] == nil {
                placements[z] = .some(try renderer.placement(forZoom: z))
            }
            let zoomPlacements = placements
            let results = BatchResults(count: batch.count)
            let renderer = renderer
            DispatchQueue.concurrentPerform(iterations: min(lanes, batch.count)) { lane in
                var i = lane
                while i < batch.count {
                    let placement = zoomPlacements[batch[i].z] ?? nil
                    results.set(i, Result { try renderer.render(batch[i], skip: existing, placement: placement) })
                    i += lanes
                }
            }
            var tiles: [(TileID, Data)] = []
            for result in results.all { tiles.append(contentsOf: try result.get()) }
            try sink.write(tiles)
            let batchTiles = batch.reduce(0) { $0 + $1.tiles.count }
            summary.tilesSkipped += batchTiles - tiles.count
            summary.tilesWritten += tiles.count
            summary.metatiles += batch.count
            for (_, data) in tiles {
                summary.bytes += data.count
                if seen.insert(fingerprint(data)).inserted { summary.uniqueTiles += 1 }
            }
            done += batchTiles
            progress(Progress(tilesDone: done, tilesTotal: total, seconds: Date().timeIntervalSince(start)))
        }
        try sink.finish()
        summary.seconds = Date().timeIntervalSince(start)
        return summary
    }
}

/// A 64-bit FNV-1a fingerprint of a tile image, to count distinct tiles without keeping them.
func fingerprint(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { bytes in
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h ^ UInt64(bytes.count)
    }
}

/// Per-metatile results of one batch, filled from several threads (behind a ``Locked``).
final class BatchResults: Sendable {
    private let values: Locked<[Result<[(TileID, Data)], Error>?]>

    init(count: Int) { values = Locked(Array(repeating: nil, count: count)) }

    func set(_ i: Int, _ value: Result<[(TileID, Data)], Error>) {
        values.withLock { $0[i] = value }
    }

    var all: [Result<[(TileID, Data)], Error>] {
        values.withLock { values in
            values.map { $0 ?? .failure(TileError.output(path: "", reason: "a metatile was not rendered")) }
        }
    }
}
