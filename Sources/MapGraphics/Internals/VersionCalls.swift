internal import CPNG
internal import CPixman
import Foundation

// Version strings of libraries that Cairo renders and encodes with; nothing else of them is called.
enum LinkedLibraryVersions {
    static var pixman: String { String(cString: pixman_version_string()) }
    static var libpng: String { String(cString: png_get_libpng_ver(nil)) }
}
