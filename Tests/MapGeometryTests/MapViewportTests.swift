import Foundation
import MapGeometry
import Testing

/// MKMapView geometry as a user of an image of a given size sees it.
@Suite("MapViewport")
struct MapViewportTests {
    static let sizes: [Size] = [
        Size(width: 256, height: 256), Size(width: 800, height: 600), Size(width: 600, height: 800),
        Size(width: 1024, height: 128), Size(width: 1, height: 1), Size(width: 4000, height: 3000),
    ]
    static let regions: [CoordinateRegion] = [
        CoordinateRegion(
            center: LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384),
            latitudinalMeters: 2_000, longitudinalMeters: 3_000),
        CoordinateRegion(
            center: LocationCoordinate2D(latitude: 0, longitude: 0),
            span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 10)),
        CoordinateRegion(
            center: LocationCoordinate2D(latitude: -45, longitude: 170),
            span: CoordinateSpan(latitudeDelta: 10, longitudeDelta: 30)),
        CoordinateRegion(
            center: LocationCoordinate2D(latitude: 70, longitude: -20),
            span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 5)),
        CoordinateRegion(
            center: LocationCoordinate2D(latitude: 37.7749, longitude: -122.4194),
            span: CoordinateSpan(latitudeDelta: 1e-5, longitudeDelta: 1e-5)),
    ]

    @Test(
        "Setting a region shows regionThatFits: same center, the image's aspect ratio, all of the region, no more than needed",
        arguments: sizes)
    func regionFits(size: Size) throws {
        for region in Self.regions {
            var viewport = try MapViewport(size: size)
            viewport.region = region
            let rect = viewport.visibleMapRect
            let what = "\(size) showing \(region)"
            // The aspect ratio is the image's, so nothing is stretched.
            expectClose(
                rect.width / rect.height, size.width / size.height, absolute: 0, relative: 1e-12, "\(what) aspect")
            // The center stays at the image's center.
            let center = MapPoint(region.center)
            expectMapPoints(rect.midX, center.x, "\(what) center x")
            expectMapPoints(rect.midY, center.y, "\(what) center y")
            // The whole region is visible.
            let corners = MapRect(region)
            let slack = Tolerance.mapPoints + Tolerance.mapPointsRelative * WebMercator.worldSize
            #expect(
                rect.minX <= corners.minX + slack && rect.maxX >= corners.maxX - slack
                    && rect.minY <= corners.minY + slack
                    && rect.maxY >= corners.maxY - slack,
                "\(what): \(rect) does not contain the region's corners \(corners)")
            // And no more than needed: it touches the region on one axis.
            let halfHeight = max(center.y - corners.minY, corners.maxY - center.y)
            #expect(
                isClose(rect.width, corners.width, absolute: slack)
                    || isClose(rect.height / 2, halfHeight, absolute: slack),
                "\(what): \(rect) is larger than needed for \(corners)")
            // The stored region is regionThatFits of the requested one.
            let fitted = viewport.regionThatFits(region)
            let shown = viewport.region
            expectClose(
                shown.center.latitude, region.center.latitude, absolute: Tolerance.degrees, "\(what) center latitude")
            expectLongitude(shown.center.longitude, region.center.longitude, "\(what) center longitude")
            expectClose(
                shown.span.latitudeDelta, fitted.span.latitudeDelta, absolute: Tolerance.degrees,
                "\(what) latitudeDelta")
            expectClose(
                shown.span.longitudeDelta, fitted.span.longitudeDelta, absolute: Tolerance.degrees,
                "\(what) longitudeDelta")
            #expect(
                fitted.span.longitudeDelta >= region.span.longitudeDelta * (1 - 1e-12),
                "\(what) fitted span is narrower")
        }
    }

    @Test("Setting the center coordinate moves the map and keeps the zoom level")
    func centerKeepsZoom() throws {
        var viewport = try MapViewport(
            size: Size(width: 800, height: 600), scale: 2,
            center: LocationCoordinate2D(latitude: 60.17, longitude: 24.94),
            zoomLevel: 12.3)
        expectClose(viewport.zoomLevel, 12.3, absolute: Tolerance.zoom, "initial zoom")
        let before = viewport.zoomLevel
        for target in [
            LocationCoordinate2D(latitude: -33.87, longitude: 151.21),
            LocationCoordinate2D(latitude: 0, longitude: 180),
            LocationCoordinate2D(latitude: 84, longitude: -179.5),
        ] {
            viewport.centerCoordinate = target
            #expect(viewport.zoomLevel == before, "zoom changed after centering on \(target)")
            expectClose(
                viewport.centerCoordinate.latitude, target.latitude, absolute: Tolerance.degrees, "center latitude")
            expectLongitude(viewport.centerCoordinate.longitude, target.longitude, "center longitude")
            let middle = viewport.point(for: target)
            expectClose(middle.x, 400, absolute: Tolerance.points, "\(target) x in the image")
            expectClose(middle.y, 300, absolute: Tolerance.points, "\(target) y in the image")
        }
    }

    @Test(
        "Fitting a map rect with edge padding leaves exactly the padding on the tight axis and centers it on the other",
        arguments: [
            MapRect(x: 1.0e8, y: 1.0e8, width: 1.0e6, height: 1.0e5),  // wide: tight left and right
            MapRect(x: 1.0e8, y: 1.0e8, width: 1.0e5, height: 1.0e6),  // tall: tight top and bottom
        ])
    func edgePadding(mapRect: MapRect) throws {
        let size = Size(width: 800, height: 600)
        let insets = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        var viewport = try MapViewport(size: size, scale: 2)
        viewport.setVisibleMapRect(mapRect, edgePadding: insets)
        #expect(viewport.visibleMapRect == viewport.mapRectThatFits(mapRect, edgePadding: insets))
        let topLeft = viewport.point(for: MapPoint(x: mapRect.minX, y: mapRect.minY))
        let bottomRight = viewport.point(for: MapPoint(x: mapRect.maxX, y: mapRect.maxY))
        let room = (
            left: topLeft.x, top: topLeft.y, right: size.width - bottomRight.x, bottom: size.height - bottomRight.y
        )
        let wide = mapRect.width / mapRect.height > (size.width - 60) / (size.height - 40)
        if wide {
            expectClose(room.left, insets.left, absolute: Tolerance.points, "left room")
            expectClose(room.right, insets.right, absolute: Tolerance.points, "right room")
            #expect(room.top >= insets.top && room.bottom >= insets.bottom, "\(room)")
            expectClose(
                room.top - insets.top, room.bottom - insets.bottom, absolute: Tolerance.points, "vertically centered")
        } else {
            expectClose(room.top, insets.top, absolute: Tolerance.points, "top room")
            expectClose(room.bottom, insets.bottom, absolute: Tolerance.points, "bottom room")
            #expect(room.left >= insets.left && room.right >= insets.right, "\(room)")
            expectClose(
                room.left - insets.left, room.right - insets.right, absolute: Tolerance.points, "horizontally centered")
        }
    }

    @Test("Setting the visible map rect fits it to the image's aspect ratio around the same center")
    func visibleMapRectFits() throws {
        var viewport = try MapViewport(size: Size(width: 800, height: 600))
        let square = MapRect(x: 1.0e8, y: 1.2e8, width: 3.0e6, height: 3.0e6)
        viewport.visibleMapRect = square
        let rect = viewport.visibleMapRect
        #expect(rect == MapRect(x: 1.0e8 - 0.5e6, y: 1.2e8, width: 4.0e6, height: 3.0e6))
    }

    // From zoom 2 up, the 800-point image shows less than one world width (1024 points at zoom 2), so each
    // longitude appears once and the round trip is unique.
    @Test("Image points and coordinates convert back and forth", arguments: [2.0, 4.0, 12.5, 21.0, 22.0])
    func pointCoordinateRoundTrip(zoomLevel: Double) throws {
        let size = Size(width: 800, height: 600)
        let viewport = try MapViewport(
            size: size, scale: 3, center: LocationCoordinate2D(latitude: 37.7749, longitude: -122.4194),
            zoomLevel: zoomLevel)
        for x in stride(from: 0.0, through: 800, by: 100) {
            for y in stride(from: 0.0, through: 600, by: 100) {
                let point = Point(x: x, y: y)
                let coordinate = viewport.coordinate(for: point)
                let back = viewport.point(for: coordinate)
                #expect(
                    abs(back.x - x) <= Tolerance.points && abs(back.y - y) <= Tolerance.points,
                    "zoom \(zoomLevel): \(point) -> \(coordinate) -> \(back)")
            }
        }
        let center = viewport.point(for: LocationCoordinate2D(latitude: 37.7749, longitude: -122.4194))
        expectClose(center.x, 400, absolute: Tolerance.points, "center x")
        expectClose(center.y, 300, absolute: Tolerance.points, "center y")
    }

    @Test("A view centered on the 180th meridian shows 179 degrees left of center and -179 degrees right of it")
    func across180() throws {
        let size = Size(width: 800, height: 600)
        let viewport = try MapViewport(
            size: size, center: LocationCoordinate2D(latitude: 0, longitude: 180), zoomLevel: 4)
        let degree = 256 * 16 / 360.0  // points per degree of longitude at zoom 4
        let west = viewport.point(for: LocationCoordinate2D(latitude: 0, longitude: 179))
        let east = viewport.point(for: LocationCoordinate2D(latitude: 0, longitude: -179))
        expectClose(west.x, 400 - degree, absolute: Tolerance.points, "179 degrees")
        expectClose(east.x, 400 + degree, absolute: Tolerance.points, "-179 degrees")
        expectLongitude(viewport.coordinate(for: Point(x: 400 + degree, y: 300)).longitude, -179, "east of center")
        // The same with a region across the meridian, centered on its west side.
        let region = CoordinateRegion(
            center: LocationCoordinate2D(latitude: -17, longitude: -179.5),
            span: CoordinateSpan(latitudeDelta: 4, longitudeDelta: 6))
        let fiji = try MapViewport(size: size, region: region)
        #expect(fiji.point(for: LocationCoordinate2D(latitude: -17, longitude: 178)).x < 400)
        #expect(fiji.point(for: LocationCoordinate2D(latitude: -17, longitude: -178)).x > 400)
        let box = fiji.rect(for: region)
        expectClose(box.midX, 400, absolute: Tolerance.points, "region rect centered")
    }

    @Test("The whole image's rect converts to the viewport's region and back")
    func imageRectAndRegion() throws {
        let size = Size(width: 800, height: 600)
        let viewport = try MapViewport(
            size: size, scale: 2, center: LocationCoordinate2D(latitude: 48.8584, longitude: 2.2945), zoomLevel: 15)
        let whole = viewport.region(for: Rect(x: 0, y: 0, width: size.width, height: size.height))
        let region = viewport.region
        expectClose(whole.center.latitude, region.center.latitude, absolute: Tolerance.degrees, "center latitude")
        expectLongitude(whole.center.longitude, region.center.longitude, "center longitude")
        expectClose(whole.span.latitudeDelta, region.span.latitudeDelta, absolute: Tolerance.degrees, "latitudeDelta")
        expectClose(
            whole.span.longitudeDelta, region.span.longitudeDelta, absolute: Tolerance.degrees, "longitudeDelta")
        // 800 points at zoom 15 are 800 / (256 * 2^15) of the world's 360 degrees.
        expectClose(
            region.span.longitudeDelta, 800.0 / (256 * 32_768) * 360, absolute: Tolerance.degrees, "width in degrees")
        // A region is a center and a span in degrees, symmetric in latitude around the center, while
        // Mercator stretches the north half more than the south half; so only the east-west extent of the
        // region's image rect is exactly the image's (the north-south one is off by 0.03 points here).
        let rect = viewport.rect(for: region)
        expectClose(rect.minX, 0, absolute: Tolerance.points, "rect x")
        expectClose(rect.width, 800, absolute: Tolerance.points, "rect width")
        expectClose(rect.minY, 0, absolute: 0.1, "rect y")
        expectClose(rect.height, 600, absolute: 0.1, "rect height")
    }

    @Test("The world in a 256-point square is zoom 0, in a 512-point square zoom 1, at any scale")
    func worldZoom() throws {
        for scale in [1.0, 2.0, 3.0] {
            #expect(try MapViewport(size: Size(width: 256, height: 256), scale: scale).zoomLevel == 0)
            #expect(try MapViewport(size: Size(width: 512, height: 512), scale: scale).zoomLevel == 1)
        }
        let world = try MapViewport(size: Size(width: 256, height: 256))
        #expect(world.visibleMapRect == .world)
        #expect(world.tileZoom == 0)
        let tile = try MapViewport(
            size: Size(width: 256, height: 256), center: LocationCoordinate2D(latitude: 0, longitude: 0), zoomLevel: 20)
        #expect(tile.visibleMapRect.width == 256)  // at zoom 20 one 256-point tile is 256 map points
    }

    @Test(
        "The tile zoom is the zoom level rounded to the nearest integer within 0...22",
        arguments: [
            (0.49, 0), (0.5, 1), (1.49, 1), (1.5, 2), (2.5, 3), (10.4999, 10), (-0.4, 0), (-3, 0), (21.7, 22),
            (22.4, 22), (30, 22),
            (Double.nan, 0),
        ])
    func tileZoom(zoomLevel: Double, expected: Int) {
        #expect(MapViewport.tileZoom(for: zoomLevel) == expected)
    }

    @Test("A viewport's tile zoom follows its zoom level")
    func viewportTileZoom() throws {
        let center = LocationCoordinate2D(latitude: 51.5, longitude: -0.12)
        for (zoom, expected) in [(10.4, 10), (10.6, 11), (0.2, 0), (22.0, 22)] {
            let viewport = try MapViewport(
                size: Size(width: 640, height: 480), scale: 2, center: center, zoomLevel: zoom)
            #expect(viewport.tileZoom == expected, "zoom \(zoom)")
        }
    }
}
