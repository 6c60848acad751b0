import MapRaster

/// A coordinate from latitude and longitude, for short test tables.
public func coord(_ lat: Double, _ lon: Double) -> LocationCoordinate2D {
    LocationCoordinate2D(latitude: lat, longitude: lon)
}

/// The pixel of a snapshot at a coordinate.
public func pixel(_ snapshot: Snapshot, _ c: LocationCoordinate2D) -> ImageSurface.Pixel {
    let p = snapshot.point(for: c)
    let s = snapshot.viewport.scale
    return snapshot.image.pixel(x: Int(p.x * s), y: Int(p.y * s))
}
