internal import CRsvg
import Foundation
import MapGeometry

// The one place that calls librsvg (and the GLib functions its objects need).

/// One parsed SVG document: owns an `RsvgHandle`.
///
/// It is parsed from bytes with no base URL, so it cannot load other files (librsvg then allows only
/// `data:` URLs), and libxml2's safety limits stay on (no `RSVG_HANDLE_FLAG_UNLIMITED`).
final class SVGDocument {
    private let handle: OpaquePointer

    /// Parses `data`.
    ///
    /// - Throws: librsvg's own message (an XML or SVG error), as a string.
    init(data: Data) throws(SVGParseFailure) {
        guard !data.isEmpty else { throw SVGParseFailure(reason: "the file is empty") }
        var error: UnsafeMutablePointer<GError>?
        let made = data.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return rsvg_handle_new_from_data(base, raw.count, &error)
        }
        guard let made else { throw SVGParseFailure(reason: Self.consume(error) ?? "librsvg could not read it") }
        Self.consume(error)
        handle = made
        // CSS pixels: 96 per inch, as browsers and resvg resolve `in`, `cm`, `pt` lengths.
        rsvg_handle_set_dpi(handle, 96)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The document's size in CSS pixels: its `width` and `height` when both are absolute lengths, else
    /// its `viewBox`'s size; nil when it has neither.
    var intrinsicSize: (width: Double, height: Double)? {
        var width = 0.0
        var height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 { return (width, height) }
        var hasWidth: Int32 = 0
        var hasHeight: Int32 = 0
        var hasViewBox: Int32 = 0
        var lengthW = RsvgLength()
        var lengthH = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(
            handle, &hasWidth, &lengthW, &hasHeight, &lengthH, &hasViewBox, &viewBox)
        guard hasViewBox != 0 else { return nil }
        return (viewBox.width, viewBox.height)
    }

    /// Draws the whole document scaled to the viewport `rect` (surface pixels; the `viewBox` mapped onto it
    /// as `preserveAspectRatio` says).
    ///
    /// - Throws: librsvg's message when it cannot render the document.
    func render(into context: CairoContext, viewport rect: Rect) throws(SVGParseFailure) {
        var viewport = RsvgRectangle(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
        var error: UnsafeMutablePointer<GError>?
        let done = rsvg_handle_render_document(handle, context.raw, &viewport, &error)
        let message = Self.consume(error)
        guard done != 0 else { throw SVGParseFailure(reason: message ?? "librsvg could not render it") }
    }

    /// The message of a GError, which is freed; nil when there is none.
    @discardableResult
    private static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        guard let message = error.pointee.message else { return "unknown librsvg error" }
        return String(cString: message)
    }
}

/// Why librsvg refused an SVG document: its message.
struct SVGParseFailure: Error, Equatable {
    var reason: String
}

enum RsvgVersion {
    /// librsvg's version, as `major.minor.micro`.
    static var string: String { "\(rsvg_major_version).\(rsvg_minor_version).\(rsvg_micro_version)" }
}
