import MapData

extension ExpressionDecoder {
    /// The operators ``functionExpression(_:_:path:)`` decodes.
    static let functionOperators: Set<String> =
        Set(StyleExpression.Function.allCases.map(\.rawValue))
        .union(["let", "var", "within", "array", "object", "global-state"])

    /// Decodes `let`, `var`, `within`, `array`, `object`, `global-state` and the ``StyleExpression/Function``
    /// operators; nil for any other operator.
    func functionExpression(_ op: String, _ args: [JSONValue], path: String) throws -> StyleExpression? {
        func arg(_ i: Int) throws -> StyleExpression { try value(args[i], path: "\(path)[\(i + 1)]") }
        switch op {
        case "let":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw invalid(path, "\"let\" needs name/value pairs and a body")
            }
            var names: [String] = []
            var values: [StyleExpression] = []
            for i in stride(from: 0, to: args.count - 1, by: 2) {
                guard let name = args[i].string, !name.isEmpty else {
                    throw invalid("\(path)[\(i + 1)]", "a \"let\" name must be a string, got \(args[i].kindName)")
                }
                names.append(name)
                values.append(try arg(i + 1))
            }
            var inner = self
            inner.variables.append(contentsOf: names)
            return .bind(names, values, try inner.value(args[args.count - 1], path: "\(path)[\(args.count)]"))
        case "var":
            guard args.count == 1, let name = args[0].string else {
                throw invalid(path, "\"var\" takes one variable name string")
            }
            guard variables.contains(name) else {
                throw invalid("\(path)[1]", "unknown variable \"\(name)\": no enclosing \"let\" binds it")
            }
            return .variable(name)
        case "within":
            guard args.count == 1 else {
                throw invalid(path, "\"within\" takes one GeoJSON object, got \(args.count) arguments")
            }
            guard let region = WithinRegion(geoJSON: args[0]) else {
                throw invalid(
                    "\(path)[1]",
                    "\"within\" needs a GeoJSON Polygon or MultiPolygon (or a Feature or FeatureCollection of "
                        + "them) with [longitude, latitude] positions")
            }
            return .within(region)
        case "array":
            guard (1...64).contains(args.count) else { throw invalid(path, "\"array\" takes 1...64 arguments") }
            var itemType: String?
            var length: Int?
            var first = 0
            if args.count >= 2 {
                guard let type = args[0].string, ["string", "number", "boolean", "value"].contains(type) else {
                    throw invalid(
                        "\(path)[1]", "the item type must be \"string\", \"number\", \"boolean\" or \"value\"")
                }
                itemType = type
                first = 1
            }
            if args.count >= 3 {
                if args[1] != .null {
                    guard let n = args[1].number, n == n.rounded(), n >= 0, n <= 1_000_000 else {
                        throw invalid("\(path)[2]", "the length must be null or an integer 0...1000000")
                    }
                    length = Int(n)
                }
                first = 2
            }
            return .assertArray(itemType: itemType, length: length, try (first..<args.count).map(arg))
        case "object":
            guard !args.isEmpty, args.count <= 64 else { throw invalid(path, "\"object\" takes 1...64 arguments") }
            return .assert(.object, try args.indices.map(arg))
        case "global-state":
            guard args.count == 1, let name = args[0].string else {
                throw invalid(path, "\"global-state\" takes one property name string")
            }
            // A static render has no runtime state: the style's `state` default.
            return .literal(globalState[name] ?? .null)
        default: break
        }
        guard let function = StyleExpression.Function(rawValue: op) else { return nil }
        if function == .get || function == .has, args.count == 1, let key = args[0].string {
            return function == .get ? .get(key) : .has(key)
        }
        guard function.arity.contains(args.count), args.count <= 1024 else {
            let range = function.arity
            let expected =
                range.upperBound == Int.max
                ? "at least \(range.lowerBound)"
                : range.lowerBound == range.upperBound
                    ? "\(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
            throw invalid(path, "\"\(op)\" takes \(expected) arguments, got \(args.count)")
        }
        return .call(function, try args.indices.map(arg))
    }
}
