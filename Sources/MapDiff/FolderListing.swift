import Foundation
import MapGraphics

/// The PNG files under a folder, by relative path, without following links out of it.
struct FolderListing: Sendable {
    /// One file: where to read it, or why it is not read.
    struct File: Sendable {
        var url: URL
        var problem: String?
    }

    /// Files by path relative to the root, `/` separators.
    var files: [String: File] = [:]

    /// Lists `root` recursively: every `*.png` (any case) that is a regular file, or a symbolic link to one
    /// inside the root. Hidden files and folders (starting with `.`) are skipped; folders reached through
    /// links are not entered; a link leading out of the root is listed with a problem, never read.
    init(root: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FolderDiffError.cannotList(path: root.path, reason: "no such folder")
        }
        let base = root.resolvingSymlinksInPath().standardizedFileURL.path
        var pending: [(url: URL, relative: String)] = [(URL(fileURLWithPath: base, isDirectory: true), "")]
        let keys: [URLResourceKey] = [.isSymbolicLinkKey, .isDirectoryKey, .isRegularFileKey]
        while let (folder, relative) = pending.popLast() {
            let children: [URL]
            do {
                children = try FileManager.default.contentsOfDirectory(
                    at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
            } catch {
                throw FolderDiffError.cannotList(path: folder.path, reason: "\(error.localizedDescription)")
            }
            for child in children {
                let name = child.lastPathComponent
                let path = relative.isEmpty ? name : relative + "/" + name
                let values = try? child.resourceValues(forKeys: Set(keys))
                if values?.isSymbolicLink == true {
                    guard name.lowercased().hasSuffix(".png") else { continue }
                    let target = child.resolvingSymlinksInPath().standardizedFileURL.path
                    if target.hasPrefix(base + "/") {
                        files[path] = File(url: URL(fileURLWithPath: target))
                    } else {
                        files[path] = File(
                            url: child,
                            problem: "a symbolic link out of the folder (to \(target)); not followed")
                    }
                } else if values?.isDirectory == true {
                    pending.append((child, path))
                } else if name.lowercased().hasSuffix(".png") {
                    files[path] = File(
                        url: child, problem: values?.isRegularFile == false ? "not a regular file" : nil)
                }
            }
        }
    }
}

/// What a PNG's IHDR says, read before decoding.
struct PNGHeader: Sendable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int

    /// The header of `data`, or nil when `data` does not start as a PNG.
    init?(_ data: Data) {
        guard let (width, height) = RGBAImage.pngSize(data), data.count >= 26 else { return nil }
        self.width = width
        self.height = height
        let start = data.startIndex
        bitDepth = Int(data[start + 24])
        colorType = Int(data[start + 25])
    }

    /// A note for files compared after a conversion: 16-bit and palette PNGs.
    var note: String? {
        if bitDepth == 16 { return "16-bit PNG, compared on the high byte of each channel" }
        if colorType == 3 { return "palette PNG, compared after expanding the palette" }
        return nil
    }
}

extension IgnoreMask {
    /// `mask` with `rects` added; nil when both are empty.
    static func combined(_ mask: IgnoreMask?, _ rects: [PixelRect], width: Int, height: Int) throws -> IgnoreMask? {
        if rects.isEmpty { return mask }
        var combined = mask ?? IgnoreMask()
        combined.rects += rects
        return combined
    }
}
