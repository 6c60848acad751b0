/// Paths of the fonts Debian's packages install for the shipped styles. Fonts are pinned by file path,
/// never looked up among the host's fonts, so that output does not depend on what else is installed.
///
/// `text-font` stacks no longer resolve through this table: MapGraphics' `FontCatalog` matches them by the
/// names inside the font files (issue #12); this table stays for code that wants a file by path.
public enum StyleFonts {
    /// DejaVu Sans (Debian fonts-dejavu-core).
    public static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// DejaVu Sans Bold (Debian fonts-dejavu-core).
    public static let dejaVuSansBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    /// IPAex Gothic, a Japanese font (Debian fonts-ipaexfont-gothic).
    public static let ipaexGothic = "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"

    /// Font names a style may use in `text-font`, and their files.
    public static let known: [String: String] = [
        "DejaVu Sans": dejaVuSans, "DejaVu Sans Book": dejaVuSans, "DejaVu Sans Bold": dejaVuSansBold,
        "IPAexGothic": ipaexGothic, "IPAex Gothic": ipaexGothic,
    ]

    /// The file for a `text-font` entry: a known name, or an absolute path to a .ttf/.otf file.
    public static func path(for name: String) -> String? {
        if let path = known[name] { return path }
        if name.hasPrefix("/"), name.hasSuffix(".ttf") || name.hasSuffix(".otf") || name.hasSuffix(".ttc") {
            return name
        }
        return nil
    }
}
