/// The kind of base map. Mirrors MapKit's `MKMapType`.
public enum MapType: String, Sendable, CaseIterable {
    case standard, satellite, hybrid
}
