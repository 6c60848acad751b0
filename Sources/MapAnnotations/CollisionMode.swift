/// The shape an annotation view occupies when views are checked for collisions.
///
/// Mirrors MapKit's `MKAnnotationViewCollisionMode`.
public enum CollisionMode: String, Sendable, CaseIterable {
    /// The view's frame. Mirrors `MKAnnotationViewCollisionModeRectangle`.
    case rectangle
    /// The largest circle inside the frame, centered on it. Mirrors `MKAnnotationViewCollisionModeCircle`.
    case circle
    /// The view never collides: it is never hidden and never hides others. Mirrors
    /// `MKAnnotationViewCollisionModeNone`.
    case none
}
