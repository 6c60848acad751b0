import MapGeometry

/// PMTiles' tile ids: tiles numbered zoom by zoom (all of zoom 0, then zoom 1, ...) and along a Hilbert
/// curve within each zoom, so that nearby tiles get nearby ids.
enum PMTilesTileID {
    /// The id of `tile`: (4^z - 1) / 3 tiles of lower zooms, plus the tile's Hilbert-curve index.
    static func id(_ tile: TileID) -> UInt64 {
        let z = tile.z
        let base = ((UInt64(1) << (2 * UInt64(z))) - 1) / 3
        var x = UInt64(tile.x)
        var y = UInt64(tile.y)
        let n = UInt64(1) << UInt64(z)
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = (x & s) > 0 ? 1 : 0
            let ry: UInt64 = (y & s) > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so that the curve's sub-square has the standard orientation.
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return base + d
    }
}
