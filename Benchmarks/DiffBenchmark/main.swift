// The in-process side of Benchmarks/diff/bench.py: MapDiff called in this process, as blazediff's Python
// binding is called in the script's process, so that both sides are timed without a process start-up.
//
// Usage: DiffBenchmark [--runs N] [--threads T] [--warm-up N] EXPECTED.png ACTUAL.png
//
// Each run does what `mapraster diff EXPECTED ACTUAL` does after its start-up, with the same library calls:
// read both files, stop at a byte compare when they are equal (the header still checked), else decode both
// (at once on two threads unless --threads 1) and count with `PixelMatch.compare` (threshold 0.1,
// anti-aliased pixels not counted, no diff image). Prints one JSON line: median wall and CPU (user + system,
// all threads) seconds of the runs after the warm-up runs, and the count.
import Foundation
import MapData
import MapDiff
import MapGeometry
import MapGraphics

struct Options {
    var runs = 5
    var warmUp = 1
    var threads = 0
    var paths: [String] = []
}

func parse() -> Options {
    var options = Options()
    var args = CommandLine.arguments.dropFirst()
    while let arg = args.popFirst() {
        switch arg {
        case "--runs": options.runs = Int(args.popFirst() ?? "") ?? 0
        case "--warm-up": options.warmUp = Int(args.popFirst() ?? "") ?? -1
        case "--threads": options.threads = Int(args.popFirst() ?? "") ?? -1
        default: options.paths.append(arg)
        }
    }
    guard options.paths.count == 2, options.runs > 0, options.warmUp >= 0, options.threads >= 0 else {
        FileHandle.standardError.write(
            Data("usage: DiffBenchmark [--runs N] [--threads T] [--warm-up N] EXPECTED.png ACTUAL.png\n".utf8))
        exit(64)
    }
    return options
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// One comparison of two files, as `mapraster diff A B` does it.
func compareFiles(_ a: String, _ b: String, threads: Int) throws -> Int {
    let limit = FolderDiff.fileLimit
    let first = try FileReader.read(URL(fileURLWithPath: a), limit: limit)
    let second = try FileReader.read(URL(fileURLWithPath: b), limit: limit)
    if first == second, RGBAImage.pngSize(first) != nil { return 0 }
    let images: (RGBAImage, RGBAImage)
    if threads == 1 {
        images = (try RGBAImage(pngData: first, source: a), try RGBAImage(pngData: second, source: b))
    } else {
        let decoded = Locked([Result<RGBAImage, any Error>?](repeating: nil, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let image = Result { try RGBAImage(pngData: i == 0 ? first : second, source: i == 0 ? a : b) }
            decoded.withLock { $0[i] = image }
        }
        let both = decoded.withLock { $0 }
        images = (try both[0]!.get(), try both[1]!.get())
    }
    let options = PixelMatch.Options(threshold: 0.1, includeAA: false)
    return try PixelMatch.compare(images.0, images.1, options: options, threads: threads).differentPixels
}

let options = parse()
var walls: [Double] = []
var cpus: [Double] = []
var count = 0
do {
    for run in 0..<(options.warmUp + options.runs) {
        let c0 = cpuSeconds()
        let t0 = DispatchTime.now().uptimeNanoseconds
        count = try compareFiles(options.paths[0], options.paths[1], threads: options.threads)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        if run >= options.warmUp {
            walls.append(wall)
            cpus.append(cpuSeconds() - c0)
        }
    }
} catch {
    FileHandle.standardError.write(Data("DiffBenchmark: \(error)\n".utf8))
    exit(1)
}
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
print("{\"wall\": \(median(walls)), \"cpu\": \(median(cpus)), \"differentPixels\": \(count)}")
