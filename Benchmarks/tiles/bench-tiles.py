#!/usr/bin/python3
"""Tile-pyramid benchmark: MapRaster `mapraster tiles` against Mapnik 3.1, measured in one run.

Both render the same world pyramid (z0-z6 by default, 5461 tiles) from the same Natural Earth countries
with the same style (ocean, land, country borders; no labels, lakes or rivers), given to MapRaster as a
MapLibre style (`--style`) and to Mapnik as XML, as 8x8 metatiles cut into 256x256 tiles, and store
them in an SQLite file. Prints tiles/s on one core and on all cores, bytes per tile (png, png8), peak
memory, and the MapRaster/Mapnik ratios. See README.md next to this file.

Not a test: never run by `swift test`. Needs Debian's python3-mapnik (run it with /usr/bin/python3).
"""

import argparse
import json
import math
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA_SUBDIR = os.path.join("Sources", "MapBaseMap", "Resources", "naturalearth")

# The map: the country layers of MapRaster's `standard` style (Sources/MapBaseMap/Resources/styles/standard.json)
# without its labels, lakes, rivers and admin-1 borders, and with 0.6-pt borders at every zoom.
OCEAN = "#aad3df"
LAND = "#f2efe9"
BORDER = "#9b8c96"
BORDER_WIDTH = 0.6  # points; 1 point = 1 pixel at scale 1
DETAILED_FROM_ZOOM = 2  # 1:110m below, 1:50m from here on (MapRaster / XYZ tile zoom)

TILE = 256
METATILE = 8
WORLD = 20037508.342789244  # half the Web-Mercator world width, metres
# Mapnik's scale denominator of a 256-px XYZ zoom z is SCALE_Z0 / 2**z (0.28 mm standardized pixel).
SCALE_Z0 = 2 * WORLD / TILE / 0.00028
MERC = (
    "+proj=merc +a=6378137 +b=6378137 +lat_ts=0.0 +lon_0=0.0 +x_0=0.0 +y_0=0.0 +k=1.0 +units=m "
    "+nadgrids=@null +wktext +no_defs +over"
)
LONLAT = "+proj=longlat +ellps=WGS84 +datum=WGS84 +no_defs"
MAPNIK_FORMATS = {"png": "png32", "png8": "png8"}  # Mapnik's plain "png" means png8 since 3.0


def log(text):
    print(text, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------
# Mapnik availability


def ensure_mapnik():
    """Makes `import mapnik` work: re-runs under Debian's Python, or installs python3-mapnik with apt-get."""
    try:
        import mapnik  # noqa: F401

        return
    except ImportError:
        pass
    system_python = "/usr/bin/python3"
    if os.path.realpath(sys.executable) != os.path.realpath(system_python) and os.path.exists(system_python):
        probe = subprocess.run([system_python, "-c", "import mapnik"], capture_output=True)
        if probe.returncode == 0:
            log(f"note: {sys.executable} has no mapnik module; re-running with {system_python}")
            os.execv(system_python, [system_python, os.path.abspath(__file__)] + sys.argv[1:])
    if os.geteuid() == 0 and shutil.which("apt-get"):
        log("python3-mapnik is missing: installing it with `apt-get install -y python3-mapnik` ...")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        result = subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "python3-mapnik"], env=env)
        if result.returncode != 0:
            subprocess.run(["apt-get", "update"], env=env)
            result = subprocess.run(
                ["apt-get", "install", "-y", "--no-install-recommends", "python3-mapnik"], env=env)
        if result.returncode == 0 and os.path.exists(system_python):
            os.execv(system_python, [system_python, os.path.abspath(__file__)] + sys.argv[1:])
    sys.exit(
        "error: the Python module 'mapnik' is not available.\n"
        "Install Debian's Mapnik 3.1 bindings and run this script with Debian's Python:\n"
        "  sudo apt-get install python3-mapnik\n"
        f"  /usr/bin/python3 {os.path.relpath(__file__)}")


# ---------------------------------------------------------------------------------------------------------
# The shared pyramid: metatiles in MapRaster's order (zoom, row, column)


def metatiles(max_zoom, min_zoom=0):
    result = []
    for z in range(min_zoom, max_zoom + 1):
        n = 1 << z
        for my in range((n + METATILE - 1) // METATILE):
            for mx in range((n + METATILE - 1) // METATILE):
                cols = range(mx * METATILE, min((mx + 1) * METATILE, n))
                rows = range(my * METATILE, min((my + 1) * METATILE, n))
                result.append((z, cols.start, rows.start, len(cols), len(rows)))
    return result


def tile_count(max_zoom, min_zoom=0):
    return sum(4**z for z in range(min_zoom, max_zoom + 1))


# ---------------------------------------------------------------------------------------------------------
# Mapnik style and data


def border_lines(polygon_geojson_path, lines_path):
    """Country outlines as lines, without the edges that exist only because the data is cut at +-180 or
    runs along the south pole: the same edges NaturalEarthBaseMap leaves out of its border path."""
    with open(polygon_geojson_path) as f:
        collection = json.load(f)

    def artificial(a, b):
        return (a[0] == b[0] and abs(a[0]) == 180.0) or (a[1] <= -84.9 and b[1] <= -84.9)

    features = []
    for feature in collection["features"]:
        geometry = feature.get("geometry") or {}
        if geometry.get("type") == "Polygon":
            polygons = [geometry["coordinates"]]
        elif geometry.get("type") == "MultiPolygon":
            polygons = geometry["coordinates"]
        else:
            continue
        lines = []
        for polygon in polygons:
            for ring in polygon:
                if len(ring) > 1 and ring[0] == ring[-1]:
                    ring = ring[:-1]
                if len(ring) < 3:
                    continue
                current = []
                for i in range(len(ring)):
                    a, b = ring[i], ring[(i + 1) % len(ring)]
                    if artificial(a, b):
                        if len(current) > 1:
                            lines.append(current)
                        current = []
                        continue
                    if not current:
                        current = [a]
                    current.append(b)
                if len(current) > 1:
                    lines.append(current)
        if lines:
            features.append({
                "type": "Feature", "properties": {},
                "geometry": {"type": "MultiLineString", "coordinates": lines}})
    with open(lines_path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)


def mapnik_xml(files):
    """The style: background, land fill, border lines; 1:110m below zoom 2, 1:50m from zoom 2."""
    threshold = SCALE_Z0 / 2 ** (DETAILED_FROM_ZOOM - 0.5)  # between zoom 1 and zoom 2

    def layer(name, style, path, coarse):
        scale = (f'minimum-scale-denominator="{threshold:.1f}"' if coarse
                 else f'maximum-scale-denominator="{threshold:.1f}"')
        return f"""
  <Layer name="{name}" srs="{LONLAT}" {scale}>
    <StyleName>{style}</StyleName>
    <Datasource>
      <Parameter name="type">geojson</Parameter>
      <Parameter name="file">{path}</Parameter>
    </Datasource>
  </Layer>"""

    return f"""<?xml version="1.0" encoding="utf-8"?>
<Map srs="{MERC}" background-color="{OCEAN}" buffer-size="128">
  <Style name="land">
    <Rule><PolygonSymbolizer fill="{LAND}"/></Rule>
  </Style>
  <Style name="borders">
    <Rule><LineSymbolizer stroke="{BORDER}" stroke-width="{BORDER_WIDTH}" stroke-linejoin="round"
                          stroke-linecap="round"/></Rule>
  </Style>{layer("land110", "land", files["land110"], True)}{layer("land50", "land", files["land50"], False)}{
    layer("borders110", "borders", files["lines110"], True)}{layer("borders50", "borders", files["lines50"], False)}
</Map>
"""


def maplibre_style(files):
    """The same map as `mapnik_xml` for `mapraster tiles --style`: a MapLibre style (styles/README.md).

    Style zooms are MapLibre's, MapRaster's zoom minus 1; a layer is drawn at style zooms >= minzoom and
    < maxzoom. So maxzoom/minzoom DETAILED_FROM_ZOOM - 1 switch from 1:110m to 1:50m between MapRaster
    zooms 1 and 2, as the Mapnik layers' scale denominators do. The line layers stroke the polygon
    sources' rings, which leaves out the 180th-meridian and south-pole edges (as `border_lines` does)."""
    switch = DETAILED_FROM_ZOOM - 1
    line = {
        "layout": {"line-join": "round", "line-cap": "round"},
        "paint": {"line-color": BORDER, "line-width": BORDER_WIDTH},
    }
    return {
        "version": 8,
        "name": "bench-tiles",
        "sources": {
            "countries110": {"type": "geojson", "data": files["land110"], "attribution": "Made with Natural Earth"},
            "countries50": {"type": "geojson", "data": files["land50"], "attribution": "Made with Natural Earth"},
        },
        "layers": [
            {"id": "ocean", "type": "background", "paint": {"background-color": OCEAN}},
            {"id": "land-110m", "type": "fill", "source": "countries110", "maxzoom": switch,
             "paint": {"fill-color": LAND}},
            {"id": "land-50m", "type": "fill", "source": "countries50", "minzoom": switch,
             "paint": {"fill-color": LAND}},
            dict(id="borders-110m", type="line", source="countries110", maxzoom=switch, **line),
            dict(id="borders-50m", type="line", source="countries50", minzoom=switch, **line),
        ],
    }


def prepare_styles(repo, workdir):
    """Writes both tools' styles into `workdir`; returns (Mapnik XML path, MapLibre style JSON path)."""
    data = os.path.join(repo, DATA_SUBDIR)
    files = {
        "land110": os.path.join(data, "ne_110m_countries.geojson"),
        "land50": os.path.join(data, "ne_50m_countries.geojson"),
        "lines110": os.path.join(workdir, "ne_110m_borders.geojson"),
        "lines50": os.path.join(workdir, "ne_50m_borders.geojson"),
    }
    border_lines(files["land110"], files["lines110"])
    border_lines(files["land50"], files["lines50"])
    xml_path = os.path.join(workdir, "mapnik-style.xml")
    with open(xml_path, "w") as f:
        f.write(mapnik_xml(files))
    style_path = os.path.join(workdir, "maplibre-style.json")
    with open(style_path, "w") as f:
        json.dump(maplibre_style(files), f, indent=1)
    return xml_path, style_path


# ---------------------------------------------------------------------------------------------------------
# Mapnik renderer (runs in its own process: `--mapnik-run`), like renderd / generate_tiles with metatiles

_worker = {}


def _worker_init(xml_path, fmt):
    import mapnik

    m = mapnik.Map(TILE, TILE)
    mapnik.load_map(m, xml_path)
    _worker.update(mapnik=mapnik, map=m, fmt=MAPNIK_FORMATS[fmt], render=0.0, encode=0.0)


def _render_metatile(meta):
    mapnik, m, fmt = _worker["mapnik"], _worker["map"], _worker["fmt"]
    z, x0, y0, cols, rows = meta
    t0 = time.perf_counter()
    res = 2 * WORLD / (TILE * (1 << z))
    minx = -WORLD + x0 * TILE * res
    maxy = WORLD - y0 * TILE * res
    m.resize(cols * TILE, rows * TILE)
    m.zoom_to_box(mapnik.Box2d(minx, maxy - rows * TILE * res, minx + cols * TILE * res, maxy))
    m.buffer_size = 128
    image = mapnik.Image(cols * TILE, rows * TILE)
    mapnik.render(m, image)
    t1 = time.perf_counter()
    tiles = []
    for dy in range(rows):
        for dx in range(cols):
            data = image.view(dx * TILE, dy * TILE, TILE, TILE).tostring(fmt)
            tiles.append((z, x0 + dx, (1 << z) - 1 - (y0 + dy), data))
    t2 = time.perf_counter()
    _worker["render"] += t1 - t0
    _worker["encode"] += t2 - t1
    return tiles


def mapnik_run(xml_path, max_zoom, fmt, processes, out_path):
    """Renders the pyramid with Mapnik into a plain MBTiles-style `tiles` table; prints timings as JSON."""
    db = sqlite3.connect(out_path)
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    metas = metatiles(max_zoom)
    stats = {}
    if processes == 1:
        _worker_init(xml_path, fmt)
        for meta in metas:
            db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", _render_metatile(meta))
        stats = {"render_s": _worker["render"], "encode_s": _worker["encode"]}
    else:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        with context.Pool(processes, initializer=_worker_init, initargs=(xml_path, fmt)) as pool:
            for tiles in pool.imap_unordered(_render_metatile, metas, chunksize=1):
                db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", tiles)
    db.commit()
    db.close()
    print(json.dumps(stats))


# ---------------------------------------------------------------------------------------------------------
# Measuring


def timed(command, cwd=None):
    """Runs a command under /usr/bin/time -v; returns (wall seconds, max RSS in KiB, stdout, CPU seconds)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        full = ["/usr/bin/time", "-v", "-o", report.name] + command
        start = time.perf_counter()
        result = subprocess.run(full, cwd=cwd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"error: {' '.join(command)} failed ({result.returncode}):\n{result.stderr}{result.stdout}")
        rss, cpu = None, 0.0
        for line in report.read().splitlines():
            if "Maximum resident set size" in line:
                rss = int(line.split(":")[1])
            elif "User time (seconds)" in line or "System time (seconds)" in line:
                cpu += float(line.split(":")[1])
    return wall, rss, result.stdout, cpu


def png_color_type(data):
    return {0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"}.get(data[25], str(data[25]))


def sqlite_tiles(path):
    """(tiles, total bytes over all tiles, unique tile payloads, colour type of one tile)."""
    db = sqlite3.connect(path)
    count, total = db.execute("SELECT count(*), sum(length(tile_data)) FROM tiles").fetchone()
    unique = db.execute("SELECT count(DISTINCT tile_data) FROM tiles").fetchone()[0]
    sample = db.execute("SELECT tile_data FROM tiles WHERE zoom_level = 3 LIMIT 1").fetchone()
    db.close()
    return count, total, unique, png_color_type(sample[0]) if sample else "?"


def folder_tiles(root):
    count = total = 0
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".png"):
                count += 1
                total += os.path.getsize(os.path.join(directory, name))
    return count, total


def compare_pyramids(a_path, b_path, threshold):
    """Fraction of pixels whose RGB differs by more than `threshold` (0-255) between two png pyramids."""
    import mapnik

    a = sqlite3.connect(a_path)
    b = sqlite3.connect(b_path)
    differing = pixels = 0
    worst = (0.0, None)
    for z, x, y, data in a.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        row = b.execute(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
            (z, x, y)).fetchone()
        if row is None:
            continue
        image_a = mapnik.Image.fromstring(data)
        image_b = mapnik.Image.fromstring(row[0])
        n = image_a.compare(image_b, threshold, False)
        differing += n
        pixels += image_a.width() * image_a.height()
        share = n / (image_a.width() * image_a.height())
        if share > worst[0]:
            worst = (share, f"{z}/{x}/{(1 << z) - 1 - y}")
    return differing / max(pixels, 1), worst


def fmt_rate(count, seconds):
    return count / seconds if seconds > 0 else float("nan")


# ---------------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-zoom", type=int, default=6, help="pyramid z0..N (default 6: 5461 tiles)")
    parser.add_argument("--repo", default=DEFAULT_REPO, help="MapRaster checkout (default: this script's repo)")
    parser.add_argument("--binary", help="mapraster executable (default: REPO/.build/release/mapraster)")
    parser.add_argument("--no-build", action="store_true", help="skip `swift build -c release`")
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration; the median is shown")
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="Mapnik pool size (default: cores)")
    parser.add_argument("--no-folder", action="store_true", help="skip the MapRaster folder-output run")
    parser.add_argument("--no-compare", action="store_true", help="skip the pixel comparison of the png pyramids")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder with all outputs")
    # Internal: the Mapnik renderer process.
    parser.add_argument("--mapnik-run", nargs=5, metavar=("XML", "MAXZOOM", "FORMAT", "PROCESSES", "OUT"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()

    ensure_mapnik()
    if args.mapnik_run:
        xml, max_zoom, fmt, processes, out = args.mapnik_run
        mapnik_run(xml, int(max_zoom), fmt, int(processes), out)
        return

    import mapnik

    if not 0 <= args.max_zoom <= 10:
        sys.exit(f"error: --max-zoom {args.max_zoom} is invalid: use 0...10")
    repo = os.path.abspath(args.repo)
    binary = args.binary or os.path.join(repo, ".build", "release", "mapraster")
    if not args.no_build:
        log("building MapRaster: swift build -c release --product mapraster (waits if .build is locked) ...")
        build = subprocess.run(["swift", "build", "-c", "release", "--product", "mapraster"], cwd=repo,
                               stdout=sys.stderr)
        if build.returncode != 0:
            sys.exit("error: swift build -c release failed")
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: no MapRaster executable at {binary}; build with `swift build -c release`")

    cores = os.cpu_count()
    max_zoom = args.max_zoom
    total = tile_count(max_zoom)
    work = tempfile.mkdtemp(prefix="bench-tiles-")
    try:
        # A private copy (with its resource bundles), so a rebuild during the run cannot change what is measured.
        source = binary
        binary = os.path.join(work, "bin", "mapraster")
        os.makedirs(os.path.dirname(binary))
        shutil.copy2(source, binary)
        for name in os.listdir(os.path.dirname(source)):
            if name.endswith(".resources") or name.endswith(".bundle"):
                shutil.copytree(os.path.join(os.path.dirname(source), name), os.path.join(work, "bin", name))
        commit = subprocess.run(["git", "-C", repo, "describe", "--always", "--dirty"], capture_output=True,
                                text=True).stdout.strip() or "?"
        built = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(os.path.getmtime(source)))
        xml_path, style_path = prepare_styles(repo, work)
        load = os.getloadavg()
        print(f"MapRaster vs Mapnik {mapnik.mapnik_version() // 100000}.{mapnik.mapnik_version() // 100 % 1000}"
              f".{mapnik.mapnik_version() % 100} (AGG) -- world z0-{max_zoom}, {total} tiles of {TILE} px, "
              f"metatiles {METATILE}x{METATILE}, {len(metatiles(max_zoom))} metatiles")
        print(f"MapRaster: {source} (built {built}, checkout {commit}), copied for the run")
        print("style: ocean, land, borders; MapRaster --style maplibre-style.json, Mapnik mapnik-style.xml")
        print(f"cores: {cores}, Mapnik pool: {args.workers} processes, runs per figure: {args.repeat} (median)")
        print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        print()

        def run_mapraster(fmt, threads, out, zoom=max_zoom):
            command = [binary, "tiles", "-o", out, "--zoom", f"0-{zoom}", "--format", fmt, "--style", style_path,
                       "--quiet"]
            if threads:
                command += ["--threads", str(threads)]
            return timed(command, cwd=work)

        def run_mapnik(fmt, processes, out):
            command = [sys.executable, os.path.abspath(__file__), "--mapnik-run", xml_path, str(max_zoom), fmt,
                       str(processes), out]
            return timed(command, cwd=work)

        results = {}  # (tool, fmt, mode) -> list of (wall, rss, path, extra)
        serial = 0
        for _ in range(args.repeat):
            for fmt in ("png", "png8"):
                for mode in ("one", "all"):
                    # Interleaved, so a change in machine load hits both tools alike.
                    serial += 1
                    out = os.path.join(work, f"mapraster-{fmt}-{mode}-{serial}.mbtiles")
                    log(f"MapRaster {fmt} {mode} core(s) ...")
                    wall, rss, _, cpu = run_mapraster(fmt, 1 if mode == "one" else None, out)
                    results.setdefault(("MapRaster", fmt, mode), []).append((wall, rss, out, {}, cpu))
                    out = os.path.join(work, f"mapnik-{fmt}-{mode}-{serial}.sqlite")
                    log(f"Mapnik {fmt} {mode} core(s) ...")
                    wall, rss, stdout, cpu = run_mapnik(fmt, 1 if mode == "one" else args.workers, out)
                    results.setdefault(("Mapnik", fmt, mode), []).append((wall, rss, out, json.loads(stdout), cpu))

        def median(key, index=0):
            return statistics.median(r[index] for r in results[key])

        # Every output must hold the whole pyramid.
        summaries = {}
        for key, runs in results.items():
            for run in runs:
                count, size, unique, kind = sqlite_tiles(run[2])
                if count != total:
                    sys.exit(f"error: {key} wrote {count} tiles, expected {total} ({run[2]})")
                summaries[key] = (count, size, unique, kind)

        print("Throughput (wall time of the whole process: start-up, data loading, rendering, encoding, SQLite)")
        print(f"{'':28}{'MapRaster':>26}{'Mapnik':>26}{'MapRaster/Mapnik':>18}")
        for fmt in ("png", "png8"):
            for mode, label in (("one", "1 core"), ("all", f"all cores ({cores})")):
                a = median(("MapRaster", fmt, mode))
                b = median(("Mapnik", fmt, mode))
                ta, tb = fmt_rate(total, a), fmt_rate(total, b)
                print(f"  {fmt + ', ' + label:26}{ta:9.0f} tiles/s {a:6.2f} s{tb:9.0f} tiles/s {b:6.2f} s"
                      f"{ta / tb:17.2f}x")
        print()
        print("CPU cost (user + system time of the process tree; less sensitive to other load than wall time)")
        print(f"{'':28}{'MapRaster':>26}{'Mapnik':>26}{'MapRaster/Mapnik':>18}")
        for fmt in ("png", "png8"):
            for mode, label in (("one", "1 core"), ("all", f"all cores ({cores})")):
                a = median(("MapRaster", fmt, mode), 4)
                b = median(("Mapnik", fmt, mode), 4)
                ta, tb = fmt_rate(total, a), fmt_rate(total, b)
                print(f"  {fmt + ', ' + label:26}{ta:6.0f} tiles/cpu-s {a:5.1f} s{tb:6.0f} tiles/cpu-s {b:5.1f} s"
                      f"{ta / tb:17.2f}x")
        print()

        print("Bytes per tile (mean over all tiles, as served; unique payloads in brackets)")
        print(f"{'':28}{'MapRaster':>26}{'Mapnik':>26}{'MapRaster/Mapnik':>18}")
        for fmt in ("png", "png8"):
            a = summaries[("MapRaster", fmt, "all")]
            b = summaries[("Mapnik", fmt, "all")]
            print(f"  {fmt:26}{a[1] / a[0]:9.0f} B {a[3]:>7} [{a[2]:>4}]{b[1] / b[0]:9.0f} B {b[3]:>7} [{b[2]:>4}]"
                  f"{(a[1] / a[0]) / (b[1] / b[0]):17.2f}x")
        print()

        for fmt in ("png", "png8"):
            s = results[("Mapnik", fmt, "one")][-1][3]
            share = s["encode_s"] / (s["render_s"] + s["encode_s"])
            print(f"Mapnik {fmt}, 1 process, inside the process: render {s['render_s']:.2f} s + encode "
                  f"{s['encode_s']:.2f} s ({share:.0%} encoding)")

        if not args.no_folder:
            out = os.path.join(work, "mapraster-folder")
            log("MapRaster png all cores, folder output ...")
            wall, rss, _, _ = run_mapraster("png", None, out)
            count, size = folder_tiles(out)
            if count != total:
                sys.exit(f"error: the folder output holds {count} tiles, expected {total}")
            print(f"MapRaster png, all cores, z/x/y.png folder: {fmt_rate(total, wall):.0f} tiles/s ({wall:.2f} s), "
                  f"{size / count:.0f} B/tile")
        print()

        print("Peak memory (max RSS of the process tree, /usr/bin/time -v)")
        lower = max_zoom - 1
        memory = []
        if lower >= 0:
            for mode in ("one", "all"):
                out = os.path.join(work, f"mapraster-mem-{lower}-{mode}.mbtiles")
                log(f"MapRaster png z0-{lower} {mode} core(s), for memory ...")
                wall, rss, _, _ = run_mapraster("png", 1 if mode == "one" else None, out, zoom=lower)
                memory.append((f"z0-{lower} ({tile_count(lower)} tiles)", mode, rss))
        for mode in ("one", "all"):
            memory.append((f"z0-{max_zoom} ({total} tiles)", mode,
                           max(r[1] for r in results[("MapRaster", "png", mode)])))
        for pyramid, mode, rss in memory:
            label = "1 thread" if mode == "one" else "all cores"
            print(f"  MapRaster png {pyramid:20} {label:10} {rss / 1024:7.1f} MiB")
        for mode in ("one", "all"):
            label = "1 process" if mode == "one" else f"pool of {args.workers}"
            rss = max(r[1] for r in results[("Mapnik", "png", mode)])
            print(f"  Mapnik png    z0-{max_zoom} ({total} tiles)   {label:10} {rss / 1024:7.1f} MiB"
                  + ("  (largest single process)" if mode == "all" else ""))
        print()

        if not args.no_compare:
            log("comparing the png pyramids pixel by pixel ...")
            a = results[("MapRaster", "png", "all")][-1][2]
            b = results[("Mapnik", "png", "all")][-1][2]
            for threshold in (8, 32):
                share, worst = compare_pyramids(a, b, threshold)
                print(f"Equivalence: {share:.3%} of png pixels differ by more than {threshold}/255 in a channel "
                      f"(worst tile {worst[1]}: {worst[0]:.1%})")
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        if args.keep:
            print(f"outputs kept in {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
