import Foundation
import MapRaster
import MapTestSupport
import Testing

/// MapKit's `pointOfInterestFilter`, `showsBuildings` and dark appearance. Truth: the same view drawn from a
/// style edited by hand here (layers removed by id, filters written in the legacy syntax), which must give
/// the same pixels, and label counts of a style reduced to its POI layers.
@Suite("Snapshot options: POI filter, buildings, dark appearance")
struct SnapshotOptionsTests {
    /// Andorra la Vella's old town at zoom 17: restaurants, cafes, shops, a hotel, parking, a bus stop.
    static let andorra = LocationCoordinate2D(latitude: 42.507, longitude: 1.522)
    static let size = Size(width: 600, height: 450)

    static func snapshot(
        _ style: Style, center: LocationCoordinate2D = andorra, zoom: Double = 17,
        _ adjust: (inout MapSnapshotter.Options) -> Void = { _ in }
    ) throws -> Snapshot {
        var options = MapSnapshotter.Options(size: size)
        options.visibleMapRect = try MapViewport(size: size, center: center, zoomLevel: zoom).visibleMapRect
        options.style = style
        options.showsAttribution = false
        adjust(&options)
        return try MapSnapshotter(options: options).snapshot()
    }

    /// The style without the layers `ids` (each must exist).
    static func removing(_ ids: [String], from style: Style) -> Style {
        var edited = style
        for id in ids { #expect(edited.layers.contains { $0.id == id }, "the style has a layer '\(id)'") }
        edited.layers.removeAll { ids.contains($0.id) }
        return edited
    }

    /// The POI layers of the shipped streets style, by id (as written by Scripts/make-streets-style.py).
    static let poiLayers = ["poi", "poi-transit", "airport-label"]

    /// The streets style reduced to its background and POI layers: every label placed is a POI's.
    static func poisOnly() throws -> Style {
        var style = try ShippedStyle.streets.style()
        style.layers.removeAll { $0.type != .background && !poiLayers.contains($0.id) }
        return style
    }

    /// `style`'s POI layers with a legacy `["in", "class", ...]` (or `!in`) filter added by hand.
    static func handFiltered(_ style: Style, classes: [String], negated: Bool = false) throws -> Style {
        var edited = style
        for index in edited.layers.indices where poiLayers.contains(edited.layers[index].id) {
            let legacy = JSONValue.array(
                [.string(negated ? "!in" : "in"), .string("class")] + classes.map(JSONValue.string))
            let old = edited.layers[index].filter!
            let added = try StyleExpression.decodeFilter(legacy, path: "test")
            edited.layers[index].filter = StyleProperty(
                json: .array([.string("all"), old.json, legacy]), expression: .all([old.expression, added]))
        }
        return edited
    }

    @Test("excludingAll draws what the style without its POI layers draws, and the view has POIs to hide")
    func excludingAll() throws {
        let streets = try ShippedStyle.streets.style()
        let all = try Self.snapshot(streets)
        let excluded = try Self.snapshot(streets) { $0.pointOfInterestFilter = .excludingAll }
        let stripped = try Self.snapshot(Self.removing(Self.poiLayers, from: streets))
        #expect(excluded.image.pixelsEqual(stripped.image), "excludingAll = the style without poi layers")
        #expect(!all.image.pixelsEqual(excluded.image), "the view draws POIs that excludingAll hides")
        // Counted on the POI layers alone: some POIs drawn without the filter, none with it.
        let pois = try Self.poisOnly()
        #expect(try Self.snapshot(pois).labelBoxes.count >= 10)
        #expect(try Self.snapshot(pois) { $0.pointOfInterestFilter = .excludingAll }.labelBoxes.isEmpty)
        // includingAll and nil change nothing.
        #expect(try Self.snapshot(streets) { $0.pointOfInterestFilter = .includingAll }.image.pixelsEqual(all.image))
    }

    @Test(
        "including restaurant and cafe draws only those classes (OpenMapTiles restaurant, fast_food, cafe, ice_cream)")
    func includingTwo() throws {
        let pois = try Self.poisOnly()
        let classes = ["restaurant", "fast_food", "cafe", "ice_cream"]
        let filtered = try Self.snapshot(pois) {
            $0.pointOfInterestFilter = PointOfInterestFilter(including: [.restaurant, .cafe])
        }
        let byHand = try Self.snapshot(Self.handFiltered(pois, classes: classes))
        #expect(filtered.image.pixelsEqual(byHand.image))
        #expect(filtered.labelBoxes.count == byHand.labelBoxes.count)
        #expect(filtered.labelBoxes.count >= 5, "restaurants and cafes in the old town: \(filtered.labelBoxes.count)")
        // The view has POIs of other classes, which the filter left out.
        let others = try Self.snapshot(Self.handFiltered(pois, classes: classes, negated: true))
        #expect(others.labelBoxes.count >= 5)
        // Excluding the same two draws the others (the transit and airport layers included).
        let excluding = try Self.snapshot(pois) {
            $0.pointOfInterestFilter = PointOfInterestFilter(excluding: [.restaurant, .cafe])
        }
        #expect(excluding.image.pixelsEqual(others.image))
        // On the whole style too: the filtered image is the hand-filtered style's.
        let streets = try ShippedStyle.streets.style()
        let whole = try Self.snapshot(streets) {
            $0.pointOfInterestFilter = PointOfInterestFilter(including: [.cafe, .restaurant])
        }
        #expect(whole.image.pixelsEqual(try Self.snapshot(Self.handFiltered(streets, classes: classes)).image))
    }

    @Test("showsBuildings false draws what the style without its building layers draws")
    func noBuildings() throws {
        let monaco = LocationCoordinate2D(latitude: 43.7325, longitude: 7.4189)
        let streets = try ShippedStyle.streets.style()
        let with = try Self.snapshot(streets, center: monaco)
        let without = try Self.snapshot(streets, center: monaco) { $0.showsBuildings = false }
        let stripped = try Self.snapshot(
            Self.removing(["building", "building-outline"], from: streets), center: monaco)
        #expect(without.image.pixelsEqual(stripped.image))
        #expect(!with.image.pixelsEqual(without.image), "Monaco has buildings to hide")
        // The shipped standard style through the map type (its tile buildings and Helsinki's GeoJSON ones).
        var standard = try ShippedStyle.standard.style()
        standard.layers.removeAll { ["building", "building-outline", "hel-buildings"].contains($0.id) }
        for (center, zoom) in [(monaco, 17.0), (LocationCoordinate2D(latitude: 60.1699, longitude: 24.9384), 16)] {
            var options = MapSnapshotter.Options(size: Self.size)
            options.visibleMapRect = try MapViewport(size: Self.size, center: center, zoomLevel: zoom).visibleMapRect
            options.showsBuildings = false
            let byMapType = try MapSnapshotter(options: options).snapshot()
            options.style = standard
            #expect(byMapType.image.pixelsEqual(try MapSnapshotter(options: options).snapshot().image))
        }
    }

    @Test("showsBuildings false hides extruded buildings too (maptiler-3d, pitch 60)")
    func noExtrudedBuildings() throws {
        let tiles = Fixtures.packageRoot.appendingPathComponent(
            "Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles")
        let style = try Style.load(
            contentsOf: Fixtures.url("styles/openmaptiles/maptiler-3d/style.json"),
            options: StyleLoadOptions(sources: ["openmaptiles": tiles.path]))
        let center = LocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
        let camera = try MapCamera(lookingAtCenter: center, fromDistance: 800, pitch: 60, heading: 30)
        func draw(_ style: Style, buildings: Bool) throws -> ImageSurface {
            var options = MapSnapshotter.Options(size: Size(width: 320, height: 240))
            options.camera = camera
            options.style = style
            options.showsBuildings = buildings
            return try MapSnapshotter(options: options).snapshot().image
        }
        let without = try draw(style, buildings: false)
        #expect(without.pixelsEqual(try draw(Self.removing(["building-3d"], from: style), buildings: true)))
        #expect(!without.pixelsEqual(try draw(style, buildings: true)))
    }

    @Test("the filter's text form: MapKit's names, all and none, errors that list the categories")
    func parsing() throws {
        #expect(try PointOfInterestFilter(parsing: "excludingAll") == .excludingAll)
        #expect(try PointOfInterestFilter(parsing: "none") == .excludingAll)
        #expect(try PointOfInterestFilter(parsing: "all") == .includingAll)
        let two = try PointOfInterestFilter(parsing: "including:restaurant,cafe")
        #expect(two == PointOfInterestFilter(including: [.cafe, .restaurant]))
        #expect(two.includes(.cafe) && two.excludes(.museum) && two.description == "including:cafe,restaurant")
        let one = try PointOfInterestFilter(parsing: "excluding:museum")
        #expect(one.excludes(.museum) && one.includes(.park))
        #expect(
            PointOfInterestFilter.excludingAll.excludes(.airport) && PointOfInterestFilter.includingAll.includes(.zoo))
        for bad in ["", "including", "including:", "including:Restaurant", "only:cafe", "excluding:cafe,,park"] {
            #expect(throws: PointOfInterestFilterError.self) { try PointOfInterestFilter(parsing: bad) }
        }
        do {
            _ = try PointOfInterestFilter(parsing: "including:pizza")
        } catch {
            #expect(
                error.description.contains("unknown category 'pizza'") && error.description.contains("publicTransport"))
        }
    }

    @Test("every category names OpenMapTiles values, and shops, food and transit do not overlap")
    func categories() {
        for category in PointOfInterestCategory.allCases {
            #expect(!(category.openMapTilesClasses + category.openMapTilesSubclasses).isEmpty, "\(category)")
        }
        let restaurant = Set(PointOfInterestCategory.restaurant.openMapTilesClasses)
        #expect(restaurant.isDisjoint(with: PointOfInterestCategory.store.openMapTilesClasses))
        #expect(restaurant.isDisjoint(with: PointOfInterestCategory.publicTransport.openMapTilesClasses))
    }
}

extension ImageSurface {
    /// Whether the two images have the same size and bytes.
    fileprivate func pixelsEqual(_ other: ImageSurface) -> Bool {
        width == other.width && height == other.height && rgbaBytes() == other.rgbaBytes()
    }
}
