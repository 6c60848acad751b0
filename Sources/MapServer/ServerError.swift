import Foundation

/// Why the server cannot start or its configuration is refused; each message says what to change.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    /// The listening address or port cannot be used.
    case cannotListen(String)
    /// The configuration (flags or config file) is invalid: which part, and why.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .cannotListen(let reason): return reason
        case .invalidConfiguration(let reason): return "invalid server configuration: \(reason)"
        }
    }
}
