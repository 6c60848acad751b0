import Foundation
import Synchronization
import Testing

@testable import MapCLI

@Suite("Progress on standard error")
struct ProgressReporterTests {
    /// A clock the test moves by hand.
    final class FakeClock: @unchecked Sendable {
        var now = 1000.0
    }

    /// Standard error, captured.
    final class Captured: Sendable {
        let lines = Mutex<[String]>([])
        var output: MapRasterCLI.Output {
            MapRasterCLI.Output(standardOutput: { _ in }, standardError: { t in self.lines.withLock { $0.append(t) } })
        }
    }

    static func capture() -> (MapRasterCLI.Output, Captured) {
        let captured = Captured()
        return (captured.output, captured)
    }

    @Test("not on a terminal: a line with done/total, percent, rate, elapsed, ETA and detail, every 2 s and at the end")
    func lines() {
        let (output, lines) = Self.capture()
        let clock = FakeClock()
        let reporter = ProgressReporter(
            quiet: false, output: output, terminal: false, width: { 80 }, clock: { clock.now })
        clock.now += 0.5
        reporter.report(done: 3, total: 10, unit: "MiB", detail: "1200 rows")
        clock.now += 1
        reporter.report(done: 5, total: 10, unit: "MiB", detail: "2000 rows")  // within 2 s: no line
        clock.now += 1.5
        reporter.report(done: 10, total: 10, unit: "MiB", detail: "4000 rows")  // the end: a line
        reporter.finish()  // no summary line in logs: the last line is one
        let written = lines.lines.withLock { $0 }
        #expect(
            written == [
                "3/10 MiB, 30%, -- MiB/s, elapsed 0:01, ETA --:--, 1200 rows\n",
                "10/10 MiB, 100%, 2.8 MiB/s, elapsed 0:03, ETA 0:00, 4000 rows\n",
            ], "\(written)")
        let quiet = ProgressReporter(quiet: true, output: output, terminal: true, width: { 80 }, clock: { clock.now })
        quiet.report(done: 1, total: 2, unit: "tiles")
        quiet.finish()
        #expect(lines.lines.withLock { $0.count } == 2)
    }

    @Test("on a terminal: redrawn in place with erase-to-end-of-line, at most 10 times a second, then a summary")
    func terminal() {
        let (output, lines) = Self.capture()
        let clock = FakeClock()
        let reporter = ProgressReporter(
            quiet: false, output: output, terminal: true, width: { 50 }, clock: { clock.now })
        for done in 1...100 {
            clock.now += 0.02
            reporter.report(done: done, total: 100, unit: "tiles")
        }
        reporter.finish()
        let written = lines.lines.withLock { $0 }
        // 2 s of reports every 0.02 s: about one draw per 0.1 s, plus the last, plus the summary.
        #expect((19...23).contains(written.count), "\(written.count)")
        for text in written.dropLast() {
            #expect(text.hasPrefix("\r") && text.hasSuffix(ProgressLine.clearToEnd) && !text.contains("\n"))
            #expect(text.count - 1 - ProgressLine.clearToEnd.count <= 49, "\(text.debugDescription)")
        }
        #expect(
            written.last == "\rdone 100/100 tiles in 0:02, 50 tiles/s on average\u{1B}[K\n", "\(written.last ?? "")")
    }

    static let state = ProgressLine.State(
        done: 1234, total: 5000, unit: "tiles", detail: "zoom 12", elapsed: 14.4, rate: 85.3)

    @Test(
        "The bar fits the width: what does not fit is left out, never wrapped",
        arguments: [
            (
                120,
                " 24% [#########...............................] 1234/5000 tiles 85 tiles/s elapsed 0:14 ETA 0:44 zoom 12"
            ),
            (80, " 24% [###............] 1234/5000 tiles 85 tiles/s elapsed 0:14 ETA 0:44 zoom 12"),
            (70, " 24% [###..........] 1234/5000 tiles 85 tiles/s elapsed 0:14 ETA 0:44"),
            (50, " 24% 1234/5000 tiles elapsed 0:14 ETA 0:44"),
            (40, " 24% 1234/5000 tiles ETA 0:44"),
            (20, " 24% 1234/5000 tile"),
            (1, " "),
        ] as [(Int, String)])
    func barWidths(_ width: Int, _ expected: String) {
        let line = ProgressLine.bar(Self.state, width: width)
        #expect(line == expected, "width \(width): \(line.debugDescription)")
        #expect(line.count <= max(1, width - 1))
    }

    @Test(
        "Durations",
        arguments: [
            (0.0, "0:00"), (9.4, "0:09"), (65, "1:05"), (3599.4, "59:59"), (3600, "1:00:00"), (86399, "23:59:59"),
            (-1, "--:--"), (.infinity, "--:--"), (.nan, "--:--"), (1e12, "--:--"),
        ] as [(Double, String)])
    func durations(_ seconds: Double, _ text: String) {
        #expect(ProgressLine.duration(seconds) == text)
    }

    @Test("ETA follows the recent rate: a slow first minute does not inflate it (the 5x estimate of #13)")
    func movingAverage() {
        let (output, lines) = Self.capture()
        let clock = FakeClock()
        let reporter = ProgressReporter(
            quiet: false, output: output, terminal: false, width: { 80 }, clock: { clock.now })
        // 60 s for the first 100 tiles (loading, large labels), then 100 tiles/s.
        clock.now += 60
        reporter.report(done: 100, total: 10_100, unit: "tiles")
        for _ in 0..<30 {
            clock.now += 1
            let done = 100 + Int((clock.now - 1060) * 100)
            reporter.report(done: done, total: 10_100, unit: "tiles")
        }
        // 3100 done, 7000 left at 100 tiles/s: 70 s (the average since the start, 3100/90 per s, says 203 s).
        let last = lines.lines.withLock { $0.last ?? "" }
        #expect(last.contains("100 tiles/s") && last.contains("ETA 1:10"), "\(last)")
    }

    @Test(
        "The terminal width falls back to COLUMNS, then 80",
        arguments: [("100", 100), (nil, 80), ("0", 80), ("wide", 80), ("99999", 80)] as [(String?, Int)])
    func widthFallback(_ columns: String?, _ width: Int) {
        #expect(TerminalWidth.fallback(columns: columns) == width)
    }
}
