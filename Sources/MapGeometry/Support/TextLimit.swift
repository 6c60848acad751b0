import Foundation

/// The longest text drawn as one label, callout title or subtitle: 64 KiB of UTF-8. Longer text is cut (at a
/// character boundary) where it enters drawing, with one warning on standard error per kind of text per
/// process, so that a hostile feature property or annotation title costs work bounded by the limit, not by
/// its length.
///
/// ```swift
/// let title = TextLimit.cut(hugeTitle, what: "annotation title")   // at most 65,536 bytes
/// ```
public enum TextLimit {
    /// The most UTF-8 bytes kept.
    public static let maximumBytes = 65_536

    private static let warned = Locked(Set<String>())

    /// `text`, or its longest prefix of whole characters within ``maximumBytes`` (or a smaller `limit`: what is
    /// left of the limit for the last sections of a text) when it is longer; the first cut of each `what`
    /// writes a warning naming it and the length.
    public static func cut(_ text: String, what: String, limit maximumBytes: Int = maximumBytes) -> String {
        let bytes = text.utf8.count
        guard bytes > maximumBytes else { return text }
        // The subscript rounds down to a scalar boundary; a last character that goes on past the cut (a base
        // letter without its combining mark, half an emoji sequence) is dropped: no half characters.
        let limit = text.utf8.index(text.utf8.startIndex, offsetBy: maximumBytes)
        var cut = String(text[..<limit])
        if let last = cut.last {
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: cut.utf8.count - String(last).utf8.count)
            if text[start...].first != last { cut.removeLast() }
        }
        if warned.withLock({ $0.insert(what).inserted }) {
            FileHandle.standardError.write(
                Data(
                    ("mapraster: warning: \(what) of \(bytes) bytes cut to its first \(cut.utf8.count) bytes "
                        + "(the limit is \(Self.maximumBytes))\n").utf8))
        }
        return cut
    }
}
