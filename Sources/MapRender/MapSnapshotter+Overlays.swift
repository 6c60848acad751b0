import MapAnnotations
import MapBaseMap
import MapGeometry
import MapGraphics
import MapOverlays

/// Where overlays are drawn relative to the base map. Mirrors MapKit's `MKOverlayLevel`.
public enum OverlayLevel: Sendable, CaseIterable {
    /// Above roads and other base map features, below labels. Mirrors `MKOverlayLevelAboveRoads`.
    case aboveRoads
    /// Above the base map's labels; the level of overlays added without one. Mirrors
    /// `MKOverlayLevelAboveLabels`.
    case aboveLabels
}

extension MapSnapshotter {
    // MARK: - Overlays
    //
    // `overlays` holds every overlay; each also has a level. Within a level, overlays are drawn in the
    // order of `overlays`, index 0 at the back. Operations that take a level count indices within that
    // level, as MapKit's `overlaysInLevel:` does.

    /// The overlays of one level, back to front. Mirrors `overlaysInLevel:`.
    public func overlays(in level: OverlayLevel) -> [Overlay] {
        overlays.filter { self.level(of: $0) == level }
    }

    /// The level of an overlay on the map, or nil when it is not on the map.
    public func level(of overlay: Overlay) -> OverlayLevel? {
        guard overlays.contains(where: { $0 === overlay }) else { return nil }
        return overlayLevels[ObjectIdentifier(overlay)] ?? .aboveLabels
    }

    /// Adds an overlay in front of the others of its level. Mirrors `addOverlay:` and
    /// `addOverlay:level:`.
    public func addOverlay(_ overlay: Overlay, level: OverlayLevel = .aboveLabels) {
        overlays.append(overlay)
        overlayLevels[ObjectIdentifier(overlay)] = level
    }

    /// Adds overlays in front of the others of their level, in order. Mirrors `addOverlays:` and
    /// `addOverlays:level:`.
    public func addOverlays(_ list: [Overlay], level: OverlayLevel = .aboveLabels) {
        for overlay in list { addOverlay(overlay, level: level) }
    }

    /// Inserts an overlay at an index of ``overlays`` (at the level ``OverlayLevel/aboveLabels``); an
    /// index past the end appends it. Mirrors `insertOverlay:atIndex:`.
    public func insertOverlay(_ overlay: Overlay, at index: Int) {
        overlays.insert(overlay, at: max(0, min(index, overlays.count)))
        overlayLevels[ObjectIdentifier(overlay)] = .aboveLabels
    }

    /// Inserts an overlay at an index of its level's list (``overlays(in:)``); an index past the end puts
    /// it in front of that level. Mirrors `insertOverlay:atIndex:level:`.
    public func insertOverlay(_ overlay: Overlay, at index: Int, level: OverlayLevel) {
        let positions = overlays.indices.filter { self.level(of: overlays[$0]) == level }
        let target: Int
        if index < 0 {
            target = positions.first ?? overlays.count
        } else if index < positions.count {
            target = positions[index]
        } else {
            target = positions.last.map { $0 + 1 } ?? overlays.count
        }
        overlays.insert(overlay, at: target)
        overlayLevels[ObjectIdentifier(overlay)] = level
    }

    /// Inserts an overlay just in front of `sibling`, at its level. Mirrors `insertOverlay:aboveOverlay:`.
    ///
    /// - Throws: ``OverlayError/siblingNotOnMap(sibling:)`` when `sibling` is not on the map (the overlays
    ///   are then unchanged).
    public func insertOverlay(_ overlay: Overlay, above sibling: Overlay) throws {
        let index = try position(ofSibling: sibling)
        overlays.insert(overlay, at: index + 1)
        overlayLevels[ObjectIdentifier(overlay)] = level(of: sibling)
    }

    /// Inserts an overlay just behind `sibling`, at its level. Mirrors `insertOverlay:belowOverlay:`.
    ///
    /// - Throws: ``OverlayError/siblingNotOnMap(sibling:)`` when `sibling` is not on the map (the overlays
    ///   are then unchanged).
    public func insertOverlay(_ overlay: Overlay, below sibling: Overlay) throws {
        let index = try position(ofSibling: sibling)
        overlays.insert(overlay, at: index)
        overlayLevels[ObjectIdentifier(overlay)] = level(of: sibling)
    }

    /// Swaps the overlays at two indices of ``overlays``; each keeps its level. Mirrors
    /// `exchangeOverlayAtIndex:withOverlayAtIndex:`.
    ///
    /// - Throws: ``OverlayError/indexOutOfRange(index:count:)``.
    public func exchangeOverlay(at index1: Int, withOverlayAt index2: Int) throws {
        for index in [index1, index2] where !overlays.indices.contains(index) {
            throw OverlayError.indexOutOfRange(index: index, count: overlays.count)
        }
        overlays.swapAt(index1, index2)
    }

    /// Swaps two overlays' positions; when they are at different levels they also swap levels.
    /// Mirrors `exchangeOverlay:withOverlay:`.
    ///
    /// - Throws: ``OverlayError/siblingNotOnMap(sibling:)`` naming an overlay that is not on the map.
    public func exchangeOverlay(_ overlay1: Overlay, with overlay2: Overlay) throws {
        let i = try position(ofSibling: overlay1)
        let j = try position(ofSibling: overlay2)
        let level1 = level(of: overlay1)
        let level2 = level(of: overlay2)
        overlays.swapAt(i, j)
        overlayLevels[ObjectIdentifier(overlay1)] = level2
        overlayLevels[ObjectIdentifier(overlay2)] = level1
    }

    /// Removes an overlay; one that is not on the map is ignored. Mirrors `removeOverlay:`.
    public func removeOverlay(_ overlay: Overlay) {
        overlays.removeAll { $0 === overlay }
        overlayLevels[ObjectIdentifier(overlay)] = nil
    }

    /// Removes overlays; those that are not on the map are ignored. Mirrors `removeOverlays:`.
    public func removeOverlays(_ list: [Overlay]) {
        for overlay in list { removeOverlay(overlay) }
    }

    private func position(ofSibling sibling: Overlay) throws -> Int {
        guard let index = overlays.firstIndex(where: { $0 === sibling }) else {
            throw OverlayError.siblingNotOnMap(sibling: describe(sibling))
        }
        return index
    }

    /// Whether a tile overlay on the map replaces the base map (`canReplaceMapContent`).
    var overlaysReplaceMapContent: Bool {
        overlays.contains { ($0 as? TileOverlay)?.canReplaceMapContent == true }
    }

    /// Draws the overlays of one level, back to front, after checking each one.
    ///
    /// - Throws: ``OverlayError`` naming the overlay (with its index) and the problem.
    func drawOverlays(level: OverlayLevel, in context: GraphicsContext) throws {
        for (index, overlay) in overlays.enumerated() where self.level(of: overlay) == level {
            do {
                try overlay.validate()
            } catch let OverlayError.invalidShape(name, problem) {
                throw OverlayError.invalidShape(overlay: "overlays[\(index)] \(name)", problem: problem)
            }
            guard let renderer = rendererProvider?(overlay) ?? defaultRenderer(for: overlay),
                renderer.canDraw(viewport.visibleMapRect, zoomScale: 1 / viewport.mapPointsPerPoint)
            else { continue }
            try renderer.prepare(for: viewport)
            context.withSavedState { renderer.render(in: context, viewport: viewport) }
        }
        try context.checkStatus("drawing overlays")
    }
}
