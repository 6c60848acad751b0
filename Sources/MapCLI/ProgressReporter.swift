import Foundation
import MapTiles

/// Progress on standard error: a bar when it is a terminal, a line every few seconds otherwise. Used by
/// `tiles` (tiles) and `geocode --input` (megabytes of the input read).
final class ProgressReporter {
    let quiet: Bool
    let output: MapRasterCLI.Output
    let terminal = isatty(STDERR_FILENO) == 1
    let start = Date()
    var lastLine = Date.distantPast

    init(quiet: Bool, output: MapRasterCLI.Output) {
        self.quiet = quiet
        self.output = output
    }

    func report(_ p: TileJob.Progress) { report(done: p.tilesDone, total: p.tilesTotal, unit: "tiles") }

    /// Reports `done` of `total` units, with the rate and an estimate of the time left; `detail` follows.
    func report(done: Int, total: Int, unit: String, detail: String = "") {
        guard !quiet else { return }
        let seconds = Date().timeIntervalSince(start)
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let remaining = rate > 0 ? Double(max(0, total - done)) / rate : 0
        let text =
            "\(done)/\(total) \(unit), " + String(format: "%.0f %@/s, ETA %.0f s", rate, unit, remaining)
            + (detail.isEmpty ? "" : ", \(detail)")
        if terminal {
            let width = 30
            let filled = total > 0 ? min(width, width * done / total) : width
            output.standardError(
                "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
                    + text)
        } else if Date().timeIntervalSince(lastLine) >= 2 || done == total {
            lastLine = Date()
            output.standardError(text + "\n")
        }
    }

    func finish() {
        if terminal && !quiet { output.standardError("\n") }
    }
}
