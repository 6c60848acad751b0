/// A small deterministic random number generator (SplitMix64, Steele, Lea and Flood 2014) for property
/// tests: the same seed gives the same sequence on every machine, so a failing case can be replayed.
///
/// ```swift
/// var random = SplitMix64(state: 42)
/// let x = Double.random(in: 0..<1, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed at first.
    public var state: UInt64

    /// A generator seeded with `state`.
    public init(state: UInt64) {
        self.state = state
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
