import Foundation
import MapRaster

/// The JSON parser: any bytes either parse or throw `JSONError`; what parses serializes and parses again
/// to the same value.
func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    guard let value = try? JSONValue.parse(data) else { return 0 }
    let again = try? JSONValue.parse(Data(value.serialized().utf8))
    precondition(again == value || !isSelfEqual(value), "serialize/parse round trip changed the value")
    return 0
}

/// NaN never appears (the parser refuses non-finite numbers), so every value equals itself.
func isSelfEqual(_ value: JSONValue) -> Bool { value == value }
