/// A kind of point of interest, as a filter names it: MapKit's categories, mapped onto the OpenMapTiles
/// `poi` layer's `class` and `subclass` values (the OpenStreetMap tag values).
///
/// A feature belongs to a category when its `class` is one of ``openMapTilesClasses`` or its `subclass` one
/// of ``openMapTilesSubclasses``; a GeoJSON layer that names the OpenStreetMap keys it reads
/// (`"metadata": {"mapraster:poi-keys": ["tourism", "amenity"]}`) matches their values against both lists.
/// OpenMapTiles classes no category covers (`place_of_worship`, `town_hall`, `information`, ...) are kept by
/// an excluding filter and left out by an including one, as MapKit shows uncategorised places.
/// Mirrors MapKit's `MKPointOfInterestCategory`.
public enum PointOfInterestCategory: String, Sendable, CaseIterable, Comparable {
    case airport, amusementPark, aquarium, atm, bakery, bank, beach, brewery, cafe, campground, carRental
    case castle, evCharger, fireStation, fitnessCenter, foodMarket, gasStation, hospital, hotel, landmark
    case laundry, library, marina, movieTheater, museum, nationalPark, nightlife, park, parking, pharmacy
    case police, postOffice, publicTransport, restaurant, restroom, school, stadium, store, theater
    case university, winery, zoo

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The OpenMapTiles `poi` classes of the category (a class OpenMapTiles shares between categories, such
    /// as `bank` for banks and ATMs, is matched by subclass instead).
    public var openMapTilesClasses: [String] {
        switch self {
        case .airport: ["aerodrome", "airport"]
        case .amusementPark: ["amusement_park"]
        case .aquarium: ["aquarium"]
        case .atm, .bank, .beach, .brewery, .carRental, .evCharger, .fitnessCenter, .library, .nationalPark,
            .winery:
            []
        case .bakery: ["bakery"]
        case .cafe: ["cafe", "ice_cream"]
        case .campground: ["campsite"]
        case .castle: ["castle"]
        case .fireStation: ["fire_station"]
        case .foodMarket: ["grocery", "butcher"]
        case .gasStation: ["fuel"]
        case .hospital: ["hospital"]
        case .hotel: ["lodging"]
        case .landmark: ["attraction", "monument"]
        case .laundry: ["laundry"]
        case .marina: ["harbor"]
        case .movieTheater: ["cinema"]
        case .museum: ["museum"]
        case .nightlife: ["bar", "beer", "nightclub"]
        case .park: ["park"]
        case .parking: ["parking"]
        case .pharmacy: ["pharmacy"]
        case .police: ["police"]
        case .postOffice: ["post"]
        case .publicTransport: ["railway", "bus", "ferry_terminal", "aerialway", "entrance"]
        case .restaurant: ["restaurant", "fast_food"]
        case .restroom: ["toilets"]
        case .school: ["school"]
        case .stadium: ["stadium"]
        case .store: Self.shopClasses
        case .theater: ["theatre"]
        case .university: ["college"]
        case .zoo: ["zoo"]
        }
    }

    /// The OpenMapTiles `poi` subclasses (OpenStreetMap tag values) of the category.
    public var openMapTilesSubclasses: [String] {
        switch self {
        case .airport: ["aerodrome", "airport"]
        case .amusementPark: ["theme_park", "amusement_park"]
        case .aquarium: ["aquarium"]
        case .atm: ["atm"]
        case .bakery: ["bakery"]
        case .bank: ["bank", "bureau_de_change"]
        case .beach: ["beach", "beach_resort"]
        case .brewery: ["brewery"]
        case .cafe: ["cafe", "ice_cream", "coffee"]
        case .campground: ["camp_site", "caravan_site"]
        case .carRental: ["car_rental"]
        case .castle: ["castle", "fort"]
        case .evCharger: ["charging_station"]
        case .fireStation: ["fire_station"]
        case .fitnessCenter: ["fitness_centre", "gym", "sports_centre"]
        case .foodMarket: ["supermarket", "convenience", "greengrocer", "marketplace", "butcher", "deli"]
        case .gasStation: ["fuel"]
        case .hospital: ["hospital", "clinic"]
        case .hotel: ["hotel", "hostel", "guest_house", "motel", "apartment", "chalet"]
        case .landmark: ["attraction", "monument", "memorial", "viewpoint", "artwork"]
        case .laundry: ["laundry", "dry_cleaning"]
        case .library: ["library"]
        case .marina: ["marina"]
        case .movieTheater: ["cinema"]
        case .museum: ["museum", "gallery"]
        case .nationalPark: ["national_park"]
        case .nightlife: ["bar", "pub", "biergarten", "nightclub"]
        case .park: ["park", "garden"]
        case .parking: ["parking", "bicycle_parking", "motorcycle_parking"]
        case .pharmacy: ["pharmacy", "chemist"]
        case .police: ["police"]
        case .postOffice: ["post_office"]
        case .publicTransport:
            ["station", "halt", "tram_stop", "subway_entrance", "bus_station", "bus_stop", "ferry_terminal"]
        case .restaurant: ["restaurant", "fast_food", "food_court"]
        case .restroom: ["toilets"]
        case .school: ["school", "kindergarten"]
        case .stadium: ["stadium"]
        case .store: ["mall", "department_store", "clothes", "shoes", "gift", "jewelry", "books"]
        case .theater: ["theatre"]
        case .university: ["university", "college"]
        case .winery: ["winery"]
        case .zoo: ["zoo"]
        }
    }

    /// The OpenMapTiles shop classes (the streets style draws them with a shop bag).
    static let shopClasses = [
        "shop", "clothing_store", "jewelry", "shoe", "optician", "perfumery", "furniture", "books", "gift",
        "alcohol_shop", "electronics", "mobile_phone", "outdoor", "interior_decoration", "hardware", "kiosk",
        "variety_store", "toys", "cosmetics", "florist", "watches", "bag", "boutique", "second_hand",
    ]
}
