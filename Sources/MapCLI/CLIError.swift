import MapGeometry

/// A command-line failure with its exit code.
public enum CLIError: MapRasterError, Equatable {
    /// The command line is wrong: exit 64 (EX_USAGE).
    case usage(String)
    /// The input or the environment is wrong: exit 1.
    case failure(String)
    /// `mapraster diff` could not compare (any cause): exit 2, as `cmp` and `diff` do.
    case diff(String)

    /// The process exit code.
    public var exitCode: Int32 {
        switch self {
        case .usage: return 64
        case .failure: return 1
        case .diff: return 2
        }
    }

    public var description: String {
        switch self {
        case .usage(let message), .failure(let message), .diff(let message): return message
        }
    }
}
