import MapRaster

extension MapServer {
    /// The base map of a static map with the snapshot options' query parameters applied: `appearance=dark`
    /// (a shipped light style's dark variant when it is served: `standard` draws `standard-dark`; other
    /// styles are drawn as they are), `poi=FILTER` (``PointOfInterestFilter/init(parsing:)``'s text form) and
    /// `buildings=false`. Nil base map in, nil out; a bad parameter is a `400` naming it.
    func withMapContent(
        _ baseMap: StyledBaseMap?, styleID: String?, request: HTTPRequest
    ) -> (StyledBaseMap?, HTTPResponse?) {
        var chosen = baseMap
        if let text = request.parameter("appearance") {
            guard let appearance = UserInterfaceStyle(rawValue: text) else {
                return (nil, .error(400, "appearance must be light or dark", parameter: "appearance"))
            }
            if let id = styleID, let variant = ShippedStyle(rawValue: id)?.variant(for: appearance),
                let entry = configuration.styles.first(where: { $0.id == variant.rawValue })
            {
                chosen = entry.baseMap
            }
        }
        var filter: PointOfInterestFilter?
        if let text = request.parameter("poi") {
            do { filter = try PointOfInterestFilter(parsing: text) } catch {
                return (nil, .error(400, error.description, parameter: "poi"))
            }
        }
        var showsBuildings = true
        if let text = request.parameter("buildings") {
            guard let flag = ["true": true, "1": true, "false": false, "0": false][text] else {
                return (nil, .error(400, "buildings must be true or false", parameter: "buildings"))
            }
            showsBuildings = flag
        }
        guard let map = chosen, (filter ?? .includingAll) != .includingAll || !showsBuildings else {
            return (chosen, nil)
        }
        do {
            return (
                try StyledBaseMap(
                    style: map.style.applying(pointOfInterestFilter: filter, showsBuildings: showsBuildings),
                    fonts: map.fonts, glyphs: map.glyphs), nil
            )
        } catch { return (nil, .error(500, "\(error)", parameter: nil)) }
    }
}
