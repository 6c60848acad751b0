/// How a symbol's text or icon treats the symbols placed before it: the style's `text-overlap` and
/// `icon-overlap` (or `text-allow-overlap` / `icon-allow-overlap`, `always` when true).
enum SymbolOverlap: String, Sendable {
    /// Hidden where it meets any symbol placed before.
    case never
    /// Shown whatever it meets.
    case always
    /// Hidden only where it meets a symbol placed with `never`; shown over `always` and `cooperative` ones.
    case cooperative
}
