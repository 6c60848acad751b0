/// Google's encoded polyline algorithm: a line of coordinates as printable ASCII, each latitude and
/// longitude rounded to 5 (or 6) decimals and stored as the difference from the previous point in 5-bit
/// chunks.
///
/// ```swift
/// let line = try EncodedPolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
/// // (38.5, -120.2), (40.7, -120.95), (43.252, -126.453)
/// EncodedPolyline.encode(line) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
/// ```
///
/// Decoding checks everything: characters outside `?`...`~`, a value cut off at the end, a latitude
/// without its longitude, a value longer than 7 chunks (35 bits), coordinates outside -90...90 and
/// -180...180, and more points than `maximumCount` are ``EncodedPolylineError``s naming the character
/// offset; no arithmetic can trap, and the work is proportional to the text.
public enum EncodedPolyline {
    /// Encodes coordinates with `precision` decimals (5, Google's; 6, OSRM's and Valhalla's).
    ///
    /// - Parameters:
    ///   - coordinates: valid coordinates (latitude -90...90, longitude -180...180).
    ///   - precision: decimals kept, 5 or 6.
    /// - Returns: the encoded text.
    public static func encode(_ coordinates: [LocationCoordinate2D], precision: Int = 5) -> String {
        precondition(precision == 5 || precision == 6, "precision must be 5 or 6")
        let factor = precision == 5 ? 1e5 : 1e6
        var text = ""
        var previous = (lat: 0, lon: 0)
        func append(_ delta: Int) {
            var value = delta < 0 ? ~(delta << 1) : delta << 1
            while value >= 0x20 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (value & 0x1f)) + 63)))
                value >>= 5
            }
            text.unicodeScalars.append(Unicode.Scalar(UInt8(value + 63)))
        }
        for c in coordinates {
            precondition(c.isValid, "EncodedPolyline.encode needs valid coordinates, got \(c)")
            // Rounding half away from zero, as Google's description says.
            let lat = Int((c.latitude * factor).rounded())
            let lon = Int((c.longitude * factor).rounded())
            append(lat - previous.lat)
            append(lon - previous.lon)
            previous = (lat, lon)
        }
        return text
    }

    /// Decodes an encoded polyline.
    ///
    /// - Parameters:
    ///   - text: the encoded line (URL-decoded: a `\` is a `\`, not `%5C`).
    ///   - precision: decimals the text was encoded with, 5 or 6.
    ///   - maximumCount: the most points accepted.
    /// - Returns: the coordinates, in order.
    /// - Throws: ``EncodedPolylineError`` naming the problem and its character offset.
    public static func decode(_ text: String, precision: Int = 5, maximumCount: Int = 100_000) throws
        -> [LocationCoordinate2D]
    {
        guard precision == 5 || precision == 6 else { throw EncodedPolylineError.invalidPrecision(precision) }
        let factor = precision == 5 ? 1e5 : 1e6
        let bytes = Array(text.utf8)
        var coordinates: [LocationCoordinate2D] = []
        var index = 0
        var lat: Int64 = 0
        var lon: Int64 = 0
        // Reads one signed value starting at `index`.
        func next() throws -> Int64 {
            let start = index
            var result: Int64 = 0
            var shift: Int64 = 0
            while true {
                guard index < bytes.count else { throw EncodedPolylineError.truncated(offset: start) }
                let byte = bytes[index]
                guard byte >= 63, byte <= 126 else {
                    throw EncodedPolylineError.invalidCharacter(offset: index, byte: byte)
                }
                index += 1
                let chunk = Int64(byte - 63)
                guard shift < 35 else { throw EncodedPolylineError.valueTooLong(offset: start) }
                result |= (chunk & 0x1f) << shift
                shift += 5
                if chunk < 0x20 { break }
            }
            return (result & 1) != 0 ? ~(result >> 1) : result >> 1
        }
        while index < bytes.count {
            guard coordinates.count < maximumCount else {
                throw EncodedPolylineError.tooManyPoints(maximum: maximumCount)
            }
            let start = index
            let dLat = try next()
            guard index < bytes.count else { throw EncodedPolylineError.missingLongitude(offset: start) }
            let dLon = try next()
            // Each delta is below 2^35 and each sum is checked below, so neither addition can overflow.
            lat += dLat
            lon += dLon
            let coordinate = LocationCoordinate2D(latitude: Double(lat) / factor, longitude: Double(lon) / factor)
            guard abs(coordinate.latitude) <= 90, abs(coordinate.longitude) <= 180 else {
                throw EncodedPolylineError.outOfRange(
                    offset: start, latitude: coordinate.latitude, longitude: coordinate.longitude)
            }
            coordinates.append(coordinate)
        }
        return coordinates
    }
}

/// An encoded polyline that cannot be decoded.
public enum EncodedPolylineError: MapRasterError, Equatable {
    /// A byte outside `?` (63) ... `~` (126).
    case invalidCharacter(offset: Int, byte: UInt8)
    /// The text ends inside a value (its last character has the continuation bit).
    case truncated(offset: Int)
    /// The text ends after a latitude.
    case missingLongitude(offset: Int)
    /// A value of more than 7 chunks.
    case valueTooLong(offset: Int)
    /// A point outside -90...90, -180...180.
    case outOfRange(offset: Int, latitude: Double, longitude: Double)
    /// More points than allowed.
    case tooManyPoints(maximum: Int)
    /// A precision other than 5 or 6.
    case invalidPrecision(Int)

    public var description: String {
        let grammar = "(Google's encoded polyline algorithm: characters ? to ~, a latitude and a longitude per point)"
        switch self {
        case let .invalidCharacter(offset, byte):
            let shown = byte >= 32 && byte < 127 ? "'\(Character(Unicode.Scalar(byte)))'" : "byte \(byte)"
            return "encoded polyline: \(shown) at character \(offset) is not part of the encoding \(grammar)"
        case .truncated(let offset):
            return "encoded polyline: the value starting at character \(offset) is cut off \(grammar)"
        case .missingLongitude(let offset):
            return "encoded polyline: the point starting at character \(offset) has no longitude \(grammar)"
        case .valueTooLong(let offset):
            return "encoded polyline: the value starting at character \(offset) is longer than 7 characters \(grammar)"
        case let .outOfRange(offset, latitude, longitude):
            return "encoded polyline: the point starting at character \(offset) decodes to \(latitude),\(longitude), "
                + "outside latitude -90...90 and longitude -180...180 (wrong precision?)"
        case .tooManyPoints(let maximum):
            return "encoded polyline: more than \(maximum) points"
        case .invalidPrecision(let p):
            return "encoded polyline: precision \(p) is not supported; use 5 or 6"
        }
    }
}
