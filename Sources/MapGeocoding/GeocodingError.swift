import MapGeometry

/// Why a geocoding request failed.
///
/// Mirrors the failures of MapKit's `MKReverseGeocoder` (`didFailWithError:`), with the reason spelled out.
public enum GeocodingError: MapRasterError, Equatable {
    /// The coordinate is not finite or out of range (latitude -90...90, longitude -180...180).
    case invalidCoordinate(latitude: Double, longitude: Double)
    /// No country of the shipped Natural Earth 1:10m data contains the point: it is at sea (or in a gap of the
    /// 1:10m coastline). The geocoder answers no ocean names, so a point at sea always fails with this error.
    case noData(latitude: Double, longitude: Double)
    /// A forward search was given an empty (or only blank and punctuation) query.
    case emptyQuery
    /// The geocoding data file is missing, truncated or corrupt.
    case badData(file: String, reason: String)

    public var description: String {
        switch self {
        case .invalidCoordinate(let latitude, let longitude):
            return "invalid coordinate \(latitude),\(longitude): latitude must be a finite number in -90...90 "
                + "and longitude in -180...180"
        case .noData(let latitude, let longitude):
            return "no place at \(latitude),\(longitude): no country contains this point (it is at sea); "
                + "give a point on land"
        case .emptyQuery:
            return "empty place name: give a name such as \"Tempe, Arizona\""
        case .badData(let file, let reason):
            return "geocoding data '\(file)' is unusable: \(reason); reinstall MapRaster or rebuild the file with "
                + "Scripts/make-geocoding-data.py"
        }
    }
}
