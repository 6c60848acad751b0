import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Annotation display: callouts, collisions, clustering, user location, reuse, rotated views")
struct AnnotationDisplayTests {
    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

    func helsinkiSnapshotter(size: Size = Size(width: 360, height: 240), meters: Double = 3000) throws
        -> MapSnapshotter
    {
        var options = MapSnapshotter.Options(size: size)
        options.region = CoordinateRegion(center: Self.helsinki, latitudinalMeters: meters, longitudinalMeters: meters)
        return try MapSnapshotter(options: options).pinnedToPlainBaseMap()
    }

    // MARK: - Callouts

    static let edges: [(name: String, x: Double, y: Double)] = [
        ("top-left", 12, 40), ("top-right", 350, 30), ("bottom-left", 8, 236), ("bottom-right", 345, 230),
        ("middle", 180, 140),
    ]

    @Test("callouts near each edge stay inside the image and point at the view", arguments: [0, 1, 2, 3, 4])
    func callout(edge: Int) throws {
        let (name, x, y) = Self.edges[edge]
        let s = try helsinkiSnapshotter()
        let coordinate = s.viewport.coordinate(for: Point(x: x, y: y))
        let annotation = PointAnnotation(
            coordinate: coordinate, title: "Callout at the \(name)", subtitle: "Subtitle of the \(name) pin")
        let other = PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 180, y: 200)), title: "other")
        s.addAnnotations([annotation, other])
        let accessory = try SeedIcons.load(.school)
        s.viewProvider = { a in
            guard a === annotation else { return nil }
            let pin = PinAnnotationView(pinColor: .purple)
            if edge % 2 == 0 { pin.leftCalloutAccessoryImage = accessory }
            if edge >= 2 { pin.rightCalloutAccessoryImage = accessory }
            return pin
        }
        s.selectedAnnotations = [annotation, other]
        let snapshot = try s.snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/callout-\(name)") == nil)
        let placed = try #require(snapshot.annotations.first { $0.annotation === annotation })
        #expect(placed.isSelected)
        let bubble = try #require(placed.calloutFrame)
        #expect(bubble.minX >= 0 && bubble.minY >= 0 && bubble.maxX <= 360 && bubble.maxY <= 240, "\(bubble)")
        // Above the pin when there is room, else below it; never over the pin's head.
        if placed.frame.minY > bubble.height + 13 {
            #expect(abs(bubble.maxY + 9 - placed.frame.minY) < 1e-9)
        } else {
            #expect(abs(bubble.minY - 9 - placed.frame.maxY) < 1e-9)
        }
        #expect(snapshot.annotations.first { $0.annotation === other }?.calloutFrame == nil)
        // The arrow's tip is the middle of the pin's top or bottom edge, even where the bubble is slid.
        var callout = CalloutView(
            title: annotation.title!, subtitle: annotation.subtitle,
            leftAccessoryImage: edge % 2 == 0 ? accessory : nil,
            rightAccessoryImage: edge >= 2 ? accessory : nil)
        try callout.place(pointingAt: placed.frame, imageSize: Size(width: 360, height: 240))
        #expect(callout.bubble == bubble)
        #expect(abs(callout.arrowTip.x - placed.frame.midX) < 1e-9)
        #expect(callout.arrowTip.y == (callout.isBelow ? placed.frame.maxY : placed.frame.minY))
        #expect(callout.arrowBaseX - 9 >= bubble.minX + 8 - 1e-9 && callout.arrowBaseX + 9 <= bubble.maxX - 8 + 1e-9)
        let json = snapshot.metadata()
        let entry = try #require(json["annotations"]?.array?.first { $0["selected"]?.bool == true })
        #expect(entry["callout"]?["width"]?.number == bubble.width)
    }

    @Test("at scale 2 the callout, the cached pins and a cluster are drawn with twice the pixels")
    func retina() throws {
        var options = MapSnapshotter.Options(size: Size(width: 300, height: 200), scale: 2)
        options.region = CoordinateRegion(center: Self.helsinki, latitudinalMeters: 3000, longitudinalMeters: 3000)
        let s = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
        let selected = PointAnnotation(
            coordinate: s.viewport.coordinate(for: Point(x: 150, y: 130)), title: "Senate Square",
            subtitle: "Helsinki")
        s.addAnnotation(selected)
        for k in 0..<4 {
            s.addAnnotation(
                PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 60 + 5 * Double(k), y: 170))))
        }
        s.addAnnotation(PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 250, y: 170)), title: "alone"))
        s.viewProvider = { a in
            guard !(a is ClusterAnnotation), a !== selected else { return nil }
            let pin = PinAnnotationView(pinColor: .green)
            pin.clusteringIdentifier = "g"
            return pin
        }
        s.selectAnnotation(selected)
        let snapshot = try s.snapshot()
        #expect(snapshot.image.width == 600 && snapshot.image.height == 400)
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/retina@2x") == nil)
        #expect(snapshot.clusters.count == 1)
        let placed = try #require(snapshot.annotations.first { $0.annotation === selected })
        let bubble = try #require(placed.calloutFrame)
        // The bubble's fill is white in device pixels at twice the point coordinates.
        let inside = snapshot.image.pixel(x: Int(bubble.maxX * 2) - 6, y: Int(bubble.midY * 2))
        #expect(inside.red == 255 && inside.green == 255 && inside.blue == 255, "\(inside)")
    }

    @Test("the selected view is drawn in front of a southern one")
    func selectedInFront() throws {
        let s = try helsinkiSnapshotter()
        let north = PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 180, y: 120)), title: "north")
        let south = PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 184, y: 126)), title: "south")
        s.addAnnotations([north, south])
        s.viewProvider = { $0 === north ? PinAnnotationView(pinColor: .green) : nil }
        let before = try s.snapshot()
        // The heads overlap around (182, 99): red (the southern pin) is in front.
        let p = before.image.pixel(x: 183, y: 100)
        #expect(p.red > 200 && p.green < 100, "\(p)")
        s.selectAnnotation(north)
        north.title = nil  // no callout, to see the pin itself
        let after = try s.snapshot()
        let q = after.image.pixel(x: 183, y: 100)
        #expect(q.green > 180 && q.red < 150, "\(q)")
    }

    // MARK: - Collisions

    @Test("lower-priority views that would overlap are hidden; required, selected and none always show")
    func collisions() throws {
        let s = try helsinkiSnapshotter()
        func at(_ x: Double, _ y: Double, _ title: String) -> PointAnnotation {
            PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: x, y: y)), title: title)
        }
        let required = at(60, 80, "required")
        let lowUnderRequired = at(70, 85, "low under required")
        let high = at(160, 80, "high")
        let lowUnderHigh = at(168, 90, "low under high")
        let number = at(260, 80, "600")
        let numberLow = at(270, 84, "400")
        let noneMode = at(66, 84, "none")
        let circleA = at(80, 190, "circle A")
        let circleB = at(100, 210, "circle B (corners only)")
        let rectA = at(200, 190, "rect A")
        let rectB = at(220, 210, "rect B (corners only)")
        let selectedLow = at(262, 190, "selected low")
        let highOverSelected = at(270, 196, "high over selected")
        s.addAnnotations([
            required, lowUnderRequired, high, lowUnderHigh, number, numberLow, noneMode, circleA, circleB, rectA, rectB,
            selectedLow, highOverSelected,
        ])
        let priorities: [String: DisplayPriority] = [
            "required": .required, "high": .defaultHigh, "600": DisplayPriority(600), "400": DisplayPriority(400),
            "high over selected": .defaultHigh,
        ]
        s.viewProvider = { a in
            let title = a.title ?? "selected low"
            let view: AnnotationView
            if title.hasPrefix("circle") || title.hasPrefix("rect") {
                let color: Color = title.hasPrefix("circle") ? .blue : Color(red8: 0, green8: 150, blue8: 80)
                view = AnnotationView(size: Size(width: 28, height: 28), reuseIdentifier: "disc") { c, b in
                    c.setFillColor(color.withAlphaComponent(0.8))
                    c.fill(Path(ovalIn: b))
                }
                view.collisionMode = title.hasPrefix("circle") ? .circle : .rectangle
                view.displayPriority = title.hasSuffix("A") ? .defaultHigh : .defaultLow
                return view
            }
            let pin = PinAnnotationView(
                pinTintColor: title == "none"
                    ? Color(red8: 255, green8: 149, blue8: 0) : PinAnnotationView.PinColor.red.color)
            pin.displayPriority = priorities[title] ?? .defaultLow
            if title == "none" { pin.collisionMode = .none }
            return pin
        }
        s.selectAnnotation(selectedLow)
        selectedLow.title = nil
        let snapshot = try s.snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/collisions") == nil)
        var states: [String: Snapshot.Visibility] = [:]
        for placed in snapshot.annotations { states[placed.annotation.title ?? "selected low"] = placed.visibility }
        #expect(states["required"] == .visible)
        #expect(states["low under required"] == .hiddenByCollision)
        #expect(states["high"] == .visible)
        #expect(states["low under high"] == .hiddenByCollision)
        #expect(states["600"] == .visible)
        #expect(states["400"] == .hiddenByCollision)
        #expect(states["none"] == .visible)
        #expect(states["circle A"] == .visible)
        #expect(states["circle B (corners only)"] == .visible, "circles 28 across, 28.3 apart: no overlap")
        #expect(states["rect A"] == .visible)
        #expect(states["rect B (corners only)"] == .hiddenByCollision, "the squares overlap by 8x8")
        #expect(states["selected low"] == .visible)
        #expect(states["high over selected"] == .hiddenByCollision)
        let json = snapshot.metadata()
        let hidden = json["annotations"]?.array?.filter { $0["state"]?.string == "hidden" }.count
        #expect(hidden == 5)
    }

    // MARK: - Clustering

    static let europe = CoordinateRegion(
        center: LocationCoordinate2D(latitude: 50, longitude: 10),
        span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))

    @Test("the 6,204 GeoNames cities cluster at zoom 2 and 5", arguments: [2.0, 5.0])
    func geonames(zoom: Double) throws {
        let cities = try GeoNamesCities.load()
        #expect(cities.count == 6204)
        let center =
            zoom == 2
            ? LocationCoordinate2D(latitude: 20, longitude: 10) : LocationCoordinate2D(latitude: 50, longitude: 10)
        let viewport = try MapViewport(size: Size(width: 800, height: 600), center: center, zoomLevel: zoom)
        var options = MapSnapshotter.Options(size: Size(width: 800, height: 600))
        options.visibleMapRect = viewport.visibleMapRect
        let s = try MapSnapshotter(options: options).pinnedToPlainBaseMap()
        s.addAnnotations(cities)
        s.viewProvider = { a in
            guard !(a is ClusterAnnotation) else { return nil }
            let view = AnnotationView(size: Size(width: 14, height: 14), reuseIdentifier: "city") { c, b in
                c.setFillColor(Color(red8: 220, green8: 60, blue8: 40))
                c.fill(Path(ovalIn: b.insetBy(dx: 2, dy: 2)))
                c.setStrokeColor(.white)
                c.setLineWidth(1.5)
                c.stroke(Path(ovalIn: b.insetBy(dx: 2, dy: 2)))
            }
            view.reuseContentKey = "dot"
            view.clusteringIdentifier = "city"
            view.collisionMode = .circle
            return view
        }
        let snapshot = try s.snapshot()
        #expect(abs(snapshot.viewport.zoomLevel - zoom) < 1e-9)
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/geonames-zoom\(Int(zoom))") == nil)
        // Every city is either shown alone or in exactly one cluster; members' counts add up.
        let clustered = snapshot.annotations.filter { $0.visibility == .clustered }
        let total = snapshot.clusters.reduce(0) { $0 + ($1.annotation as! ClusterAnnotation).memberAnnotations.count }
        #expect(clustered.count == total)
        #expect(snapshot.annotations.count == 6204)
        let alone = snapshot.annotations.filter { $0.visibility == .visible }
        #expect(alone.count + clustered.count == 6204)
        for cluster in snapshot.clusters {
            let c = cluster.annotation as! ClusterAnnotation
            #expect(c.memberAnnotations.count >= 2)
            #expect(clustered.filter { $0.clusterID == c.id }.count == c.memberAnnotations.count)
            // The cluster sits at the mean map point of its members.
            let xs = c.memberAnnotations.map { MapPoint($0.coordinate).x }
            let mean = xs.reduce(0, +) / Double(xs.count)
            #expect(abs(MapPoint(c.coordinate).x - mean) < 1e-3)
        }
        // No two shown views overlap, singles or clusters (they would have merged).
        let singles = alone.map(\.frame) + snapshot.clusters.map(\.frame)
        var overlaps = 0
        for i in singles.indices {
            for j in singles.indices where j > i && singles[i].intersects(singles[j]) { overlaps += 1 }
        }
        #expect(overlaps == 0)
        // Zoomed out, more cities share clusters.
        if zoom == 2 {
            #expect(snapshot.clusters.count > 30 && alone.count < 100 && clustered.count > 6000)
        } else {
            #expect(!snapshot.clusters.isEmpty)
        }
        let json = snapshot.metadata()
        #expect(json["clusters"]?.array?.count == snapshot.clusters.count)
        #expect(json["annotations"]?.array?.first { $0["state"]?.string == "clustered" }?["cluster"]?.number != nil)
    }

    @Test("the view provider styles clusters")
    func styledClusters() throws {
        let s = try helsinkiSnapshotter()
        for k in 0..<5 {
            s.addAnnotation(
                PointAnnotation(
                    coordinate: s.viewport.coordinate(for: Point(x: 100 + Double(k) * 4, y: 120)), title: "p\(k)"))
        }
        s.addAnnotation(PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 260, y: 120)), title: "alone"))
        s.viewProvider = { a in
            if let cluster = a as? ClusterAnnotation {
                return ClusterAnnotationView(
                    count: cluster.memberAnnotations.count, tintColor: Color(red8: 120, green8: 40, blue8: 160))
            }
            let pin = PinAnnotationView()
            pin.clusteringIdentifier = "p"
            return pin
        }
        let snapshot = try s.snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/cluster-styled") == nil)
        #expect(snapshot.clusters.count == 1)
        let cluster = try #require(snapshot.clusters.first?.annotation as? ClusterAnnotation)
        #expect(cluster.memberAnnotations.map { $0.title! } == ["p0", "p1", "p2", "p3", "p4"])
        #expect(cluster.title == "5 items")
        let center = snapshot.point(for: cluster.coordinate)
        #expect(abs(center.x - 108) < 1e-6)
        let p = snapshot.image.pixel(x: Int(center.x) + 9, y: Int(center.y))
        #expect(p.red > 90 && p.red < 150 && p.blue > 130, "\(p)")
    }

    // MARK: - User location

    @Test("user location with heading: accuracy circle, cone and dot")
    func userLocation() throws {
        let s = try helsinkiSnapshotter(size: Size(width: 300, height: 220), meters: 1500)
        s.userLocation.location = Self.helsinki
        s.userLocation.horizontalAccuracy = 150
        s.userLocation.heading = 45
        s.showsUserLocation = true
        s.addAnnotation(
            PointAnnotation(coordinate: s.viewport.coordinate(for: Point(x: 80, y: 80)), title: "a pin nearby"))
        let snapshot = try s.snapshot()
        #expect(GoldenImage.check(snapshot.image, golden: "annotations/user-location") == nil)
        let placed = try #require(snapshot.annotations.first { $0.annotation is UserLocation })
        // The accuracy circle's radius: 150 m in points at this scale.
        let metersPerPoint =
            MapPoint.metersPerMapPoint(atLatitude: Self.helsinki.latitude) * s.viewport.mapPointsPerPoint
        let view = try #require(s.view(for: s.userLocation) as? UserLocationView)
        #expect(abs(view.accuracyRadius - 150 / metersPerPoint) < 1e-6)
        #expect(abs(placed.frame.width / 2 - max(view.accuracyRadius, UserLocationView.coneRadius)) < 1e-6)
        #expect(abs(placed.frame.midX - 150) < 1e-6 && abs(placed.frame.midY - 110) < 1e-6)
        // The dot's center is blue, the cone's north-east side is tinted, its south-west is not.
        let dot = snapshot.image.pixel(x: 150, y: 110)
        #expect(dot.blue > 200 && dot.red < 40, "\(dot)")
        // 30 points from the center, outside the accuracy circle (about 22 points) and inside the cone (40).
        let d = 30 / 2.0.squareRoot()
        let northEast = snapshot.image.pixel(x: Int(150 + d), y: Int(110 - d))
        let southWest = snapshot.image.pixel(x: Int(150 - d), y: Int(110 + d))
        #expect(Int(northEast.blue) - Int(northEast.red) > 15, "\(northEast)")
        #expect(abs(Int(southWest.blue) - Int(southWest.red)) < 15, "\(southWest)")
        let json = snapshot.metadata()
        #expect(json["annotations"]?.array?.contains { $0["userLocation"]?.bool == true } == true)
        #expect(s.isUserLocationVisible)
    }

    // MARK: - Reuse

    @Test("reused view bitmaps give the same image as drawing each view; pins of a color share one bitmap")
    func reuse() throws {
        func make(_ reuse: Bool) throws -> (ImageSurface, (drawn: Int, reused: Int)) {
            let s = try helsinkiSnapshotter()
            var rng = SplitMix64(state: 7)
            for k in 0..<60 {
                s.addAnnotation(
                    PointAnnotation(
                        coordinate: s.viewport.coordinate(
                            for: Point(
                                x: Double.random(in: 0...360, using: &rng), y: Double.random(in: 0...270, using: &rng))),
                        title: "\(k % 3)"))
            }
            s.viewProvider = { a in
                PinAnnotationView(pinColor: PinAnnotationView.PinColor.allCases[Int(a.title!)!])
            }
            s.reusesAnnotationViewBitmaps = reuse
            let image = try s.snapshot().image
            return (image, s.annotationViewBitmapCounts)
        }
        let (cached, counts) = try make(true)
        let (fresh, freshCounts) = try make(false)
        #expect(counts.drawn == 3)
        #expect(counts.drawn + counts.reused == freshCounts.drawn)
        #expect(freshCounts.reused == 0)
        #expect(try cached.pngData() == fresh.pngData())
        #expect(GoldenImage.check(cached, golden: "annotations/reuse-pins") == nil)
    }

    @Test("reuse keys: pins by tint, image-only views by image, nothing for closures and subclasses")
    func reuseKeys() throws {
        let pin = PinAnnotationView(pinColor: .red)
        let red = pin.reuseContentKey
        #expect(red != nil && red == PinAnnotationView(pinColor: .red).reuseContentKey)
        pin.pinTintColor = .blue
        #expect(pin.reuseContentKey != red)
        let icon = try SeedIcons.load(.apple)
        let plain = AnnotationView(image: icon, reuseIdentifier: "apple")
        #expect(plain.reuseContentKey == AnnotationView(image: icon).reuseContentKey)
        plain.drawing = { _, _ in }
        #expect(plain.reuseContentKey == nil)
        plain.reuseContentKey = "apple with nothing drawn"
        #expect(plain.reuseContentKey == AnyHashable("apple with nothing drawn"))
        #expect(ClusterAnnotationView(count: 3).reuseContentKey != ClusterAnnotationView(count: 4).reuseContentKey)
    }
}
