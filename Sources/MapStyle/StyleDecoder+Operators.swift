import MapData

/// Expressions with operators of MapLibre's set that this version does not evaluate: such a style is valid
/// (MapLibre's validator accepts it), so a lenient read warns and leaves the property (or the layer, for a
/// filter) out instead of refusing the style.
extension StyleDecoder {
    /// The operators of the MapLibre style specification's expression language (and its legacy filters).
    static let mapLibreOperators: Set<String> = [
        "let", "var", "literal", "array", "at", "in", "index-of", "slice", "case", "match", "coalesce", "step",
        "interpolate", "interpolate-hcl", "interpolate-lab", "ln2", "pi", "e", "typeof", "string", "number",
        "boolean", "object", "collator", "format", "image", "number-format", "to-string", "to-number",
        "to-boolean", "to-rgba", "to-color", "rgb", "rgba", "get", "has", "length", "properties", "feature-state",
        "geometry-type", "id", "zoom", "heatmap-density", "line-progress", "accumulated", "+", "-", "*", "/", "%",
        "^", "sqrt", "log10", "ln", "log2", "sin", "cos", "tan", "asin", "acos", "atan", "min", "max", "round",
        "abs", "ceil", "floor", "distance", "==", "!=", ">", "<", ">=", "<=", "all", "any", "!", "within",
        "is-supported-script", "upcase", "downcase", "concat", "resolved-locale", "elevation", "global-state",
        "split", "!in", "none", "!has",
    ]
    /// Operators that take no operand: only `["pi"]` is one, `["pi", "x"]` is data.
    static let constantOperators: Set<String> = [
        "ln2", "pi", "e", "heatmap-density", "accumulated", "properties", "elevation", "line-progress", "zoom",
        "geometry-type", "id",
    ]

    /// The first operator of MapLibre's set this version does not evaluate in `json`, with its path; the
    /// contents of `literal` are data and not looked at.
    static func unsupportedOperator(in json: JSONValue, path: String) -> (name: String, path: String)? {
        guard let items = json.array else { return nil }
        if let op = items.first?.string {
            if op == "literal" { return nil }
            if mapLibreOperators.contains(op), !StyleExpression.supportedOperators.contains(op),
                items.count == 1 || !constantOperators.contains(op)
            {
                return (op, path)
            }
        }
        for (i, item) in items.enumerated() {
            if let found = unsupportedOperator(in: item, path: "\(path)[\(i)]") { return found }
        }
        return nil
    }

    /// Decodes with `decode`; when that fails on an operator of MapLibre's set this version does not
    /// evaluate, a lenient read warns (once per operator) and returns nil (`what` says what is left out).
    func supportedExpression<T>(_ json: JSONValue, path: String, leaving what: String, _ decode: () throws -> T)
        throws -> T?
    {
        do { return try decode() } catch {
            guard !options.strict, let (name, at) = Self.unsupportedOperator(in: json, path: path) else { throw error }
            log.add(
                key: "operator \(name)",
                "\(at): the expression operator \"\(name)\" is not supported by this version; \(what)",
                repeats: "places")
            return nil
        }
    }
}
