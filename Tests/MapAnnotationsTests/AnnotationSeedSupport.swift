import Foundation
import MapRaster
import MapTestSupport

/// The seed's `iCodeBlogAnnotation`: a coordinate, title, subtitle and one of three types.
final class SeedAnnotation: Annotation {
    enum Kind: String, CaseIterable {
        case apple = "Apple"
        case school = "School"
        case taco = "Taco"

        var iconName: String {
            switch self {
            case .apple: return "AppleMarker"
            case .school: return "SchoolMarker"
            case .taco: return "TacosMarker"
            }
        }
    }

    let coordinate: LocationCoordinate2D
    let title: String?
    let subtitle: String?
    let kind: Kind

    init(_ latitude: Double, _ longitude: Double, _ title: String, _ subtitle: String, _ kind: Kind) {
        coordinate = LocationCoordinate2D(latitude: latitude, longitude: longitude)
        self.title = title
        self.subtitle = subtitle
        self.kind = kind
    }

    /// The 15 annotations of `loadOurAnnotations`, in the seed's order.
    static func all() -> [SeedAnnotation] {
        [
            SeedAnnotation(40.763856, -73.973034, "Apple Store 5th Ave.", "Apple's Flagship Store", .apple),
            SeedAnnotation(51.514298, -0.141949, "Apple Store St. Regent", "London England", .apple),
            SeedAnnotation(35.672284, 139.765702, "Apple Store Giza", "Tokyo, Japan", .apple),
            SeedAnnotation(37.331741, -122.030564, "Apple Headquarters", "The Mothership", .apple),
            SeedAnnotation(41.894518, -87.624005, "Apple Store Michigan Ave.", "Chicago, IL", .apple),
            SeedAnnotation(32.264977, -110.944011, "Nico's Taco Shop", "Tucson, AZ", .taco),
            SeedAnnotation(32.743242, -117.181451, "Lucha Libre Gourmet", "San Diego, CA", .taco),
            SeedAnnotation(32.594987, -117.060936, "El Ranchero Taco Shop", "Rocky Pointe, Mexico", .taco),
            SeedAnnotation(-34.594859, -58.384336, "Taco Tequila Sangria S.A.", "Buneos Aires, Argentina", .taco),
            SeedAnnotation(38.240550, -0.526509, "Albertsma Taco", "Gran Alacant, Spain", .taco),
            SeedAnnotation(33.419490, -111.930563, "Arizona State University", "Go Sun Devils", .school),
            SeedAnnotation(35.087537, -106.618184, "University of New Mexico", "Go Lobos", .school),
            SeedAnnotation(40.730838, -73.997498, "New York University", "New York, NY", .school),
            SeedAnnotation(51.753523, -1.253171, "Oxford University", "Oxford, England", .school),
            SeedAnnotation(22.131982, 82.142302, "India Institute of Technology", "Delhi, India", .school),
        ]
    }
}

/// The seed's `iCodeBlogAnnotationView`: a 37x40 frame (kWidth x kHeight) with the marker image in
/// (kBorder, kBorder, kWidth - 2 kBorder, kWidth - 2 kBorder), reused per type.
final class SeedMarkerView: AnnotationView {
    static let width = 37.0
    static let height = 40.0
    static let border = 2.0

    init(kind: SeedAnnotation.Kind, icon: ImageSurface) {
        super.init(
            size: Size(width: Self.width, height: Self.height), isOpaque: false, reuseIdentifier: kind.rawValue)
        image = icon
        reuseContentKey = AnyHashable(kind.rawValue)
    }

    override func draw(in context: GraphicsContext, bounds: Rect) {
        guard let image else { return }
        let side = Self.width - 2 * Self.border
        context.draw(image, in: Rect(x: Self.border, y: Self.border, width: side, height: side))
    }
}

enum SeedIcons {
    static func path(_ kind: SeedAnnotation.Kind) -> String {
        Fixtures.url("annotations/icons/\(kind.iconName).png").path
    }

    /// The committed icon, loaded as a user would.
    static func load(_ kind: SeedAnnotation.Kind) throws -> ImageSurface {
        try AnnotationView.loadImage(path: path(kind))
    }

    /// Draws an icon: a rounded square badge with a white rim and a symbol (an apple, a mortarboard, a
    /// taco), 66x66 pixels = 33x33 points at 2x.
    static func draw(_ kind: SeedAnnotation.Kind) throws -> ImageSurface {
        let surface = try ImageSurface(width: 66, height: 66)
        let c = try GraphicsContext(surface: surface, scale: 2)
        let badge = Path(roundedRect: Rect(x: 1.5, y: 1.5, width: 30, height: 30), cornerRadius: 7)
        let colors: [SeedAnnotation.Kind: Color] = [
            .apple: Color(red8: 52, green8: 168, blue8: 83), .school: Color(red8: 40, green8: 90, blue8: 200),
            .taco: Color(red8: 235, green8: 120, blue8: 20),
        ]
        c.setFillColor(colors[kind]!)
        c.fill(badge)
        c.setStrokeColor(.white)
        c.setLineWidth(2)
        c.stroke(badge)
        c.setFillColor(.white)
        switch kind {
        case .apple:
            // Two overlapping round lobes, a leaf and a bite.
            c.fill(Path(ovalIn: Rect(x: 8, y: 11, width: 10, height: 14)))
            c.fill(Path(ovalIn: Rect(x: 15, y: 11, width: 10, height: 14)))
            var leaf = Path()
            leaf.move(to: Point(x: 16.5, y: 11))
            leaf.addQuadCurve(to: Point(x: 21, y: 5.5), control: Point(x: 16, y: 6))
            leaf.addQuadCurve(to: Point(x: 16.5, y: 11), control: Point(x: 21.5, y: 10))
            c.fill(leaf)
            c.setFillColor(colors[kind]!)
            c.fill(Path(ovalIn: Rect(x: 22, y: 13, width: 6, height: 6)))
        case .school:
            // A mortarboard: a diamond over a cap, with a tassel.
            var board = Path()
            board.move(to: Point(x: 16.5, y: 8))
            board.addLine(to: Point(x: 28, y: 13.5))
            board.addLine(to: Point(x: 16.5, y: 19))
            board.addLine(to: Point(x: 5, y: 13.5))
            board.close()
            c.fill(board)
            c.fill(Path(roundedRect: Rect(x: 10, y: 16, width: 13, height: 8), cornerRadius: 2))
            c.setLineWidth(1.2)
            var tassel = Path()
            tassel.move(to: Point(x: 25, y: 14.5))
            tassel.addLine(to: Point(x: 25, y: 23))
            c.stroke(tassel)
            c.fill(Path(ovalIn: Rect(x: 23.8, y: 22, width: 2.4, height: 3)))
        case .taco:
            // A folded shell (a half disc) with lettuce and tomato.
            c.setFillColor(Color(red8: 120, green8: 200, blue8: 60))
            c.fill(Path(ovalIn: Rect(x: 7, y: 12, width: 19, height: 8)))
            c.setFillColor(Color(red8: 220, green8: 40, blue8: 40))
            c.fill(Path(ovalIn: Rect(x: 11, y: 12, width: 4, height: 4)))
            c.fill(Path(ovalIn: Rect(x: 18, y: 12.5, width: 4, height: 4)))
            var shell = Path()
            shell.move(to: Point(x: 5.5, y: 24))
            shell.addArc(center: Point(x: 16.5, y: 24), radius: 11, startAngle: .pi, endAngle: 2 * .pi, clockwise: true)
            shell.addLine(to: Point(x: 24.5, y: 24))
            shell.addArc(
                center: Point(x: 16.5, y: 24), radius: 8, startAngle: 2 * .pi, endAngle: .pi, clockwise: false)
            shell.close()
            c.setFillColor(Color(red8: 255, green8: 214, blue8: 90))
            c.fill(shell)
            c.setStrokeColor(Color(red8: 150, green8: 90, blue8: 10))
            c.setLineWidth(0.8)
            c.stroke(shell)
        }
        try c.checkStatus("drawing an icon")
        return surface
    }

    /// A view provider giving each seed annotation its marker, as the seed's `viewForAnnotation:`.
    static func provider() throws -> (Annotation) -> AnnotationView? {
        var icons: [SeedAnnotation.Kind: ImageSurface] = [:]
        for kind in SeedAnnotation.Kind.allCases { icons[kind] = try load(kind) }
        return { annotation in
            guard let seed = annotation as? SeedAnnotation else { return nil }
            return SeedMarkerView(kind: seed.kind, icon: icons[seed.kind]!)
        }
    }
}

/// The GeoNames cities fixture as annotations.
enum GeoNamesCities {
    static func load() throws -> [PointAnnotation] {
        let data = try Fixtures.data("annotations/geonames_cities_100k.geojson")
        return try GeoJSON.decodeFeatures(data, source: "geonames_cities_100k.geojson").compactMap { feature in
            guard case .point(let c)? = feature.geometry else { return nil }
            return PointAnnotation(coordinate: c, title: feature.properties["name"]?.string)
        }
    }
}

/// A small deterministic random number generator (SplitMix64) for property tests and benchmarks.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
