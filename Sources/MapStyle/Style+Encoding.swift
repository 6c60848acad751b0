import MapData

extension Style {
    /// The style as JSON: every member as written (source paths as given), in a stable order.
    public var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("version", .number(8))]
        if let name { members.append(("name", .string(name))) }
        if let metadata { members.append(("metadata", metadata)) }
        for key in unused.keys.sorted() { members.append((key, unused[key]!)) }
        members.append(("sources", .object(sources.keys.sorted().map { ($0, sources[$0]!.json) })))
        members.append(("layers", .array(layers.map(\.jsonValue))))
        return .object(members)
    }
}

extension StyleLayer {
    /// The layer as JSON.
    public var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("type", .string(type.rawValue))]
        if let source { members.append(("source", .string(source))) }
        if let sourceLayer { members.append(("source-layer", .string(sourceLayer))) }
        if let minZoom { members.append(("minzoom", .number(minZoom))) }
        if let maxZoom { members.append(("maxzoom", .number(maxZoom))) }
        if let filter { members.append(("filter", filter.json)) }
        for group in [StylePropertySpec.Group.layout, .paint] {
            let names = properties.keys.filter { spec($0)?.group == group }.sorted()
            if !names.isEmpty { members.append((group.rawValue, .object(names.map { ($0, properties[$0]!.json) }))) }
        }
        if let metadata { members.append(("metadata", metadata)) }
        return .object(members)
    }
}
