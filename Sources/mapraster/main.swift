import MapRaster
import Foundation
var o = MapSnapshotter.Options(size: Size(width: 512, height: 512))
let s = try MapSnapshotter(options: o)
s.addAnnotation(PointAnnotation(coordinate: LocationCoordinate2D(latitude: 60.17, longitude: 24.94), title: "Helsinki"))
s.addOverlay(Circle(center: LocationCoordinate2D(latitude: 60, longitude: 0), radius: 1_000_000))
let snap = try s.snapshot()
try snap.image.writePNG(to: URL(fileURLWithPath: "/tmp/world.png"))
print(snap.metadata().serialized())
