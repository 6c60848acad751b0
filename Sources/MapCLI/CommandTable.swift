import MapGeometry

/// The option table of every subcommand: the parser, the help, the completion scripts and the man page are
/// all made from these.
enum CommandTable {
    static let formats = ["png", "png8", "jpg", "webp"]
    static let mapTypes = ["standard", "satellite", "hybrid"]

    static let glyphsOption = OptionSpec(
        "--glyphs", nil, .text("TEMPLATE"),
        "glyph PBFs to draw labels from, as MapLibre does: a path with {fontstack}\n"
            + "and {range}, e.g. fonts/{fontstack}/{range}.pbf (default: the style's\n"
            + "glyphs when local)")
    static let spriteOption = OptionSpec(
        "--sprite", nil, .text("[ID=]PATH"),
        "the style's sprite from local files PATH.json, PATH.png, PATH@2x.json and\n"
            + "PATH@2x.png instead (ID=: a sprite of the array form)", repeatable: true)
    static let strictOption = OptionSpec(
        "--strict", nil, .none,
        "refuse a style with members, layer types or properties this version does not\n"
            + "support, or network sources (by default each is a warning and is left out)")

    static let render = CommandSpec(
        path: ["render"], summary: "render one map to PNG, JPEG or WebP",
        usage: ["render [options]", "[options]   (render is the default command)"],
        options: [
            OptionSpec(
                "--center", nil, .text("LAT,LON"),
                "center of the map, degrees, or a place name (with --span, --meters or --zoom)"),
            OptionSpec(
                "--span", nil, .text("DLAT,DLON"),
                "region size in degrees (latitudeDelta in (0,180], longitudeDelta in (0,360]),\neach at least 0.000001"),
            OptionSpec(
                "--meters", nil, .text("M"), "square region M meters on a side around --center (at least 0.000001)"),
            OptionSpec(
                "--zoom", nil, .text("Z"),
                "zoom level \(MapViewport.zoomRangeText) (fractional allowed) around --center"),
            OptionSpec(
                "--bbox", nil, .text("W,S,E,N"), "show a longitude/latitude box (W > E crosses the 180th meridian)"),
            OptionSpec(
                "--heading", "--bearing", .text("DEG"),
                "the direction the view faces, degrees clockwise from north (the map turns\n"
                    + "the other way; default: the scene's, else the style's root bearing, else 0)"),
            OptionSpec(
                "--pitch", nil, .text("DEG"),
                "tilt of the view from straight down, degrees in \(MapCamera.pitchRangeText) (default: the\n"
                    + "scene's, else the style's root pitch, else 0)"),
            OptionSpec("--size", nil, .text("WxH"), "image size in points (default 512x512)"),
            OptionSpec(
                "--scale", nil, .text("N"),
                "device pixels per point: \(MapViewport.validScalesText) (default 1)"),
            OptionSpec(
                "--map-type", nil, .choice("TYPE", mapTypes),
                "base map: standard, satellite or hybrid (the shipped styles)"),
            OptionSpec(
                "--style", nil, .file("FILE"),
                "base map from a style file (MapLibre style subset; see styles/README.md)"),
            OptionSpec(
                "--poi", nil, .text("FILTER"),
                "points of interest drawn: includingAll (default), excludingAll,\n"
                    + "including:CATEGORY,... or excluding:CATEGORY,... with MapKit's categories\n"
                    + "(restaurant, cafe, museum, park, hospital, school, hotel, publicTransport...)"),
            OptionSpec(
                "--no-buildings", nil, .none, "draw no buildings (flat or extruded; MapKit's showsBuildings = false)"),
            OptionSpec(
                "--no-cross-source-collisions", nil, .none,
                "labels of different style sources may overlap (MapLibre's\ncrossSourceCollisions = false)"),
            OptionSpec(
                "--appearance", nil, .choice("STYLE", ["light", "dark"]),
                "light (default) or dark: the dark variant of the standard and streets styles"),
            OptionSpec(
                "--scene", nil, .file("FILE"),
                "JSON scene: area, size and GeoJSON features (pins, lines, polygons, circles);\n"
                    + "'-' reads it from standard input"),
            OptionSpec(
                "--marker", nil, .text("SPEC"),
                "markers: Google's 'color:blue|size:mid|label:S|LAT,LNG|...' or\n"
                    + "tileserver-gl's 'LNG,LAT|icon.png|scale:F|offset:X,Y'", repeatable: true),
            OptionSpec(
                "--path", nil, .text("SPEC"),
                "a line or filled area: Google's\n"
                    + "'color:0xRRGGBBAA|weight:5|fillcolor:C|geodesic:true|LAT,LNG|LAT,LNG...'\n"
                    + "or '...|enc:POLYLINE', or\n"
                    + "tileserver-gl's 'stroke:C|width:N|fill:C|LNG,LAT|LNG,LAT...'", repeatable: true),
            OptionSpec(
                "--visible", nil, .text("LAT,LON"), "a point that must be in the image", repeatable: true),
            OptionSpec(
                "--padding", nil, .text("PX"),
                "with no area the map fits everything it draws, PX points from the edges\n(default 16)"),
            OptionSpec(
                "--source", nil, .text("NAME=PATH"),
                "read the style's source NAME from PATH (.mbtiles, .pmtiles, a {z}/{x}/{y}\n"
                    + "template, TileJSON or GeoJSON) instead, also of a network URL", repeatable: true),
            spriteOption, strictOption,
            OptionSpec(
                "--fonts", nil, .file("DIR"),
                "font files (.ttf, .otf, .ttc) that text-font stacks name, searched before\n"
                    + "Debian's font packages (for stacks the glyph PBFs do not have)"),
            glyphsOption,
            OptionSpec("--no-attribution", nil, .none, "leave out the data attribution in the bottom-right corner"),
            OptionSpec(
                "--no-base-map", nil, .none,
                "draw no base map: only the scene's shapes and annotations, on transparency"),
            OptionSpec(
                "--output", "-o", .file("FILE"),
                "image to write (default mapraster.png); '-' writes it to standard output;\n"
                    + "its extension (.png, .jpg, .jpeg, .webp) chooses the format"),
            OptionSpec(
                "--format", nil, .choice("FORMAT", formats),
                "png, png8 (palette), jpg or webp (default: from the extension, else png);\n"
                    + "an extension that names another format is an error"),
            OptionSpec(
                "--quality", nil, .text("Q"),
                "JPEG and WebP quality 1...100 (default 90); JPEG has no transparency:\n"
                    + "transparent pixels come out white"),
            OptionSpec(
                "--compression", nil, .text("L"),
                "PNG zlib level 0...9 (default 6; 1 is MapLibre Native's effort: faster,\n"
                    + "larger files); the pixels are the same at every level"),
            OptionSpec(
                "--metadata", nil, .file("FILE"),
                "also write JSON: size, scale, region, visibleMapRect, zoomLevel, camera, annotations\n"
                    + "(frame, state visible/hidden/clustered, cluster id, callout) and clusters"),
        ],
        footer: "Options on the command line override the scene file. Exit codes: 0 success, 1 failure, 64 usage error."
    )

    static let tiles = CommandSpec(
        path: ["tiles"], summary: "render an XYZ tile pyramid to a folder or an MBTiles file",
        usage: ["tiles -o OUTPUT [options]"],
        options: [
            OptionSpec(
                "--output", "-o", .file("OUT"),
                "a folder (z/x/y.png, with metadata.json and tiles.json) or a file ending in\n"
                    + ".mbtiles (MBTiles 1.3)"),
            OptionSpec("--bbox", nil, .text("W,S,E,N"), "area (default: the whole world)"),
            OptionSpec("--center", nil, .text("LAT,LON"), "with --span: the area as a region"),
            OptionSpec("--span", nil, .text("DLAT,DLON"), "with --center: the region's size in degrees"),
            OptionSpec("--zoom", nil, .text("MIN-MAX"), "zoom levels, such as 0-5 or 7 (default 0-5)"),
            OptionSpec(
                "--format", nil, .choice("FORMAT", formats),
                "png (32-bit), png8 (palette), jpg or webp (default png); folder tiles get\n"
                    + "that extension, MBTiles its format metadata"),
            OptionSpec("--quality", nil, .text("Q"), "JPEG and WebP quality 1...100 (default 90)"),
            OptionSpec(
                "--tile-size", nil, .choice("N", ["256", "512"]),
                "tile side in points: 256 or 512 (512 draws one zoom level deeper; default 256)"),
            OptionSpec(
                "--scale", nil, .choice("N", ["1", "2"]), "device pixels per point; 2 writes @2x tiles (default 1)"),
            OptionSpec("--metatile", nil, .text("N"), "tiles per metatile side (default 8)"),
            OptionSpec(
                "--compression", nil, .text("L"),
                "PNG zlib level 0...9 (default 6; the pixels are the same at every level)"),
            OptionSpec(
                "--threads", nil, .text("N"), "rendering threads (default: one per core); output does not depend on it"),
            OptionSpec("--tms", nil, .none, "folder rows counted from the south (MBTiles rows always are)"),
            OptionSpec("--shard", nil, .text("I/N"), "render the I-th of N deterministic parts of the metatiles"),
            OptionSpec("--scene", nil, .file("FILE"), "draw a scene's annotations and overlays into the tiles"),
            OptionSpec(
                "--style", nil, .file("FILE"), "the base map's style (MapLibre style subset; see styles/README.md)"),
            OptionSpec(
                "--map-type", nil, .choice("TYPE", mapTypes), "standard, satellite or hybrid (default standard)"),
            OptionSpec(
                "--source", nil, .text("NAME=PATH"),
                "read the style's source NAME from PATH (.mbtiles, .pmtiles, a {z}/{x}/{y}\n"
                    + "template, TileJSON or GeoJSON) instead, also of a network URL", repeatable: true),
            spriteOption, strictOption,
            OptionSpec(
                "--fonts", nil, .file("DIR"),
                "font files (.ttf, .otf, .ttc) that text-font stacks name, searched before\n"
                    + "Debian's font packages (for stacks the glyph PBFs do not have)"),
            glyphsOption,
            OptionSpec("--resume", nil, .none, "finish an interrupted run: render only missing tiles"),
            OptionSpec(
                "--force", nil, .none,
                "replace an existing output: an MBTiles file is replaced only when the run\n"
                    + "succeeds; in a folder only the tiles this run writes are overwritten\n"
                    + "(nothing is deleted, and a folder is never removed)"),
            OptionSpec(
                "--yes", nil, .none,
                "allow a run of more than 100000 tiles (without it such a run is refused\n"
                    + "with its tile count and an estimated time)"),
            OptionSpec("--name", nil, .text("TEXT"), "the tileset's name in the metadata"),
            OptionSpec("--description", nil, .text("TEXT"), "the tileset's description in the metadata"),
            OptionSpec("--quiet", nil, .none, "no progress and no summary"),
        ],
        footer: "Exit codes: 0 success, 1 failure, 64 usage error.")

    static let diff = CommandSpec(
        path: ["diff"], summary: "compare two PNG files, or two folders of PNGs, with pixelmatch's algorithm",
        usage: ["diff EXPECTED.png ACTUAL.png [options]", "diff EXPECTED_DIR ACTUAL_DIR [options]"],
        options: [
            OptionSpec("--threshold", nil, .text("T"), "per-pixel color sensitivity 0...1 (YIQ distance; default 0.1)"),
            OptionSpec(
                "--include-aa", nil, .none, "count anti-aliased pixels too (by default they are detected and skipped)"),
            OptionSpec(
                "--alpha", nil, .text("A"), "opacity of the expected image in the diff image's background (default 0.1)"
            ),
            OptionSpec("--aa-color", nil, .text("C"), "diff-image color of anti-aliased pixels (default ffff00)"),
            OptionSpec("--diff-color", nil, .text("C"), "diff-image color of differing pixels (default ff0000)"),
            OptionSpec(
                "--diff-color-alt", nil, .text("C"), "diff-image color of differing pixels that got darker in ACTUAL"),
            OptionSpec("--diff-mask", nil, .none, "draw only the differences, on a transparent background"),
            OptionSpec("--output", "-o", .file("DIFF.png"), "write the diff image"),
            OptionSpec("--max-diff-pixels", nil, .text("N"), "pass with at most N differing pixels"),
            OptionSpec(
                "--max-diff-ratio", nil, .text("R"),
                "pass with at most the fraction R of pixels differing (0.001 = 0.1 %)"),
            OptionSpec(
                "--ignore", nil, .text("X,Y,W,H"),
                "leave a rectangle (pixels) out of the comparison; each value\nwithin -2^30...2^30; or "
                    + "attribution,annotations,labels (with\n--mask-metadata)",
                repeatable: true),
            OptionSpec(
                "--mask-metadata", nil, .file("FILE.json"),
                "the metadata `render --metadata` wrote: --ignore's parts are\nleft out where it drew them "
                    + "(give EXPECTED's and ACTUAL's)", repeatable: true),
            OptionSpec("--threads", nil, .text("N"), "threads (default: one per core); counts do not depend on it"),
            OptionSpec("--report", nil, .file("DIR"), "folders: write an HTML report (index.html and images) to DIR"),
            OptionSpec("--junit", nil, .file("FILE"), "folders: write JUnit XML, one test case per image"),
            OptionSpec(
                "--thresholds", nil, .file("FILE"),
                "folders: per-image tolerances (default: EXPECTED_DIR/thresholds.json)"),
            OptionSpec(
                "--mask", nil, .file("MASK.png"),
                "leave out the pixels that are light (and not transparent) in MASK.png"),
            OptionSpec("--json", nil, .none, "print the counts as JSON"),
        ],
        footer: """
            Images may have at most 67108864 pixels (8192x8192); larger ones are refused before decoding.
            Without --max-diff-pixels or --max-diff-ratio any differing pixel fails.
            Folders: PNGs are matched by relative path; new, missing and unreadable images fail.
            Exit codes: 0 within the allowed difference, 1 not within, 2 error (unreadable file, different sizes,
            bad option).
            """, positionalFiles: true)

    static let mbtiles = CommandSpec(
        path: ["mbtiles"], summary: "work with MBTiles files", usage: ["mbtiles merge OUT.mbtiles IN.mbtiles..."],
        arguments: [("merge", "combine MBTiles shards into one file (mapraster mbtiles merge --help)")], options: [])

    static let mbtilesMerge = CommandSpec(
        path: ["mbtiles", "merge"], summary: "combine MBTiles shards (from tiles --shard) into one file",
        usage: ["mbtiles merge [--force] OUT.mbtiles IN.mbtiles..."],
        arguments: [("OUT.mbtiles", "the file to write"), ("IN.mbtiles...", "the shards, at least one")],
        options: [OptionSpec("--force", nil, .none, "replace an existing OUT.mbtiles")],
        footer: "A tile in several inputs must have the same image. Exit codes: 0 success, 1 failure, 64 usage error.",
        positionalFiles: true)

    static let geocode = CommandSpec(
        path: ["geocode"], summary: "placemark of a point, places for a name, placemarks for a whole file",
        usage: [
            "geocode --reverse LAT,LON [--json] [--language en|ja]",
            "geocode \"NAME[, STATE][, COUNTRY]\" [--near LAT,LON] [--limit N] [--json] [--language en|ja]",
            "geocode --input FILE [-o OUT] [--json] [--language en|ja]",
        ],
        arguments: [("NAME", "print the matching places, best first (cities of 1,000+ people, states, countries)")],
        options: [
            OptionSpec(
                "--reverse", nil, .text("LAT,LON"),
                "print the placemark of a point (country, state, county, city; street and\n"
                    + "house number where the shipped OpenStreetMap extracts cover it: Andorra,\n"
                    + "Monaco, central Helsinki)"),
            OptionSpec("--near", nil, .text("LAT,LON"), "prefer matches near this point"),
            OptionSpec("--limit", nil, .text("N"), "at most N matches (default 5, 1...1000)"),
            OptionSpec(
                "--input", nil, .file("FILE"),
                "add placemark columns to every row of a CSV file with lat and lon columns\n"
                    + "(streamed), or placemark properties to every Point feature of a GeoJSON file\n"
                    + "(.geojson, .json); bad rows are reported with their line number, the rest is\n"
                    + "still written, exit 1"),
            OptionSpec(
                "--output", "-o", .file("FILE"),
                "where --input writes (default: standard output); written whole or not at all"),
            OptionSpec(
                "--json", nil, .none,
                "print JSON instead of text; with --input, GeoJSON whatever the input (a\n"
                    + "Point feature per CSV row, its columns as properties)"),
            OptionSpec(
                "--language", nil, .choice("CODE", ["en", "ja"]),
                "names in English (en, default) or Japanese where known (ja)"),
        ],
        footer: """
            Points at sea have no placemark ("no country contains this point"). Data: Made with Natural Earth;
            GeoNames (www.geonames.org), CC BY 4.0; street answers © OpenStreetMap contributors.
            """)

    static let serve = CommandSpec(
        path: ["serve"], summary: "serve static maps and raster tiles over HTTP (tileserver-gl's URLs)",
        usage: ["serve [--style ID=STYLE.json]... [--data ID=FILE]... [--config FILE] [--port 8080] [options]"],
        options: [
            OptionSpec(
                "--style", nil, .text("ID=FILE"),
                "serve a style file as ID (none: the shipped styles)", repeatable: true),
            OptionSpec(
                "--data", nil, .text("ID=FILE"),
                "serve an .mbtiles/.pmtiles file as ID; styles may name it\n"
                    + "mbtiles://{ID}, and a style's network source named ID reads it; give it\n"
                    + "before the styles that use it", repeatable: true),
            OptionSpec("--config", nil, .file("FILE"), "a JSON configuration in the spirit of tileserver-gl's"),
            OptionSpec(
                "--sprite", nil, .text("ID=PATH"),
                "the sprite of style ID from local files PATH.json, PATH.png, PATH@2x.*\n"
                    + "instead of the style's (also of a network URL)", repeatable: true),
            strictOption,
            OptionSpec("--port", nil, .text("PORT"), "TCP port 0...65535 (default 8080; 0 picks a free one)"),
            OptionSpec("--bind", nil, .text("ADDRESS"), "IPv4 address to listen on (default 127.0.0.1)"),
            OptionSpec("--workers", nil, .text("N"), "renders at a time (default: one per core)"),
            OptionSpec("--queue", nil, .text("N"), "requests that may wait for a worker; more get 503 (default 32)"),
            OptionSpec("--cache-bytes", nil, .text("N"), "bytes of rendered images kept in memory (default 64 MiB)"),
            OptionSpec(
                "--metatile", nil, .text("N"),
                "tiles per side of the metatiles raster tiles are drawn in, as `tiles --metatile` (default 8; 1: each alone)"
            ),
            OptionSpec(
                "--compression", nil, .text("L"),
                "zlib level 0...9 of the PNG images served, as `tiles --compression` (default 6; 1 as MapLibre Native)"),
            OptionSpec(
                "--max-connections", nil, .text("N"),
                "connections open at once; more get 503 (default 10000, within the fd limit)"),
            OptionSpec(
                "--connections-per-client", nil, .text("N"),
                "connections from one address; more are closed (default 256; 0: no limit)"),
            OptionSpec("--head-timeout", nil, .text("SECONDS"), "time to send a request head (default 10)"),
            OptionSpec(
                "--keep-alive-timeout", nil, .text("SECONDS"), "idle time before a connection closes (default 5)"),
            OptionSpec("--io-threads", nil, .text("N"), "threads serving connections (default: cores, at most 4)"),
            OptionSpec("--max-size", nil, .text("PX"), "largest image side in points (default 2048)"),
            OptionSpec("--public-url", nil, .text("URL"), "base of the URLs in TileJSON (default: the request's host)"),
            OptionSpec("--cors", nil, .text("ORIGIN"), "Access-Control-Allow-Origin, or none (default *)"),
            OptionSpec("--icons", nil, .file("DIR"), "folder of PNG marker icons that marker= may name"),
            OptionSpec(
                "--fonts", nil, .file("DIR"),
                "font files (.ttf, .otf, .ttc) that text-font stacks name, searched before\n"
                    + "Debian's font packages; the style's glyphs URL is not used"),
            OptionSpec(
                "--glyph-folder", nil, .file("DIR"),
                "glyph PBFs (DIR/FONT/0-255.pbf..., tileserver-gl's paths.fonts, as mapraster\n"
                    + "glyphs writes them) served at /fonts/ before glyphs made from installed fonts"),
            OptionSpec(
                "--access-log", nil, .choice("FORMAT", ["common", "json", "off"]),
                "the access log on standard error: common (Apache's Common Log Format, default), json, off"),
            OptionSpec(
                "--render-timeout", nil, .text("SECONDS"),
                "the render deadline: waiting for a worker and drawing, in all; later gets 503 (default 30)"),
            OptionSpec("--quiet", nil, .none, "no access log (same as --access-log off)"),
        ],
        footer: """
            Endpoints: / (viewer), /styles/{id}/{z}/{x}/{y}[@2x].png, /styles/{id}/static/..., /staticmap?...,
            /styles/{id}.json, /styles/{id}/style.json, /data/{id}/{z}/{x}/{y}.pbf, /data/{id}.json,
            POST /render, /index.json, /health, /metrics (see README, Serving maps). SIGINT or SIGTERM stops
            after the requests in flight.
            """)

    static let style = CommandSpec(
        path: ["style"], summary: "check a style file", usage: ["style check STYLE.json [options]"],
        arguments: [("check", "list what a render would warn about or refuse (mapraster style check --help)")],
        options: [])

    static let styleCheck = CommandSpec(
        path: ["style", "check"],
        summary: "list what a style has that would be warned about, refused or not supported",
        usage: ["style check STYLE.json [--source NAME=PATH]... [--sprite [ID=]PATH]... [--strict]"],
        arguments: [("STYLE.json", "the style file")],
        options: [
            OptionSpec(
                "--source", nil, .text("NAME=PATH"), "check as if the source NAME were read from PATH",
                repeatable: true),
            spriteOption,
            OptionSpec("--strict", nil, .none, "count warnings as errors (exit 1 when there is any)"),
        ],
        footer: """
            Prints each warning (what a render leaves out and why) and the first error, if any, then a summary.
            Exit codes: 0 no errors (warnings alone do not fail, unless --strict), 1 errors, 64 usage error.
            """, positionalFiles: true)

    static let sprite = CommandSpec(
        path: ["sprite"], summary: "build a MapLibre sprite (JSON index and PNG sheet) from a folder of SVG icons",
        usage: ["sprite ICONS_DIR -o PREFIX [--retina] [--sdf] [--recursive]"],
        arguments: [("ICONS_DIR", "the folder of .svg files; each file's name without .svg is the image name")],
        options: [
            OptionSpec("--output", "-o", .file("PREFIX"), "write PREFIX.json and PREFIX.png"),
            OptionSpec(
                "--retina", nil, .none,
                "also write PREFIX@2x.json and PREFIX@2x.png (pixel ratio 2), the whole\n"
                    + "sprite in one run (spritezero and spreet need a run per ratio)"),
            OptionSpec(
                "--sdf", nil, .none,
                "signed distance field images (\"sdf\": true) for icon-color and icon-halo-*,\n"
                    + "grown by 3 px a side per pixel ratio, as spreet --sdf"),
            OptionSpec(
                "--recursive", nil, .none,
                "include subfolders; their images are named by path (sub/name), as spreet"),
        ],
        footer: """
            Packed as spritezero packs (tallest first, then by name, on shelves); sizes are the SVGs' width and
            height times the pixel ratio, truncated. A file that is not a usable SVG is named in a warning and
            skipped; a folder with no usable SVG fails. Icons may have at most 2048 px a side, the sheet 16384.
            Exit codes: 0 success (also with skipped files), 1 failure, 64 usage error.
            """, positionalFiles: true)

    static let glyphs = CommandSpec(
        path: ["glyphs"], summary: "write the glyph PBFs (SDF glyphs) of installed fonts for MapLibre GL clients",
        usage: ["glyphs FONT... -o DIR [--fonts DIR]"],
        arguments: [
            (
                "FONT",
                "a font as text-font names it: \"Family Style\" (\"Open Sans Regular\",\n"
                    + "\"Noto Sans Bold\") or a bare family for its regular face"
            )
        ],
        options: [
            OptionSpec(
                "--output", "-o", .file("DIR"),
                "write DIR/FONT/0-255.pbf ... DIR/FONT/65280-65535.pbf, a folder per font"),
            OptionSpec(
                "--fonts", nil, .file("DIR"),
                "font files (.ttf, .otf, .ttc) searched before Debian's font packages"),
        ],
        footer: """
            Each glyph is a signed distance field of the font's outline at 24 px with a 3 px border, metrics in
            whole pixels, as node-fontnik's build-glyphs makes them; the folder is what tileserver-gl serves
            (paths.fonts) and what mapraster serve --glyph-folder reads, combining a stack's fonts per glyph.
            Only the named font's own glyphs are written (no fallback). Files are written atomically; the
            bytes are the same on every run. Exit codes: 0 success, 1 failure (a font not installed), 64 usage
            error.
            """)

    static let version = CommandSpec(
        path: ["version"], summary: "print the version", usage: ["version [--verbose]", "--version"],
        options: [OptionSpec("--verbose", nil, .none, "also print the versions of the C libraries")])

    static let help = CommandSpec(
        path: ["help"], summary: "print the help of mapraster or of a command", usage: ["help [COMMAND [SUBCOMMAND]]"],
        arguments: [
            (
                "COMMAND",
                "render, tiles, diff, mbtiles, geocode, serve, style, sprite, glyphs, version, help,\n"
                    + "completions or man"
            )
        ],
        options: [])

    static let completions = CommandSpec(
        path: ["completions"], summary: "print a shell completion script",
        usage: ["completions bash|zsh"],
        arguments: [
            (
                "bash",
                "for bash: source <(mapraster completions bash), or save it in\n"
                    + "/usr/share/bash-completion/completions/mapraster"
            ),
            ("zsh", "for zsh: save it as _mapraster in a folder on $fpath"),
        ],
        options: [])

    static let man = CommandSpec(
        path: ["man"], summary: "print the manual page (troff) of mapraster",
        usage: ["man > mapraster.1"],
        options: [], footer: "View it with: mapraster man | man -l -")

    /// Every command, in the order the top-level help lists them.
    static let all: [CommandSpec] = [
        render, tiles, diff, mbtiles, mbtilesMerge, geocode, serve, style, styleCheck, sprite, glyphs, version,
        help,
        completions,
        man,
    ]

    /// The top-level command names.
    static var topLevelNames: [String] { all.filter { $0.path.count == 1 }.map { $0.path[0] } }

    /// The command named by `path` (`["mbtiles", "merge"]`), or nil.
    static func command(_ path: [String]) -> CommandSpec? { all.first { $0.path == path } }
}
