import Foundation
import MapRaster
import MapTestSupport
import Testing

@Suite("Annotation display: callouts, collisions, clustering, user location, reuse, rotated views")
struct AnnotationDisplayTests {
    static let helsinki = LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384)

    func helsinkiSnapshotter() throws -> MapSnapshotter {
        var options = MapSnapshotter.Options(size: Size(width: 360, height: 240))
        options.region = CoordinateRegion(center: Self.helsinki, latitudinalMeters: 3000, longitudinalMeters: 3000)
        return try MapSnapshotter(options: options).pinnedToPlainBaseMap()
    }

    // MARK: - Callouts

    @Test(
        "callouts near each edge stay inside the image and point at the view",
        arguments: ["top-left", "top-right", "bottom-left", "bottom-right", "middle"])
    func callout(name: String) throws {
        let golden = try GoldenCase.load("annotations/callout-\(name)")
        let s = try golden.snapshotter()
        let coordinate = s.viewport.coordinate(for: try golden.value("pin", as: Point.self))
        let annotation = PointAnnotation(
            coordinate: coordinate, title: "Callout at the \(name)", subtitle: "Subtitle of the \(name) pin")
        let other = PointAnnotation(
            coordinate: s.viewport.coordinate(for: try golden.value("other", as: Point.self)), title: "other")
        s.addAnnotations([annotation, other])
        let accessory = try SeedIcons.load(.school)
        let left = try golden.value("leftAccessory").bool == true ? accessory : nil
        let right = try golden.value("rightAccessory").bool == true ? accessory : nil
        s.viewProvider = { a in
            guard a === annotation else { return nil }
            let pin = PinAnnotationView(pinColor: .purple)
            pin.leftCalloutAccessoryImage = left
            pin.rightCalloutAccessoryImage = right
            return pin
        }
        s.selectedAnnotations = [annotation, other]
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        let placed = try #require(snapshot.annotations.first { $0.annotation === annotation })
        #expect(placed.isSelected)
        let bubble = try #require(placed.calloutFrame)
        let size = golden.pointSize
        #expect(
            bubble.minX >= 0 && bubble.minY >= 0 && bubble.maxX <= size.width && bubble.maxY <= size.height, "\(bubble)"
        )
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
            leftAccessoryImage: left, rightAccessoryImage: right)
        try callout.place(pointingAt: placed.frame, imageSize: size)
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
        let golden = try GoldenCase.load("annotations/retina@2x")
        let s = try golden.snapshotter()
        let selected = PointAnnotation(
            coordinate: s.viewport.coordinate(for: try golden.value("selected", as: Point.self)),
            title: "Senate Square",
            subtitle: "Helsinki")
        s.addAnnotation(selected)
        for point in try golden.list("clustered", of: Point.self) {
            s.addAnnotation(PointAnnotation(coordinate: s.viewport.coordinate(for: point)))
        }
        s.addAnnotation(
            PointAnnotation(
                coordinate: s.viewport.coordinate(for: try golden.value("alone", as: Point.self)), title: "alone"))
        s.viewProvider = { a in
            guard !(a is ClusterAnnotation), a !== selected else { return nil }
            let pin = PinAnnotationView(pinColor: .green)
            pin.clusteringIdentifier = "g"
            return pin
        }
        s.selectAnnotation(selected)
        let snapshot = try s.snapshot()
        #expect(snapshot.image.width == 600 && snapshot.image.height == 400)
        #expect(golden.check(snapshot.image) == nil)
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
        let golden = try GoldenCase.load("annotations/collisions")
        let s = try golden.snapshotter()
        let pins = try golden.named("pins", of: Point.self).map {
            PointAnnotation(coordinate: s.viewport.coordinate(for: $0.value), title: $0.name)
        }
        s.addAnnotations(pins)
        let selectedLow = try #require(pins.first { $0.title == "selected low" })
        let noneTint = try golden.value("noneTint", as: Color.self)
        let circleColor = try golden.value("circleColor", as: Color.self)
        let rectColor = try golden.value("rectColor", as: Color.self)
        let disc = try golden.number("discSize")
        let priorities: [String: DisplayPriority] = [
            "required": .required, "high": .defaultHigh, "600": DisplayPriority(600), "400": DisplayPriority(400),
            "high over selected": .defaultHigh,
        ]
        s.viewProvider = { a in
            let title = a.title ?? "selected low"
            let view: AnnotationView
            if title.hasPrefix("circle") || title.hasPrefix("rect") {
                let color = title.hasPrefix("circle") ? circleColor : rectColor
                view = AnnotationView(size: Size(width: disc, height: disc), reuseIdentifier: "disc") { c, b in
                    c.setFillColor(color.withAlphaComponent(0.8))
                    c.fill(Path(ovalIn: b))
                }
                view.collisionMode = title.hasPrefix("circle") ? .circle : .rectangle
                view.displayPriority = title.hasSuffix("A") ? .defaultHigh : .defaultLow
                return view
            }
            let pin = PinAnnotationView(
                pinTintColor: title == "none" ? noneTint : PinAnnotationView.PinColor.red.color)
            pin.displayPriority = priorities[title] ?? .defaultLow
            if title == "none" { pin.collisionMode = .none }
            return pin
        }
        s.selectAnnotation(selectedLow)
        selectedLow.title = nil
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
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

    @Test("the 6,204 GeoNames cities cluster at zoom 2 and 5", arguments: [2, 5])
    func geonames(zoomLevel: Int) throws {
        let golden = try GoldenCase.load("annotations/geonames-zoom\(zoomLevel)")
        let zoom = try #require(golden.zoom)
        let count = Int(try golden.number("cities"))
        let cities = try GeoNamesCities.load()
        #expect(cities.count == count)
        let s = try golden.snapshotter()
        s.addAnnotations(cities)
        let dotColor = try golden.value("dotColor", as: Color.self)
        s.viewProvider = { a in
            guard !(a is ClusterAnnotation) else { return nil }
            let view = AnnotationView(size: Size(width: 14, height: 14), reuseIdentifier: "city") { c, b in
                c.setFillColor(dotColor)
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
        #expect(golden.check(snapshot.image) == nil)
        // Every city is either shown alone or in exactly one cluster; members' counts add up.
        let clustered = snapshot.annotations.filter { $0.visibility == .clustered }
        let total = snapshot.clusters.reduce(0) { $0 + ($1.annotation as! ClusterAnnotation).memberAnnotations.count }
        #expect(clustered.count == total)
        #expect(snapshot.annotations.count == count)
        let alone = snapshot.annotations.filter { $0.visibility == .visible }
        #expect(alone.count + clustered.count == count)
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
        let golden = try GoldenCase.load("annotations/cluster-styled")
        let s = try golden.snapshotter()
        let members = try golden.list("clustered", of: Point.self)
        for (k, point) in members.enumerated() {
            s.addAnnotation(PointAnnotation(coordinate: s.viewport.coordinate(for: point), title: "p\(k)"))
        }
        s.addAnnotation(
            PointAnnotation(
                coordinate: s.viewport.coordinate(for: try golden.value("alone", as: Point.self)), title: "alone"))
        let tint = try golden.value("clusterTint", as: Color.self)
        s.viewProvider = { a in
            if let cluster = a as? ClusterAnnotation {
                return ClusterAnnotationView(count: cluster.memberAnnotations.count, tintColor: tint)
            }
            let pin = PinAnnotationView()
            pin.clusteringIdentifier = "p"
            return pin
        }
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        #expect(snapshot.clusters.count == 1)
        let cluster = try #require(snapshot.clusters.first?.annotation as? ClusterAnnotation)
        #expect(cluster.memberAnnotations.map { $0.title! } == members.indices.map { "p\($0)" })
        #expect(cluster.title == "\(members.count) items")
        // At the mean of the members' points (the same latitude: the mean x of the points).
        let center = snapshot.point(for: cluster.coordinate)
        #expect(abs(center.x - members.map(\.x).reduce(0, +) / Double(members.count)) < 1e-6)
        let p = snapshot.image.pixel(x: Int(center.x) + 9, y: Int(center.y))
        #expect(p.red > 90 && p.red < 150 && p.blue > 130, "\(p)")
    }

    // MARK: - User location

    @Test("user location with heading: accuracy circle, cone and dot")
    func userLocation() throws {
        let golden = try GoldenCase.load("annotations/user-location")
        let s = try golden.snapshotter()
        let location = try #require(golden.centerCoordinate)
        let accuracy = try golden.number("accuracy")
        s.userLocation.location = location
        s.userLocation.horizontalAccuracy = accuracy
        s.userLocation.heading = try golden.number("heading")
        s.showsUserLocation = true
        s.addAnnotation(
            PointAnnotation(
                coordinate: s.viewport.coordinate(for: try golden.value("pin", as: Point.self)), title: "a pin nearby"))
        let snapshot = try s.snapshot()
        #expect(golden.check(snapshot.image) == nil)
        let placed = try #require(snapshot.annotations.first { $0.annotation is UserLocation })
        // The accuracy circle's radius: the accuracy's meters in points at this scale.
        let metersPerPoint = MapPoint.metersPerMapPoint(atLatitude: location.latitude) * s.viewport.mapPointsPerPoint
        let view = try #require(s.view(for: s.userLocation) as? UserLocationView)
        #expect(abs(view.accuracyRadius - accuracy / metersPerPoint) < 1e-6)
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
        let golden = try GoldenCase.load("annotations/reuse-pins")
        let count = Int(try golden.number("pins"))
        let seed = UInt64(try golden.number("seed"))
        let area = try golden.numbers("area")
        func make(_ reuse: Bool) throws -> (ImageSurface, (drawn: Int, reused: Int)) {
            let s = try golden.snapshotter()
            var rng = SplitMix64(state: seed)
            for k in 0..<count {
                let point = Point(
                    x: Double.random(in: 0...area[0], using: &rng), y: Double.random(in: 0...area[1], using: &rng))
                s.addAnnotation(PointAnnotation(coordinate: s.viewport.coordinate(for: point), title: "\(k % 3)"))
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
        #expect(golden.check(cached) == nil)
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
