import MapData
import MapGeometry

extension StyleExpression {
    /// The expression operators this version understands.
    public static let supportedOperators =
        [
            "literal", "get", "has", "!has", "zoom", "geometry-type", "id", "==", "!=", "<", "<=", ">", ">=", "in",
            "!in",
            "all",
            "any", "none", "!", "match", "case", "coalesce", "interpolate", "step", "concat", "to-string", "upcase",
            "downcase", "to-number", "+", "-", "*", "/", "string", "number", "boolean",
            "interpolate-hcl", "interpolate-lab", "line-progress", "format", "number-format", "collator",
            "resolved-locale", "is-supported-script", "image", "to-color",
        ] + ExpressionDecoder.functionOperators.filter { !["in", "get", "has"].contains($0) }.sorted()

    /// Decodes a property value: a JSON literal, an expression array (`["get", "name"]`) or a legacy
    /// zoom function object (`{"base": 1.2, "stops": [[5, 1], [10, 4]]}`).
    ///
    /// - Throws: ``StyleError/invalid(source:path:message:)`` naming `path`.
    public static func decode(_ json: JSONValue, source: String = "expression", path: String) throws
        -> StyleExpression
    {
        try ExpressionDecoder(source: source).value(json, path: path)
    }

    /// Decodes a layer filter: an expression, or a legacy filter (`["==", "class", "river"]`,
    /// `["in", "$type", "Polygon"]`, `["has", "name"]`, `["none", ...]`).
    ///
    /// - Throws: ``StyleError/invalid(source:path:message:)`` naming `path`.
    public static func decodeFilter(_ json: JSONValue, source: String = "filter", path: String) throws
        -> StyleExpression
    {
        try ExpressionDecoder(source: source).filter(json, path: path)
    }
}

struct ExpressionDecoder {
    let source: String
    /// The names the enclosing `let`s bind.
    var variables: [String] = []
    /// The defaults of the style's `state` (for `global-state`).
    var globalState: [String: StyleValue] = [:]

    init(source: String, globalState: [String: StyleValue] = [:]) {
        self.source = source
        self.globalState = globalState
    }

    func invalid(_ path: String, _ message: String) -> StyleError {
        .invalid(source: source, path: path, message: message)
    }

    /// A value position: literal, expression or legacy function.
    func value(_ json: JSONValue, path: String) throws -> StyleExpression {
        switch json {
        case .array(let items):
            if let op = items.first?.string, StyleExpression.supportedOperators.contains(op) {
                return try expression(items, path: path)
            }
            // An operator of MapLibre's set this version does not evaluate, used as one (see
            // `StyleDecoder.supportedExpression`, which turns this into a warning when lenient).
            if let op = items.first?.string, StyleDecoder.mapLibreOperators.contains(op),
                (items.count == 1) == StyleDecoder.constantOperators.contains(op)
            {
                throw invalid(path, "unknown expression operator \"\(op)\"; this version does not evaluate it")
            }
            if let op = items.first?.string, items.count > 1, items.dropFirst().contains(where: { $0.array != nil }) {
                throw invalid(
                    path,
                    "unknown expression operator \"\(op)\"; supported: "
                        + StyleExpression.supportedOperators.joined(separator: ", "))
            }
            return .literal(StyleValue(json))
        case .object:
            return try legacyFunction(json, path: path)
        default:
            return .literal(StyleValue(json))
        }
    }

    /// The array properties the style spec marks `"interpolated": true` (offsets, translations, paddings):
    /// their legacy functions interpolate number arrays as MapLibre does; others (`line-dasharray`) step.
    static let interpolatedArrayProperties: Set<Substring> = [
        "icon-offset", "text-offset", "icon-text-fit-padding", "icon-padding", "fill-translate", "line-translate",
        "circle-translate", "icon-translate", "text-translate",
    ]

    /// Whether `value` is a number array of a property (the last component of `path`) that interpolates.
    static func interpolatesArray(_ value: StyleValue, path: String) -> Bool {
        guard case .array(let items) = value, items.allSatisfy({ $0.number != nil }),
            let name = path.split(separator: ".").last
        else { return false }
        return interpolatedArrayProperties.contains(name)
    }

    /// A legacy function object: a zoom function (`{"stops": [[z, v], ...]}`), a property function
    /// (`"property"` with stops, or `"type": "identity"`) or a zoom-and-property function (stops whose
    /// inputs are `{"zoom": z, "value": v}`), as MapLibre's `convertFunction` reads them.
    func legacyFunction(_ json: JSONValue, path: String) throws -> StyleExpression {
        let members = ["stops", "base", "type", "property", "default", "colorSpace"]
        for (key, _) in json.members ?? [] where !members.contains(key) {
            throw invalid(path + "." + key, "unknown function member; supported: " + members.joined(separator: ", "))
        }
        var space: StyleExpression.ColorSpace?
        if let value = json["colorSpace"] {
            guard let name = value.string, name == "rgb" || StyleExpression.ColorSpace(rawValue: name) != nil else {
                throw invalid(path + ".colorSpace", "must be \"rgb\", \"lab\" or \"hcl\"")
            }
            space = StyleExpression.ColorSpace(rawValue: name)
        }
        func curve(
            _ interpolation: StyleExpression.Interpolation, _ input: StyleExpression, _ stops: [StyleExpression.Stop]
        ) -> StyleExpression {
            space.map { .interpolateIn($0, interpolation, input, stops) } ?? .interpolate(interpolation, input, stops)
        }
        let property = json["property"]?.string
        if json["property"] != nil, property == nil {
            throw invalid(path + ".property", "must be a property name string")
        }
        let fallback = json["default"].map { StyleValue($0) }
        func withDefault(_ e: StyleExpression) -> StyleExpression {
            guard let fallback, property != nil else { return e }
            return .coalesce([e, .literal(fallback)])
        }
        if json["type"]?.string == "identity" {
            guard let property else { throw invalid(path, "an identity function needs a \"property\"") }
            return withDefault(.get(property))
        }
        guard let stopsJSON = json["stops"]?.array, !stopsJSON.isEmpty, stopsJSON.count <= 10_000 else {
            throw invalid(path, "a function object needs a non-empty \"stops\" array of [input, output] pairs")
        }
        let base = json["base"]?.number ?? 1
        guard base > 0, base.isFinite else { throw invalid(path + ".base", "must be a positive number") }
        // Zoom-and-property: group the stops by zoom, one property function per zoom, interpolated over zoom.
        if stopsJSON.first?.array?.first?.members != nil {
            guard property != nil else {
                throw invalid(path, "stops with {\"zoom\", \"value\"} inputs need a \"property\"")
            }
            var zooms: [(Double, [JSONValue])] = []
            for (i, stop) in stopsJSON.enumerated() {
                guard let pair = stop.array, pair.count == 2, let z = pair[0]["zoom"]?.number,
                    let v = pair[0]["value"]
                else {
                    throw invalid("\(path).stops[\(i)]", "each stop must be [{\"zoom\": z, \"value\": v}, output]")
                }
                if let last = zooms.last, last.0 == z {
                    zooms[zooms.count - 1].1.append(.array([v, pair[1]]))
                } else {
                    if let last = zooms.last, z < last.0 {
                        throw invalid("\(path).stops[\(i)]", "stop zooms must be in ascending order")
                    }
                    zooms.append((z, [.array([v, pair[1]])]))
                }
            }
            var inner: [StyleExpression.Stop] = []
            for (z, stops) in zooms {
                var members = (json.members ?? []).filter { $0.0 != "stops" && $0.0 != "default" }
                members.append(("stops", .array(stops)))
                let e = try legacyFunction(.object(members), path: path)
                inner.append(.init(input: z, output: e))
            }
            // MapLibre's convertFunction: the zoom dimension is linear (whatever the function's type and
            // base, which apply to the property dimension) for properties that interpolate, a step
            // otherwise. The property is not known here: outputs that are all numbers or all colors
            // interpolate.
            let outputs = stopsJSON.compactMap { $0.array?.last.map { StyleValue($0) } }
            let interpolatable =
                outputs.allSatisfy { $0.number != nil } || outputs.allSatisfy { $0.number == nil && $0.color != nil }
                || outputs.allSatisfy { Self.interpolatesArray($0, path: path) }
            let overZoom: StyleExpression =
                interpolatable
                ? .interpolate(.linear, .zoom, inner)
                : .step(.zoom, base: inner[0].output, Array(inner.dropFirst()))
            return withDefault(overZoom)
        }
        let input: StyleExpression = property.map { .get($0) } ?? .zoom
        var stops: [StyleExpression.Stop] = []
        var interpolatable = true
        var labels: [(StyleValue, StyleExpression)] = []
        for (i, stop) in stopsJSON.enumerated() {
            guard let pair = stop.array, pair.count == 2,
                pair[0].number != nil || pair[0].string != nil
                    || pair[0].bool != nil
            else {
                throw invalid("\(path).stops[\(i)]", "each stop must be [input number, output value]")
            }
            let out = StyleValue(pair[1])
            labels.append((StyleValue(pair[0]), .literal(out)))
            guard let x = pair[0].number else {
                interpolatable = false
                continue
            }
            if let last = stops.last, x < last.input {
                throw invalid(
                    "\(path).stops[\(i)]", "stop inputs must be in ascending order (\(x) after \(last.input))")
            }
            if out.number == nil && out.color == nil && !Self.interpolatesArray(out, path: path) {
                interpolatable = false
            }
            stops.append(StyleExpression.Stop(input: x, output: .literal(out)))
        }
        let numeric = stops.count == stopsJSON.count
        let type = json["type"]?.string ?? (!numeric ? "categorical" : interpolatable ? "exponential" : "interval")
        switch type {
        case "exponential", "interval":
            guard numeric else {
                throw invalid(path + ".stops", "an \(type) function needs number inputs")
            }
            if type == "exponential" {
                return withDefault(curve(base == 1 ? .linear : .exponential(base), input, stops))
            }
            return withDefault(.step(input, base: stops[0].output, Array(stops.dropFirst())))
        case "categorical":
            return .match(
                input, labels.map { .init(labels: [$0.0], output: $0.1) },
                fallback: fallback.map { .literal($0) } ?? .literal(.null))
        default:
            throw invalid(
                path + ".type",
                "unknown function type \"\(type)\"; supported: exponential, interval, categorical, identity")
        }
    }

    func expression(_ items: [JSONValue], path: String) throws -> StyleExpression {
        let op = items[0].string!
        let args = Array(items.dropFirst())
        func arg(_ i: Int) throws -> StyleExpression { try value(args[i], path: "\(path)[\(i + 1)]") }
        func count(_ valid: ClosedRange<Int>) throws {
            guard valid.contains(args.count) else {
                let expected =
                    valid.lowerBound == valid.upperBound
                    ? "\(valid.lowerBound)" : "\(valid.lowerBound)...\(valid.upperBound)"
                throw invalid(path, "\"\(op)\" takes \(expected) arguments, got \(args.count)")
            }
        }
        func stringArg(_ i: Int) throws -> String {
            guard let s = args[i].string else {
                throw invalid("\(path)[\(i + 1)]", "\"\(op)\" needs a property name string, got \(args[i].kindName)")
            }
            return s
        }
        switch op {
        case "literal":
            try count(1...1)
            return .literal(StyleValue(args[0]))
        case "get", "has":
            guard let decoded = try functionExpression(op, args, path: path) else {
                throw invalid(path, "unknown expression operator \"\(op)\"")
            }
            return decoded
        case "!has":
            try count(1...1)
            return .not(.has(try stringArg(0)))
        case "zoom":
            try count(0...0)
            return .zoom
        case "geometry-type":
            try count(0...0)
            return .geometryType
        case "id":
            try count(0...0)
            return .featureID
        case "line-progress":
            try count(0...0)
            return .lineProgress
        case "==", "!=", "<", "<=", ">", ">=":
            try count(2...3)
            let comparison = StyleExpression.ComparisonOperator(rawValue: op)!
            if args.count == 3 { return .compareCollated(comparison, try arg(0), try arg(1), collator: try arg(2)) }
            return .compare(comparison, try arg(0), try arg(1))
        case "format":
            return try format(args, path: path)
        case "number-format":
            try count(2...2)
            let options = try self.options(
                args[1], path: "\(path)[2]",
                allowed: ["locale", "currency", "min-fraction-digits", "max-fraction-digits"])
            return .numberFormat(
                try arg(0),
                StyleExpression.NumberFormatOptions(
                    locale: options["locale"], currency: options["currency"],
                    minFractionDigits: options["min-fraction-digits"], maxFractionDigits: options["max-fraction-digits"]
                ))
        case "collator":
            try count(1...1)
            let options = try self.options(
                args[0], path: "\(path)[1]", allowed: ["case-sensitive", "diacritic-sensitive", "locale"])
            return .collator(
                caseSensitive: options["case-sensitive"] ?? .literal(.bool(false)),
                diacriticSensitive: options["diacritic-sensitive"] ?? .literal(.bool(false)), locale: options["locale"])
        case "resolved-locale":
            try count(1...1)
            return .resolvedLocale(try arg(0))
        case "is-supported-script":
            try count(1...1)
            return .isSupportedScript(try arg(0))
        case "image":
            try count(1...1)
            return .image(try arg(0))
        case "in", "!in":
            guard args.count >= 2 else { throw invalid(path, "\"\(op)\" needs a value and a list") }
            let needle = try arg(0)
            let list: [StyleValue]
            if args.count == 2, let haystack = args[1].array {
                if haystack.first?.string == "literal", haystack.count == 2, let inner = haystack[1].array {
                    list = inner.map(StyleValue.init)
                } else if op == "in", let first = haystack.first?.string,
                    StyleExpression.supportedOperators.contains(first)
                {
                    // The expression form: a haystack computed per feature (an array or a string).
                    return .call(.contains, [needle, try arg(1)])
                } else {
                    list = haystack.map(StyleValue.init)
                }
            } else if op == "in", args.count == 2 {
                // `["in", needle, "a string"]`: a substring test.
                return .call(.contains, [needle, try arg(1)])
            } else {
                list = args.dropFirst().map(StyleValue.init)
            }
            return .isIn(needle, list, negated: op == "!in")
        case "all", "any", "none":
            let list = try args.indices.map { try filter(args[$0], path: "\(path)[\($0 + 1)]") }
            return op == "all" ? .all(list) : op == "any" ? .any(list) : .not(.any(list))
        case "!":
            try count(1...1)
            return .not(try filter(args[0], path: "\(path)[1]"))
        case "match":
            guard args.count >= 4, args.count % 2 == 0 else {
                throw invalid(path, "\"match\" needs an input, label/output pairs and a fallback")
            }
            let input = try arg(0)
            var branches: [StyleExpression.MatchBranch] = []
            var i = 1
            while i + 1 < args.count {
                let labels = args[i].array.map { $0.map(StyleValue.init) } ?? [StyleValue(args[i])]
                branches.append(.init(labels: labels, output: try arg(i + 1)))
                i += 2
            }
            return .match(input, branches, fallback: try arg(args.count - 1))
        case "case":
            guard args.count >= 3, args.count % 2 == 1 else {
                throw invalid(path, "\"case\" needs condition/output pairs and a fallback")
            }
            var branches: [StyleExpression.CaseBranch] = []
            var i = 0
            while i + 1 < args.count {
                branches.append(
                    .init(condition: try filter(args[i], path: "\(path)[\(i + 1)]"), output: try arg(i + 1)))
                i += 2
            }
            return .cond(branches, fallback: try arg(args.count - 1))
        case "coalesce":
            return .coalesce(try args.indices.map(arg))
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            guard args.count >= 4, args.count % 2 == 0, let kind = args[0].array, let name = kind.first?.string else {
                throw invalid(
                    path,
                    "\"interpolate\" needs [\"linear\"], [\"exponential\", base] or [\"cubic-bezier\", x1, y1, x2, y2], "
                        + "an input and stops")
            }
            let interpolation: StyleExpression.Interpolation
            switch name {
            case "linear": interpolation = .linear
            case "exponential":
                guard kind.count == 2, let base = kind[1].number, base > 0 else {
                    throw invalid("\(path)[1]", "[\"exponential\", base] needs a positive base")
                }
                interpolation = .exponential(base)
            case "cubic-bezier":
                let points = kind.dropFirst().compactMap(\.number)
                guard kind.count == 5, points.count == 4, points.allSatisfy({ (0...1).contains($0) }) else {
                    throw invalid(
                        "\(path)[1]", "[\"cubic-bezier\", x1, y1, x2, y2] needs four numbers between 0 and 1")
                }
                interpolation = .cubicBezier(UnitBezier(x1: points[0], y1: points[1], x2: points[2], y2: points[3]))
            default:
                throw invalid(
                    "\(path)[1]", "unknown interpolation \"\(name)\"; supported: linear, exponential, cubic-bezier")
            }
            let input = try arg(1)
            let stops = try stops(args, from: 2, path: path)
            switch op {
            case "interpolate-hcl": return .interpolateIn(.hcl, interpolation, input, stops)
            case "interpolate-lab": return .interpolateIn(.lab, interpolation, input, stops)
            default: return .interpolate(interpolation, input, stops)
            }
        case "step":
            guard args.count >= 2, args.count % 2 == 0 else {
                throw invalid(path, "\"step\" needs an input, a base output and stop/output pairs")
            }
            return .step(try arg(0), base: try arg(1), try stops(args, from: 2, path: path))
        case "concat":
            return .concat(try args.indices.map(arg))
        case "to-string", "upcase", "downcase":
            try count(1...1)
            return .text(StyleExpression.TextFunction(rawValue: op)!, try arg(0))
        case "to-number":
            try count(1...1)
            return .toNumber(try arg(0))
        case "string", "number", "boolean", "to-color":
            guard !args.isEmpty, args.count <= 64 else { throw invalid(path, "\"\(op)\" takes 1...64 arguments") }
            return .assert(StyleExpression.TypeAssertion(rawValue: op)!, try args.indices.map(arg))
        case _ where Self.functionOperators.contains(op):
            guard let decoded = try functionExpression(op, args, path: path) else {
                throw invalid(path, "unknown expression operator \"\(op)\"")
            }
            return decoded
        default:  // + - * /
            guard !args.isEmpty else { throw invalid(path, "\"\(op)\" needs operands") }
            return .arithmetic(StyleExpression.ArithmeticOperator(rawValue: op)!, try args.indices.map(arg))
        }
    }

    /// An options object of `number-format`, `collator` or a `format` section: each member an expression.
    func options(_ json: JSONValue, path: String, allowed: [String]) throws -> [String: StyleExpression] {
        guard let members = json.members else {
            throw invalid(path, "must be an options object with members " + allowed.joined(separator: ", "))
        }
        var result: [String: StyleExpression] = [:]
        for (key, value) in members {
            guard allowed.contains(key) else {
                throw invalid("\(path).\(key)", "unknown option; supported: " + allowed.joined(separator: ", "))
            }
            result[key] = try self.value(value, path: "\(path).\(key)")
        }
        return result
    }

    /// `["format", input, options?, input, options?, ...]`: literal section options are checked here
    /// (`font-scale` a number, `text-font` an array of strings, `text-color` a color); an `["image", name]`
    /// section is an inline image (its options as a text section's; `font-scale` scales the image).
    func format(_ args: [JSONValue], path: String) throws -> StyleExpression {
        guard !args.isEmpty, args.count <= 1024 else { throw invalid(path, "\"format\" needs 1...1024 sections") }
        var sections: [StyleExpression.FormatSection] = []
        var i = 0
        while i < args.count {
            let sectionPath = "\(path)[\(i + 1)]"
            if args[i].members != nil {
                throw invalid(sectionPath, "a format section must start with its text, got an options object")
            }
            var section = StyleExpression.FormatSection(content: try value(args[i], path: sectionPath))
            if case .literal(let v) = section.content {
                switch v {
                case .string, .number, .null: break
                default:
                    throw invalid(sectionPath, "a format section's text must be a string, got \(describe(v))")
                }
            }
            i += 1
            if i < args.count, args[i].members != nil {
                let optionsPath = "\(path)[\(i + 1)]"
                let options = try self.options(
                    args[i], path: optionsPath, allowed: ["font-scale", "text-font", "text-color"])
                if case .literal(let v)? = options["font-scale"], v.number == nil || !(v.number ?? -1 >= 0) {
                    throw invalid("\(optionsPath).font-scale", "must be a number >= 0, got \(describe(v))")
                }
                if case .literal(let v)? = options["text-font"],
                    v.array.map({ !$0.isEmpty && $0.allSatisfy { $0.string != nil } }) != true
                {
                    throw invalid("\(optionsPath).text-font", "must be an array of font names, got \(describe(v))")
                }
                if case .literal(let v)? = options["text-color"] {
                    guard let s = v.string, let color = try? Color(parsing: s) else {
                        throw invalid("\(optionsPath).text-color", "must be a color, got \(describe(v))")
                    }
                    section.color = .literal(.color(color))
                } else {
                    section.color = options["text-color"]
                }
                section.scale = options["font-scale"]
                section.font = options["text-font"]
                i += 1
            }
            sections.append(section)
        }
        return .format(sections)
    }

    func describe(_ v: StyleValue) -> String {
        switch v {
        case .string(let s): return "\"\(s)\""
        case .number(let n): return "\(n)"
        case .bool(let b): return "\(b)"
        case .null: return "null"
        case .color: return "a color"
        case .array: return "an array"
        case .formatted: return "formatted text"
        case .collator: return "a collator"
        case .object: return "an object"
        }
    }

    func stops(_ args: [JSONValue], from start: Int, path: String) throws -> [StyleExpression.Stop] {
        var stops: [StyleExpression.Stop] = []
        var i = start
        while i + 1 < args.count {
            guard let x = args[i].number else {
                throw invalid("\(path)[\(i + 1)]", "stop input must be a number, got \(args[i].kindName)")
            }
            if let last = stops.last, x <= last.input {
                throw invalid("\(path)[\(i + 1)]", "stop inputs must be strictly ascending (\(x) after \(last.input))")
            }
            stops.append(.init(input: x, output: try value(args[i + 1], path: "\(path)[\(i + 2)]")))
            i += 2
        }
        return stops
    }

    /// A filter position: legacy filters are recognised by a property name string where an expression
    /// form would have an expression.
    func filter(_ json: JSONValue, path: String) throws -> StyleExpression {
        if let b = json.bool { return .literal(.bool(b)) }
        guard let items = json.array, let op = items.first?.string else {
            throw invalid(
                path, "a filter must be an expression array such as [\"==\", [\"get\", \"class\"], \"river\"]")
        }
        let args = Array(items.dropFirst())
        func key(_ name: String) -> StyleExpression {
            name == "$type" ? .geometryType : name == "$id" ? .featureID : .get(name)
        }
        switch op {
        case "==", "!=", "<", "<=", ">", ">=":
            if args.count == 2, let name = args[0].string {
                return .compare(
                    StyleExpression.ComparisonOperator(rawValue: op)!, key(name), .literal(StyleValue(args[1])))
            }
        case "in", "!in":
            if let name = args.first?.string, !(args.count == 2 && args[1].array != nil) {
                return .isIn(key(name), args.dropFirst().map(StyleValue.init), negated: op == "!in")
            }
        case "has", "!has":
            if args.count == 1, args[0].string == "$id" {
                let has = StyleExpression.compare(.notEqual, .featureID, .literal(.null))
                return op == "has" ? has : .not(has)
            }
        default:
            guard StyleExpression.supportedOperators.contains(op) else {
                throw invalid(
                    path,
                    "unknown filter operator \"\(op)\"; supported: "
                        + StyleExpression.supportedOperators.joined(separator: ", "))
            }
        }
        return try expression(items, path: path)
    }
}
