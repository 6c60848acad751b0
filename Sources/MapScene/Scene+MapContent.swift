import MapBaseMap
import MapData

extension SceneDecoder {
    /// Reads the top-level `pointOfInterestFilter` (``PointOfInterestFilter/init(parsing:)``'s text form),
    /// `showsBuildings` and `crossSourceCollisions` (true or false) and `appearance` (`"light"` or `"dark"`).
    func mapContent(_ json: JSONValue, into scene: inout Scene) throws {
        if let value = json["pointOfInterestFilter"] {
            guard let text = value.string else {
                throw invalid(
                    "pointOfInterestFilter",
                    "expected a string such as \"including:restaurant,cafe\" or \"excludingAll\", got \(value.kindName)"
                )
            }
            do { scene.pointOfInterestFilter = try PointOfInterestFilter(parsing: text) } catch {
                throw invalid("pointOfInterestFilter", error.description)
            }
        }
        if let value = json["showsBuildings"] {
            guard let flag = value.bool else { throw invalid("showsBuildings", "must be true or false") }
            scene.showsBuildings = flag
        }
        if let value = json["crossSourceCollisions"] {
            guard let flag = value.bool else { throw invalid("crossSourceCollisions", "must be true or false") }
            scene.crossSourceCollisions = flag
        }
        if let value = json["appearance"] {
            guard let name = value.string, let style = UserInterfaceStyle(rawValue: name) else {
                throw invalid("appearance", "must be \"light\" or \"dark\"")
            }
            scene.userInterfaceStyle = style
        }
    }
}
