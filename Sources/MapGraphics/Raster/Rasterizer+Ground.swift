import MapGeometry

/// Images lying on the ground of a turned or tilted view: raster tiles and tile overlays.
extension Rasterizer {
    /// Adds `texture` laid over the map rect `rect` (of the world copy it is seen in) on the ground of the view
    /// `projection` describes, as a GPU draws a textured quad in perspective: texels to map points to the turned
    /// ground (an affine map: turning is a rotation and a scale), then the view's ground homography, sampled
    /// perspective-correct with the edge texels repeated so that neighbouring tiles meet without a seam. A part
    /// reaching behind the camera is drawn in quarters, down to a sixteenth of a side, each quarter in front of
    /// the camera drawn.
    package func addOnGround(
        _ texture: Texture, over rect: MapRect, projection: ViewProjection, linear: Bool, opacity: Double
    ) {
        let (w, h) = (Double(texture.width), Double(texture.height))
        let o = projection.turned(MapPoint(x: rect.minX, y: rect.minY))
        let right = projection.turned(MapPoint(x: rect.maxX, y: rect.minY))
        let down = projection.turned(MapPoint(x: rect.minX, y: rect.maxY))
        let onGround = Transform(
            a: (right.x - o.x) / w, b: (right.y - o.y) / w, c: (down.x - o.x) / h, d: (down.y - o.y) / h,
            tx: o.x, ty: o.y)
        addInFront(
            texture, source: Rect(x: 0, y: 0, width: w, height: h),
            homography: Homography(onGround).concatenating(projection.groundHomography), linear: linear,
            opacity: opacity, depth: 0)
    }

    /// Adds the part `source` of a texture when its corners are in front of the camera, else its quarters (to
    /// depth 4).
    private func addInFront(
        _ texture: Texture, source: Rect, homography: Homography, linear: Bool, opacity: Double, depth: Int
    ) {
        let corners = [
            Point(x: source.minX, y: source.minY), Point(x: source.maxX, y: source.minY),
            Point(x: source.maxX, y: source.maxY), Point(x: source.minX, y: source.maxY),
        ]
        if corners.allSatisfy({ homography.apply($0).w > 0 }) {
            addQuad(
                texture, source: source, homography: homography, linear: linear, shading: .plain(opacity: opacity),
                clampToEdge: true)
            return
        }
        guard depth < 4 else { return }
        let (hw, hh) = (source.width / 2, source.height / 2)
        for (dx, dy) in [(0.0, 0.0), (hw, 0), (0, hh), (hw, hh)] {
            addInFront(
                texture, source: Rect(x: source.minX + dx, y: source.minY + dy, width: hw, height: hh),
                homography: homography, linear: linear, opacity: opacity, depth: depth + 1)
        }
    }
}
