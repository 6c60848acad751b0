/// The cell arithmetic shared by the geocoder's grids (places, polygons), which index integer microdegrees
/// so that answers match the oracle bit for bit: the cell of a coordinate, clamped into the grid.
enum MicrodegreeGrid {
    @inline(__always) static func cell(_ v: Double, from origin: Double, size: Int, count: Int) -> Int {
        let c = ((v - origin) / Double(size)).rounded(.down)
        return c < 0 ? 0 : c >= Double(count) ? count - 1 : Int(c)
    }
}
