import MapGeometry
import MapGraphics

extension MapSnapshotter {
    // MARK: - Annotations

    /// Adds an annotation. Mirrors `addAnnotation:`.
    public func addAnnotation(_ annotation: Annotation) { annotations.append(annotation) }
    /// Adds annotations. Mirrors `addAnnotations:`.
    public func addAnnotations(_ list: [Annotation]) { annotations.append(contentsOf: list) }
    /// Removes an annotation (by identity). Mirrors `removeAnnotation:`.
    public func removeAnnotation(_ annotation: Annotation) { annotations.removeAll { $0 === annotation } }
    /// Removes annotations (by identity). Mirrors `removeAnnotations:`.
    public func removeAnnotations(_ list: [Annotation]) {
        let ids = Set(list.map(ObjectIdentifier.init))
        annotations.removeAll { ids.contains(ObjectIdentifier($0)) }
    }

    private struct Placed {
        var annotation: Annotation
        var view: AnnotationView
        var frame: Rect
        var y: Double
        var index: Int
    }

    /// Views and frames of all annotations in drawing order: north to south, then in the order added.
    private func placeAnnotations() -> [Placed] {
        annotations.enumerated().map { index, annotation in
            let view = viewProvider?(annotation) ?? PinAnnotationView()
            let point = viewport.point(for: annotation.coordinate)
            return Placed(
                annotation: annotation, view: view, frame: view.frame(anchoredAt: point), y: point.y, index: index)
        }.sorted { ($0.y, $0.index) < ($1.y, $1.index) }
    }

    /// Draws every annotation view that shows in the image; returns all annotations with their frames.
    func drawAnnotations(in context: GraphicsContext) throws -> [Snapshot.PlacedAnnotation] {
        let placed = placeAnnotations()
        let imageBounds = Rect(origin: .zero, size: viewport.size)
        for item in placed where item.frame.intersects(imageBounds) {
            context.withSavedState {
                context.translateBy(x: item.frame.minX, y: item.frame.minY)
                item.view.draw(in: context, bounds: Rect(origin: .zero, size: item.view.size))
            }
        }
        try context.checkStatus("drawing annotation views")
        return placed.map { Snapshot.PlacedAnnotation(annotation: $0.annotation, frame: $0.frame) }
    }
}
