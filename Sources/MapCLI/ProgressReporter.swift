import Foundation
import MapTiles

/// Progress on standard error: a bar redrawn in place when it is a terminal, a line every 2 seconds
/// otherwise, and a summary line at the end. Used by `tiles` (tiles) and `geocode --input` (megabytes of the
/// input read).
///
/// The rate, and the time left from it, is a moving average over the last ``window`` seconds, so that a
/// slow start (loading data, the first zoom levels' large labels) does not inflate the estimate for the
/// whole run; no estimate is shown before a second of work has been seen.
final class ProgressReporter {
    let quiet: Bool
    let output: MapRasterCLI.Output
    let terminal: Bool
    /// The terminal's width, read on each redraw (the window may be resized); nil when not a terminal.
    let width: () -> Int
    /// Seconds since an arbitrary origin.
    let clock: () -> Double
    let start: Double
    /// Seconds of samples the rate averages.
    static let window = 10.0
    /// (time, done) samples within the window, oldest first.
    private var samples: [(time: Double, done: Int)] = []
    private var lastDraw = -Double.infinity
    private var last: ProgressLine.State?

    init(
        quiet: Bool, output: MapRasterCLI.Output, terminal: Bool = isatty(STDERR_FILENO) == 1,
        width: @escaping () -> Int = TerminalWidth.current, clock: @escaping () -> Double = ProgressReporter.now
    ) {
        self.quiet = quiet
        self.output = output
        self.terminal = terminal
        self.width = width
        self.clock = clock
        self.start = clock()
    }

    /// Monotonic seconds.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    func report(_ p: TileJob.Progress) { report(done: p.tilesDone, total: p.tilesTotal, unit: "tiles") }

    /// Reports `done` of `total` units; `detail` follows the numbers.
    func report(done: Int, total: Int, unit: String, detail: String = "") {
        guard !quiet else { return }
        let now = clock()
        samples.append((now, done))
        while let first = samples.first, now - first.time > Self.window, samples.count > 2 { samples.removeFirst() }
        var rate: Double?
        if let first = samples.first, now - start >= 1, now > first.time {
            rate = max(0, Double(done - first.done) / (now - first.time))
        }
        let state = ProgressLine.State(
            done: done, total: total, unit: unit, detail: detail, elapsed: now - start, rate: rate)
        last = state
        let finished = done >= total
        if terminal {
            guard now - lastDraw >= 0.1 || finished else { return }
            lastDraw = now
            output.standardError("\r" + ProgressLine.bar(state, width: width()) + ProgressLine.clearToEnd)
        } else if now - lastDraw >= 2 || finished {
            lastDraw = now
            output.standardError(ProgressLine.plain(state) + "\n")
        }
    }

    /// Ends the bar: on a terminal it is replaced by a summary line (units, elapsed time, average rate).
    func finish() {
        guard terminal, !quiet, let last else { return }
        output.standardError("\r" + ProgressLine.summary(last, width: width()) + ProgressLine.clearToEnd + "\n")
    }
}

/// The text of progress lines: pure functions of the state and the width, so that they are tested alone.
enum ProgressLine {
    /// What a line shows.
    struct State: Equatable {
        var done: Int
        var total: Int
        var unit: String
        var detail: String = ""
        /// Seconds since the start.
        var elapsed: Double
        /// Units per second (moving average), or nil while there is too little to tell.
        var rate: Double?

        /// 0...100, rounded down (100 only when done).
        var percent: Int {
            guard total > 0 else { return 100 }
            return Int(min(100, max(0, (Double(done) / Double(total) * 100).rounded(.down))))
        }

        /// Seconds left at the current rate, or nil.
        var remaining: Double? {
            guard let rate, rate > 0 else { return done >= total ? 0 : nil }
            return Double(max(0, total - done)) / rate
        }
    }

    /// ANSI "erase to end of line", so that a shorter line leaves nothing of the one before.
    static let clearToEnd = "\u{1B}[K"

    /// `1:05`, `12:00`, `1:02:03`; `--:--` for an unknown or absurd time.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0, seconds < 100 * 86400 else { return "--:--" }
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    /// A rate with 2 significant digits below 10 (`3.4`), whole numbers above.
    static func rate(_ rate: Double?) -> String {
        guard let rate, rate.isFinite else { return "--" }
        return rate < 10 ? String(format: "%.1f", rate) : String(format: "%.0f", rate)
    }

    /// The plain line for logs: `300/1000 tiles, 30%, 85 tiles/s, elapsed 0:04, ETA 0:08, detail`.
    static func plain(_ s: State) -> String {
        "\(s.done)/\(s.total) \(s.unit), \(s.percent)%, \(rate(s.rate)) \(s.unit)/s, elapsed \(duration(s.elapsed)), "
            + "ETA \(duration(s.remaining))" + (s.detail.isEmpty ? "" : ", \(s.detail)")
    }

    /// The terminal line, at most `width - 1` characters (the last column would wrap on some terminals):
    /// ` 30% [#####.........] 300/1000 tiles 85 tiles/s 0:04 ETA 0:08 detail`; what does not fit is left
    /// out in this order: the detail, the bar, the rate, the elapsed time, and finally the text is cut.
    static func bar(_ s: State, width: Int) -> String {
        let room = max(1, width - 1)
        let percent = String(repeating: " ", count: max(0, 3 - String(s.percent).count)) + "\(s.percent)%"
        let counts = "\(s.done)/\(s.total) \(s.unit)"
        let rateText = "\(rate(s.rate)) \(s.unit)/s"
        let elapsed = "elapsed \(duration(s.elapsed))"
        let eta = "ETA \(duration(s.remaining))"
        let candidates: [[String]] = [
            [counts, rateText, elapsed, eta, s.detail].filter { !$0.isEmpty },
            [counts, rateText, elapsed, eta],
            [counts, elapsed, eta],
            [counts, eta],
        ]
        for (index, parts) in candidates.enumerated() {
            let text = parts.joined(separator: " ")
            // With a bar of at least 10 cells when it fits, as wide as 40.
            let barRoom = room - percent.count - text.count - 4
            if barRoom >= 10 {
                let cells = min(40, barRoom)
                let filled = s.total > 0 ? min(cells, Int(Double(cells) * Double(s.done) / Double(s.total))) : cells
                return percent + " [" + String(repeating: "#", count: filled)
                    + String(repeating: ".", count: cells - filled) + "] " + text
            }
            if index >= 1, percent.count + 1 + text.count <= room { return percent + " " + text }
        }
        return String((percent + " " + counts + " " + eta).prefix(room))
    }

    /// The last line: `done 1000/1000 tiles in 0:12, 83 tiles/s on average`, cut to the width.
    static func summary(_ s: State, width: Int) -> String {
        let average = s.elapsed > 0 ? Double(s.done) / s.elapsed : nil
        let text =
            "done \(s.done)/\(s.total) \(s.unit) in \(duration(s.elapsed)), \(rate(average)) \(s.unit)/s on average"
        return String(text.prefix(max(1, width - 1)))
    }
}

/// The width of the terminal on standard error.
enum TerminalWidth {
    /// The width from the terminal (TIOCGWINSZ), else `$COLUMNS`, else 80.
    static func current() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return fallback(columns: ProcessInfo.processInfo.environment["COLUMNS"])
    }

    /// `$COLUMNS` when it is a whole number 1...10000, else 80.
    static func fallback(columns: String?) -> Int {
        guard let text = columns, let value = Int(text), (1...10000).contains(value) else { return 80 }
        return value
    }
}
