import Foundation
import MapRaster

/// A value that a golden case's `values` can hold as a JSON array of numbers: an image point (`[x, y]`), a
/// coordinate (`[latitude, longitude]`) or a color (`[red, green, blue]` in 0...255, or with a fourth member,
/// the alpha in 0...1).
public protocol GoldenCaseValue {
    /// Makes the value from its numbers; `what` names the member in errors.
    ///
    /// - Throws: ``GoldenCaseError`` when the numbers are not the value's.
    init(goldenCaseValue numbers: [Double], what: String) throws
}

extension Point: GoldenCaseValue {
    public init(goldenCaseValue v: [Double], what: String) throws {
        guard v.count == 2 else { throw GoldenCaseError("\(what) must be [x, y]") }
        self.init(x: v[0], y: v[1])
    }
}

extension LocationCoordinate2D: GoldenCaseValue {
    public init(goldenCaseValue v: [Double], what: String) throws {
        guard v.count == 2 else { throw GoldenCaseError("\(what) must be [latitude, longitude]") }
        self.init(latitude: v[0], longitude: v[1])
    }
}

extension Color: GoldenCaseValue {
    public init(goldenCaseValue v: [Double], what: String) throws {
        guard v.count == 3 || v.count == 4 else {
            throw GoldenCaseError("\(what) must be [red, green, blue] or [red, green, blue, alpha]")
        }
        self.init(red8: Int(v[0]), green8: Int(v[1]), blue8: Int(v[2]), alpha: v.count == 4 ? v[3] : 1)
    }
}

extension GoldenCase {
    /// A member of the case's `values`.
    ///
    /// - Throws: when `values` has no such member.
    public func value(_ key: String) throws -> JSONValue {
        guard let found = values[key] else { throw GoldenCaseError("\(name): values has no '\(key)'") }
        return found
    }

    /// A number of the case's `values`.
    public func number(_ key: String) throws -> Double {
        guard let found = try value(key).number else {
            throw GoldenCaseError("\(name): values.\(key) must be a number")
        }
        return found
    }

    /// An array of numbers of the case's `values`.
    public func numbers(_ key: String) throws -> [Double] {
        try Self.numbers(value(key), "\(name): values.\(key)")
    }

    /// A point, coordinate or color of the case's `values`: `golden.value("pin", as: Point.self)`.
    public func value<T: GoldenCaseValue>(_ key: String, as type: T.Type) throws -> T {
        let what = "\(name): values.\(key)"
        return try T(goldenCaseValue: Self.numbers(value(key), what), what: what)
    }

    /// Points, coordinates or colors of the case's `values` (`[[x, y], ...]`).
    public func list<T: GoldenCaseValue>(_ key: String, of type: T.Type) throws -> [T] {
        guard let list = try value(key).array else { throw GoldenCaseError("\(name): values.\(key) must be an array") }
        let what = "\(name): each of values.\(key)"
        return try list.map { try T(goldenCaseValue: Self.numbers($0, what), what: what) }
    }

    /// Points, coordinates or colors by name (`{"name": [x, y], ...}`, in the file's order) of the case's
    /// `values`.
    public func named<T: GoldenCaseValue>(_ key: String, of type: T.Type) throws -> [(name: String, value: T)] {
        guard let members = try value(key).members else {
            throw GoldenCaseError("\(name): values.\(key) must be an object")
        }
        return try members.map { member in
            let what = "\(name): values.\(key).\(member.0)"
            return (member.0, try T(goldenCaseValue: Self.numbers(member.1, what), what: what))
        }
    }

    private static func numbers(_ item: JSONValue, _ what: String) throws -> [Double] {
        guard let list = item.array, let v = Optional(list.compactMap(\.number)), v.count == list.count else {
            throw GoldenCaseError("\(what) must be an array of numbers")
        }
        return v
    }
}
