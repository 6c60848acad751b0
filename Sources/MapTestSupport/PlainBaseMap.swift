import MapRaster

extension MapSnapshotter {
    /// Draws this snapshot over the plain Natural Earth base map (land, ocean, borders; no labels) instead
    /// of the shipped `standard` style, so that annotation and overlay goldens test annotations and
    /// overlays and do not change whenever the style does. Returns `self`.
    @discardableResult
    public func pinnedToPlainBaseMap() -> MapSnapshotter {
        baseMap = NaturalEarthBaseMap()
        return self
    }
}
