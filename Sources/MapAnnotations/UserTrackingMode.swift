/// Whether the map follows the user's location. Mirrors MapKit's `MKUserTrackingMode`.
public enum UserTrackingMode: String, Sendable, CaseIterable {
    /// The map does not move with the user. Mirrors `MKUserTrackingModeNone`.
    case none
    /// The map is centered on the user. Mirrors `MKUserTrackingModeFollow`.
    case follow
    /// The map is centered on the user and the heading is shown. Mirrors `MKUserTrackingModeFollowWithHeading`.
    case followWithHeading
}
