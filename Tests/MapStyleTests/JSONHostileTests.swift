import Foundation
import MapData
import Testing

/// Hard cases for the JSON parser: numbers with many digits, at the edges of Double, with leading zeros,
/// deep nesting. Truth: bit patterns printed by Python's float() (correctly rounded, like strtod), with
/// `struct.pack('<d', float(text))`.
@Suite("JSON parser: hostile numbers and structure")
struct JSONHostileTests {
    static let roundingCases: [(String, UInt64)] = [
        ("12345678901234567890", 0x43e56a95319d63e1),
        ("-12345678901234567890", 0xc3e56a95319d63e1),
        ("60.169900000000000001234", 0x404e15bf487fcb92),
        ("24.93841234567890123456", 0x4038f03bca9eda81),
        ("1e308", 0x7fe1ccf385ebc8a0),
        ("1.7976931348623157e308", 0x7fefffffffffffff),
        ("1.7976931348623158e308", 0x7fefffffffffffff),
        ("2.2250738585072011e-308", 0x000fffffffffffff),
        ("4.9406564584124654e-324", 0x0000000000000001),
        ("2.4703282292062327e-324", 0x0000000000000000),
        ("2.4703282292062328e-324", 0x0000000000000001),
        ("1e-400", 0x0000000000000000),
        ("-1e-400", 0x8000000000000000),
        ("123456789012345678901234567890e-10", 0x43e56a95319d63e1),
        ("9007199254740993", 0x4340000000000000),
        ("9007199254740992.5", 0x4340000000000000),
        ("0.1e1", 0x3ff0000000000000),
        ("1E+2", 0x4059000000000000),
        ("-0.0", 0x8000000000000000),
        ("0e5", 0x0000000000000000),
        ("0.000000000000000000000000000001e30", 0x3ff0000000000000),
        ("1234567890123456", 0x43118b54f22aeb00),
        ("12345678901234567", 0x4345ee2a2eb5a5c4),
        ("999999999999999999999", 0x444b1ae4d6e2ef50),
        ("18446744073709551615", 0x43f0000000000000),
        ("18446744073709551616", 0x43f0000000000000),
        ("9223372036854775807", 0x43e0000000000000),
        ("9223372036854775808", 0x43e0000000000000),
        ("-9223372036854775809", 0xc3e0000000000000),
        ("179.99999999999999999", 0x4066800000000000),
        ("1e22", 0x4480f0cf064dd592),
        ("1e23", 0x44b52d02c7e14af6),
        ("8.98846567431158e307", 0x7fe0000000000000),
        ("0.1000000000000000055511151231257827", 0x3fb999999999999a),
        ("1e-99999999999999999999", 0x0000000000000000),
        ("123456789012345.6789", 0x42dc12218377de6b),
        ("1.00000000000000011102230246251565404236316680908203125", 0x3ff0000000000000),
        ("1.00000000000000011102230246251565404236316680908203124", 0x3ff0000000000000),
        // 0.(400 zeros)1 underflows to 0; 1 followed by 300 zeros is 1e300.
        ("0." + String(repeating: "0", count: 400) + "1", 0x0000_0000_0000_0000),
        ("1" + String(repeating: "0", count: 300), 0x7e37_e43c_8800_759c),
    ]

    @Test(
        "numbers of 16 to 400 digits and extreme exponents parse correctly rounded, never trap",
        arguments: 0..<Self.roundingCases.count)
    func correctlyRounded(index: Int) throws {
        let (text, bits) = Self.roundingCases[index]
        let value = try JSONValue.parse(Data(text.utf8))
        #expect(value.number?.bitPattern == bits, "\(text.prefix(60))")
        // Inside an array and an object, as GeoJSON coordinates.
        let nested = try JSONValue.parse(Data("{\"c\": [\(text), \(text)]}".utf8))
        #expect(nested["c"]?.array?.map { $0.number?.bitPattern } == [bits, bits])
    }

    static let refusedCases: [(id: String, text: String, fragment: String, line: Int, column: Int)] = [
        ("leading-zero", "007", "leading zeros", 1, 1),
        ("leading-zero-negative", "-01", "leading zeros", 1, 2),
        ("leading-zero-fraction", "[1, 00.5]", "leading zeros", 1, 5),
        ("leading-zero-line-2", "{\"a\":\n  [0123]}", "leading zeros", 2, 4),
        ("overflow", "1e309", "out of range", 1, 1),
        ("overflow-negative", "[-1e400]", "out of range", 1, 2),
        ("huge-exponent", "1e99999999999999999999", "out of range", 1, 1),
        ("huge-digits", String(repeating: "9", count: 400), "out of range", 1, 1),
        ("plus-sign", "+1", "expected a value", 1, 1),
        ("bare-point", "1.", "after '.'", 1, 3),
        ("leading-point", ".5", "expected a value", 1, 1),
        ("no-exponent", "1e", "expected an exponent", 1, 3),
        ("hex", "0x10", "after the end", 1, 2),
        ("nan", "NaN", "expected a value", 1, 1),
        ("infinity", "-Infinity", "expected a digit", 1, 2),
        ("deep", String(repeating: "[", count: 513) + String(repeating: "]", count: 513), "deeper than 512", 1, 513),
        ("deep-objects", String(repeating: "{\"a\":", count: 600), "deeper than 512", 1, 2561),
    ]

    @Test("malformed numbers and nesting are refused with the line and column", arguments: 0..<Self.refusedCases.count)
    func refused(index: Int) throws {
        let c = Self.refusedCases[index]
        do {
            _ = try JSONValue.parse(Data(c.text.utf8))
            Issue.record("\(c.id): accepted")
        } catch let error as JSONError {
            #expect(error.message.contains(c.fragment), "\(c.id): \(error)")
            #expect((error.line, error.column) == (c.line, c.column), "\(c.id): \(error)")
        }
    }

    @Test("the accepted number grammar of RFC 8259 still parses: 0, -0, 0.5, 0e1, 10, 100e-2")
    func acceptedZeros() throws {
        let value = try JSONValue.parse(Data("[0, -0, 0.5, 0e1, 10, 100e-2, -0.0e+0]".utf8))
        #expect(value.array?.map { $0.number } == [0, -0.0, 0.5, 0, 10, 1, 0])
    }
}
