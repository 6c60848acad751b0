import MapGeometry

/// A short name of an overlay for error messages.
package func describe(_ overlay: Overlay) -> String {
    switch overlay {
    case let o as Polyline: return overlayName(o.kindName, title: o.title, first: o.coordinates.first)
    case let o as Polygon: return overlayName("Polygon", title: o.title, first: o.coordinates.first)
    case let o as Circle: return overlayName("Circle", title: o.title, first: o.center)
    case let o as MultiPolyline: return overlayName("MultiPolyline", title: o.title, first: nil)
    case let o as MultiPolygon: return overlayName("MultiPolygon", title: o.title, first: nil)
    case let o as TileOverlay: return "TileOverlay '\(o.path)'"
    default: return "\(type(of: overlay)) at \(overlay.coordinate)"
    }
}

/// The renderer MapRaster uses for an overlay when the renderer provider gives none.
package func defaultRenderer(for overlay: Overlay) -> OverlayRenderer? {
    switch overlay {
    case let polyline as Polyline: return PolylineRenderer(polyline: polyline)
    case let polygon as Polygon: return PolygonRenderer(polygon: polygon)
    case let circle as Circle: return CircleRenderer(circle: circle)
    case let multi as MultiPolyline: return MultiPolylineRenderer(multiPolyline: multi)
    case let multi as MultiPolygon: return MultiPolygonRenderer(multiPolygon: multi)
    case let tiles as TileOverlay: return TileOverlayRenderer(tileOverlay: tiles)
    default: return nil
    }
}
