import MapGeometry

/// Annotations that would overlap at the current zoom, shown as one: their count, members and center.
///
/// The snapshotter creates clusters from annotations whose views share a ``AnnotationView/clusteringIdentifier``;
/// the view provider receives them like any annotation and may style them (nil gives a
/// ``ClusterAnnotationView``).
/// Mirrors MapKit's `MKClusterAnnotation`.
public final class ClusterAnnotation: Annotation {
    /// Where the cluster's view is anchored: the mean of the members' points in the image.
    public let coordinate: LocationCoordinate2D
    /// "N items" unless set.
    public var title: String?
    /// The members' titles, up to three, unless set.
    public var subtitle: String?
    /// The annotations in the cluster, in the order they were added. Mirrors `memberAnnotations`.
    public let memberAnnotations: [Annotation]
    /// The clustering identifier the members share.
    public let clusteringIdentifier: String
    /// A number for the metadata: clusters are numbered from 0 in the order they were formed.
    public let id: Int

    /// Creates a cluster of `members` (at least one) at `coordinate`, by default the mean of the
    /// members' map points.
    public init(
        memberAnnotations members: [Annotation], clusteringIdentifier: String, id: Int = 0,
        coordinate: LocationCoordinate2D? = nil
    ) {
        self.memberAnnotations = members
        self.clusteringIdentifier = clusteringIdentifier
        self.id = id
        if let coordinate {
            self.coordinate = coordinate
        } else {
            var x = 0.0
            var y = 0.0
            for member in members {
                let p = MapPoint(member.coordinate)
                x += p.x
                y += p.y
            }
            let n = Double(max(1, members.count))
            self.coordinate = MapPoint(x: x / n, y: y / n).coordinate
        }
        title = "\(members.count) items"
        let titles = members.prefix(3).compactMap(\.title)
        subtitle = titles.isEmpty ? nil : titles.joined(separator: ", ") + (members.count > 3 ? ", …" : "")
    }
}
