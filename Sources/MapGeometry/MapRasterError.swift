import Foundation

/// The one error protocol of MapRaster: each stage has its own enum (``GeometryError``, `JSONError`,
/// `StyleError`, `GraphicsError`, `RenderError`, `OverlayError`, `AnnotationError`, `TileError`, ...)
/// whose cases carry the context, and every one of them conforms to this protocol.
///
/// `description` quotes the bad value and says what was expected, e.g. `layer 'roads': 'line-width' must
/// be a number or zoom function, got "wide"`; it names no command-line flag (the CLI adds those). The
/// same text is the error's `localizedDescription`, so it reaches users through any Foundation API.
/// Modelled on swift-png's `PNG.Error`.
public protocol MapRasterError: LocalizedError, Sendable, CustomStringConvertible {}

extension MapRasterError {
    /// The description, for Foundation's `localizedDescription`.
    public var errorDescription: String? { description }
}
