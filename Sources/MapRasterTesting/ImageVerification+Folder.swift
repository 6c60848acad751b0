import Foundation
import MapDiff
import MapGraphics

extension ImageVerification {
    /// Compares a set of rendered images, keyed by path relative to `approved` (`"tiles/3/4/2.png"`), with
    /// the approved PNGs in that folder.
    ///
    /// Every image is written to `<approved>.actual/` and the folders are compared with ``FolderDiff``
    /// (approved images without a render are *missing*, renders without an approved image *new*; both
    /// fail). On failure an HTML report goes to `<approved>.report/index.html` and the message is one line
    /// naming it; on success both folders are removed.
    ///
    /// Recording: with `MAPRASTER_RECORD_GOLDENS=1` (never when `CI` is set) every image is written into
    /// `approved` and the check fails so that someone looks at them.
    public func verifyFolder(
        _ images: [String: RGBAImage], approved: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Outcome {
        let base = approved.standardizedFileURL
        let actualFolder = URL(fileURLWithPath: base.path + ".actual", isDirectory: true)
        let reportFolder = URL(fileURLWithPath: base.path + ".report", isDirectory: true)
        let onCI = environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        for path in images.keys where path.hasPrefix("/") || path.split(separator: "/").contains("..") {
            return Outcome(passed: false, message: "image path '\(path)' must be relative, without '..'", result: nil)
        }
        if environment["MAPRASTER_RECORD_GOLDENS"] == "1" {
            if onCI {
                return Outcome(
                    passed: false,
                    message: "MAPRASTER_RECORD_GOLDENS=1 is set on CI; approved images are never recorded on CI",
                    result: nil)
            }
            do {
                for (path, image) in images {
                    let url = base.appendingPathComponent(path)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try image.writePNG(to: url)
                }
            } catch {
                return Outcome(passed: false, message: "recording into \(base.path) failed: \(error)", result: nil)
            }
            return Outcome(
                passed: false,
                message: "recorded \(images.count) images in \(base.path): look at them, then run again without "
                    + "MAPRASTER_RECORD_GOLDENS", result: nil)
        }
        try? FileManager.default.removeItem(at: actualFolder)
        try? FileManager.default.removeItem(at: reportFolder)
        do {
            for (path, image) in images {
                let url = actualFolder.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try image.writePNG(to: url)
            }
        } catch {
            return Outcome(passed: false, message: "writing \(actualFolder.path) failed: \(error)", result: nil)
        }
        guard FileManager.default.fileExists(atPath: base.path) else {
            return Outcome(
                passed: false,
                message: "no approved folder at \(base.path); wrote \(actualFolder.path). Look at the images and "
                    + "record them with MAPRASTER_RECORD_GOLDENS=1", result: nil)
        }
        var drawing = PixelMatch.Options()
        drawing.diffColorAlt = PixelMatch.RGB(0, 160, 0)
        let tolerance = Tolerance(threshold: threshold, includeAA: includeAA, maxDiffRatio: allowedFraction)
        let diff = FolderDiff(expected: base, actual: actualFolder, tolerance: tolerance, drawing: drawing)
        do {
            let report = try DiffReport(folder: reportFolder)
            let run = try diff.run(changed: report.add)
            if run.passed {
                try? FileManager.default.removeItem(at: actualFolder)
                try? FileManager.default.removeItem(at: reportFolder)
                return Outcome(passed: true, message: "\(run.entries.count) images match \(base.path)", result: nil)
            }
            let page = try report.finish(run, expected: base.path, actual: actualFolder.path)
            let failing = DiffReport.worstFirst(run.entries).filter { !$0.passed }
            let worst = failing[0]
            let message =
                "\(failing.count) of \(run.entries.count) images differ from \(base.path) (worst: \(worst.path), "
                + DiffReport.summary(worst) + "); report: \(page.path)"
            var outcome = Outcome(passed: false, message: message, result: worst.result)
            let worstFolder = reportFolder.appendingPathComponent(DiffReport.imageFolder(worst.path))
            outcome.attachments = [
                ("\(worst.path) actual.png", worstFolder.appendingPathComponent("actual.png")),
                ("\(worst.path) diff.png", worstFolder.appendingPathComponent("diff.png")),
            ]
            return outcome
        } catch {
            return Outcome(passed: false, message: "comparing with \(base.path) failed: \(error)", result: nil)
        }
    }
}
