import MapAnnotations
import MapGeocoding

/// A placemark is an annotation, as in MapKit: its title is the first formatted address line and its subtitle
/// the rest, so it can be added to a snapshotter as it is.
///
/// The conformance lives in the `MapRaster` module, which sees both the geocoder and the annotations, so that
/// `MapGeocoding` does not depend on drawing (nor on Cairo).
///
/// ```swift
/// import MapGeocoding
/// import MapRaster
///
/// snapshotter.addAnnotation(try geocoder.reverseGeocode(coordinate))
/// ```
extension Placemark: Annotation {
    /// The first formatted address line (the street, else the city line, else the country).
    public var title: String? { formattedAddressLines.first }
    /// The other formatted address lines, joined with ", ".
    public var subtitle: String? {
        let rest = formattedAddressLines.dropFirst()
        return rest.isEmpty ? nil : rest.joined(separator: ", ")
    }
}
