import Foundation
import MapGeometry

/// Warnings about a style's source data found when it is read for drawing (invalid GeoJSON, invalid
/// features left out), each written to standard error once per process, as MapLibre logs a source's
/// errors and draws the rest.
final class SourceWarnings: Sendable {
    static let shared = SourceWarnings()
    /// The keys reported, at most ``maximumReported`` (then further warnings are dropped).
    private let reported = Locked([String]())

    /// At most this many distinct warnings are written per process.
    static let maximumReported = 1000

    /// Writes `message` to standard error the first time `key` is reported.
    func report(key: String, _ message: String) {
        let first = reported.withLock { keys in
            guard !keys.contains(key), keys.count < Self.maximumReported else { return false }
            keys.append(key)
            return true
        }
        guard first else { return }
        let shown = message.count > 1000 ? String(message.prefix(1000)) + "..." : message
        FileHandle.standardError.write(Data("warning: \(shown)\n".utf8))
    }

    /// Whether `key` was reported (for tests).
    func wasReported(_ key: String) -> Bool {
        reported.withLock { $0.contains(key) }
    }
}
