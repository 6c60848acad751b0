import MapData

/// A property's value as written in the style (kept for writing the style back) and as decoded.
public struct StyleProperty: Sendable, Equatable {
    /// The JSON as written.
    public var json: JSONValue
    /// The decoded expression.
    public var expression: StyleExpression

    /// Creates a property value.
    public init(json: JSONValue, expression: StyleExpression) {
        self.json = json
        self.expression = expression
    }

    public static func == (a: StyleProperty, b: StyleProperty) -> Bool { a.json == b.json }
}
