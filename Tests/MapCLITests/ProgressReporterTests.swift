import Foundation
import Synchronization
import Testing

@testable import MapCLI

@Suite("Progress on standard error")
struct ProgressReporterTests {
    @Test("not on a terminal: a line with done/total, unit, rate, ETA and detail, at most every 2 s and at the end")
    func lines() {
        let lines = Mutex<[String]>([])
        let output = MapRasterCLI.Output(
            standardOutput: { _ in }, standardError: { text in lines.withLock { $0.append(text) } })
        let reporter = ProgressReporter(quiet: false, output: output)
        reporter.report(done: 3, total: 10, unit: "MiB", detail: "1200 rows")
        reporter.report(done: 5, total: 10, unit: "MiB", detail: "2000 rows")  // within 2 s: no line
        reporter.report(done: 10, total: 10, unit: "MiB", detail: "4000 rows")  // the end: a line
        let written = lines.withLock { $0 }
        #expect(written.count == 2, "\(written)")
        #expect(written.first?.hasPrefix("3/10 MiB, ") == true && written.first?.contains("ETA") == true)
        #expect(written.last?.hasPrefix("10/10 MiB, ") == true && written.last?.hasSuffix("4000 rows\n") == true)
        let quiet = ProgressReporter(quiet: true, output: output)
        quiet.report(done: 1, total: 2, unit: "tiles")
        #expect(lines.withLock { $0.count } == 2)
    }
}
