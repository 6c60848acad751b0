#!/usr/bin/env python3
"""Builds the shipped OpenStreetMap vector tiles (OpenMapTiles schema) for Andorra, Monaco and central Helsinki.

    python3 -m venv /tmp/vt && /tmp/vt/bin/pip install osmium==4.3.2 cubao-tippecanoe==0.0.4 pmtiles==3.8.1 shapely
    /tmp/vt/bin/python Scripts/make-vector-tiles.py [--shared ../shared/data] [--out DIR] [--fixtures DIR]

1. pyosmium reads the three extracts and writes one GeoJSON file per OpenMapTiles layer (water, waterway,
   landcover, landuse, park, boundary, transportation, transportation_name, building, housenumber, place,
   poi, aeroway, mountain_peak) with the schema's class/subclass values and name, name:latin, name_en.
   Each feature carries a tippecanoe minzoom close to OpenMapTiles' own zoom rules, so low zooms stay light.
2. tippecanoe (PyPI cubao-tippecanoe) cuts them into gzipped Mapbox Vector Tiles, zooms 0-14, in MBTiles.
3. PyPI pmtiles converts the MBTiles file into a PMTiles v3 archive (a test fixture: the product reads the
   MBTiles file only).

Output: Sources/MapBaseMap/Resources/vectortiles/osm-omt.mbtiles and fixtures/vectortiles/osm-omt.pmtiles
(--out DIR and --fixtures DIR move them). Map data © OpenStreetMap contributors, ODbL 1.0.
"""
import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import osmium
import shapely
from shapely import wkb
from shapely.geometry import LineString, box, mapping
from shapely.ops import linemerge, polygonize, unary_union

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
MAXZOOM = 14
LAYERS = ["water", "waterway", "landcover", "landuse", "park", "boundary", "transportation",
          "transportation_name", "building", "housenumber", "place", "poi", "aeroway", "mountain_peak"]

LANDCOVER = {  # subclass -> class, as in OpenMapTiles' landcover layer
    "farmland": "farmland", "farm": "farmland", "orchard": "farmland", "vineyard": "farmland",
    "plant_nursery": "farmland", "glacier": "ice", "wood": "wood", "forest": "wood", "bare_rock": "rock",
    "scree": "rock", "fell": "grass", "grassland": "grass", "heath": "grass", "scrub": "grass", "tundra": "grass",
    "grass": "grass", "meadow": "grass", "allotments": "grass", "park": "grass", "village_green": "grass",
    "recreation_ground": "grass", "garden": "grass", "golf_course": "grass", "wetland": "wetland", "bog": "wetland",
    "swamp": "wetland", "wet_meadow": "wetland", "marsh": "wetland", "reedbed": "wetland", "saltmarsh": "wetland",
    "beach": "sand", "sand": "sand", "dune": "sand",
}
LANDUSE = {"railway", "cemetery", "military", "residential", "commercial", "industrial", "garages", "retail",
           "bus_station", "school", "university", "kindergarten", "college", "library", "hospital", "stadium",
           "pitch", "playground", "track", "theme_park", "zoo", "dam", "quarry"}
HIGHWAY = {  # highway -> (class, minzoom)
    "motorway": ("motorway", 4), "trunk": ("trunk", 5), "primary": ("primary", 7), "secondary": ("secondary", 9),
    "tertiary": ("tertiary", 11), "unclassified": ("minor", 12), "residential": ("minor", 12),
    "living_street": ("minor", 13), "road": ("minor", 13), "service": ("service", 13), "track": ("track", 14),
    "pedestrian": ("path", 13), "footway": ("path", 14), "path": ("path", 14), "cycleway": ("path", 14),
    "steps": ("path", 14), "bridleway": ("path", 14), "busway": ("busway", 12), "raceway": ("raceway", 12),
}
RAILWAY = {"rail": ("rail", 10), "light_rail": ("transit", 11), "subway": ("transit", 11), "tram": ("transit", 12),
           "narrow_gauge": ("rail", 11), "funicular": ("transit", 12), "monorail": ("transit", 12)}
POI_CLASS = {  # subclass -> class (OpenMapTiles' poi_class mapping, the common part)
    "restaurant": "restaurant", "cafe": "cafe", "fast_food": "fast_food", "bar": "bar", "pub": "beer",
    "biergarten": "beer", "ice_cream": "ice_cream", "bank": "bank", "atm": "bank", "pharmacy": "pharmacy",
    "hospital": "hospital", "clinic": "hospital", "doctors": "doctors", "dentist": "dentist",
    "school": "school", "kindergarten": "school", "university": "college", "college": "college",
    "library": "library", "place_of_worship": "place_of_worship", "police": "police", "fire_station": "fire_station",
    "post_office": "post", "townhall": "town_hall", "theatre": "theatre", "cinema": "cinema", "museum": "museum",
    "hotel": "lodging", "hostel": "lodging", "guest_house": "lodging", "motel": "lodging", "camp_site": "campsite",
    "attraction": "attraction", "viewpoint": "attraction", "artwork": "art_gallery", "information": "information",
    "supermarket": "grocery", "convenience": "grocery", "bakery": "bakery", "clothes": "clothing_store",
    "shoes": "shoe", "hairdresser": "hairdresser", "parking": "parking", "fuel": "fuel", "car": "car",
    "bicycle": "bicycle", "bus_station": "bus", "bus_stop": "bus", "station": "railway", "halt": "railway",
    "tram_stop": "railway", "subway_entrance": "entrance", "ferry_terminal": "ferry_terminal",
    "marina": "harbor", "park": "park", "playground": "playground", "sports_centre": "sports",
    "stadium": "stadium", "swimming_pool": "swimming", "golf_course": "golf", "zoo": "zoo", "toilets": "toilets",
    "drinking_water": "drinking_water", "monument": "monument", "memorial": "monument", "castle": "castle",
    "ruins": "monument", "books": "books", "jewelry": "jewelry", "mall": "shop", "department_store": "shop",
    "gift": "gift", "florist": "florist", "butcher": "butcher", "alcohol": "alcohol_shop", "wine": "alcohol_shop",
    "laundry": "laundry", "dry_cleaning": "laundry", "embassy": "embassy", "casino": "casino",
}
POI_KEYS = ["amenity", "shop", "tourism", "leisure", "historic", "railway", "office", "sport"]
PLACE_ZOOM = {"country": 0, "state": 4, "city": 4, "town": 7, "village": 10, "suburb": 11, "hamlet": 12,
              "quarter": 13, "neighbourhood": 13, "isolated_dwelling": 14, "locality": 14, "island": 10}
LATIN = re.compile(r"^[\u0000-\u024F\u1E00-\u1EFF\u2000-\u206F\s]*$")


def names(tags):
    """OpenMapTiles' name attributes: name, name_en, name:latin (Latin-script name or the English one)."""
    out = {}
    name = tags.get("name")
    if name:
        out["name"] = name
        english = tags.get("name:en")
        out["name_en"] = english or name
        latin = name if LATIN.match(name) else (english or tags.get("int_name"))
        if latin:
            out["name:latin"] = latin
    return out


def brunnel(tags):
    if tags.get("bridge", "no") not in ("no", "0"):
        return "bridge"
    if tags.get("tunnel", "no") not in ("no", "0"):
        return "tunnel"
    if tags.get("ford", "no") not in ("no", "0"):
        return "ford"
    return None


class Collector(osmium.SimpleHandler):
    def __init__(self, admin_ways):
        super().__init__()
        self.factory = osmium.geom.WKBFactory()
        self.features = {layer: [] for layer in LAYERS}
        self.coastlines = []
        self.admin_ways = admin_ways

    def add(self, layer, geometry, properties, minzoom, osm_id, maxzoom=None):
        if geometry is None or geometry.is_empty:
            return
        properties = {k: v for k, v in properties.items() if v is not None}
        zooms = {"minzoom": minzoom} if maxzoom is None else {"minzoom": minzoom, "maxzoom": maxzoom}
        self.features[layer].append({
            "type": "Feature", "id": osm_id, "tippecanoe": zooms,
            "properties": properties, "geometry": mapping(geometry),
        })

    def point(self, node):
        return wkb.loads(self.factory.create_point(node), hex=True)

    def node(self, n):
        tags = dict(n.tags)
        if not tags:
            return
        geometry = None
        try:
            geometry = self.point(n)
        except Exception:
            return
        self.point_features(tags, geometry, n.id * 10)
        if tags.get("aeroway") in ("gate", "helipad"):
            self.add("aeroway", geometry, {"class": tags["aeroway"], "ref": tags.get("ref")}, 14, n.id * 10)

    def point_features(self, tags, geometry, osm_id, area=False):
        natural = tags.get("natural")
        if natural in ("peak", "volcano", "saddle") and not area:
            ele = tags.get("ele", "")
            try:
                elevation = int(round(float(ele.replace("m", "").strip())))
            except ValueError:
                elevation = None
            self.add("mountain_peak", geometry, {"class": natural, "ele": elevation, **names(tags)},
                     11 if elevation and elevation > 2500 else 12, osm_id)
        place = tags.get("place")
        if place in PLACE_ZOOM and tags.get("name") and not area:
            rank = {"country": 1, "state": 2, "city": 3, "town": 4, "village": 5, "suburb": 6}.get(place, 7)
            capital = {"yes": 2, "2": 2, "4": 4}.get(tags.get("capital", ""))
            self.add("place", geometry, {"class": place, "rank": rank, "capital": capital, **names(tags)},
                     PLACE_ZOOM[place], osm_id)
        if tags.get("addr:housenumber"):
            self.add("housenumber", geometry, {"housenumber": tags["addr:housenumber"]}, 14, osm_id)
        if tags.get("name"):
            for key in POI_KEYS:
                value = tags.get(key)
                if not value or value in ("yes", "no"):
                    continue
                if key == "railway" and value not in ("station", "halt", "tram_stop", "subway_entrance"):
                    continue
                poi_class = POI_CLASS.get(value, value if key != "office" else "office")
                rank = 1 if poi_class in ("railway", "hospital", "museum", "attraction", "town_hall") else 2
                self.add("poi", geometry, {"class": poi_class, "subclass": value, "rank": rank, **names(tags)},
                         12 if rank == 1 else 14, osm_id)
                break

    def way(self, w):
        tags = dict(w.tags)
        if not tags and w.id not in self.admin_ways:
            return
        try:
            line = wkb.loads(self.factory.create_linestring(w), hex=True)
        except Exception:
            # Extracts cut at a box (Helsinki) keep ways whose outside nodes are gone: keep the inside part.
            coords = [(n.lon, n.lat) for n in w.nodes if n.location.valid()]
            if len(coords) < 2:
                return
            line = LineString(coords)
        osm_id = w.id * 10 + 1
        if w.id in self.admin_ways:
            level, maritime = self.admin_ways[w.id]
            self.add("boundary", line, {"admin_level": level, "maritime": 1 if maritime else 0, "disputed": 0},
                     2 if level <= 2 else 4 if level <= 4 else 10, osm_id)
        if tags.get("natural") == "coastline":
            self.coastlines.append(line)
        is_area = tags.get("area") == "yes"
        highway = tags.get("highway")
        railway = tags.get("railway")
        construction = highway == "construction"
        if construction:
            highway = tags.get("construction")
        kind = None
        if highway in HIGHWAY and not is_area:
            kind, minzoom = HIGHWAY[highway]
            subclass = highway if kind in ("path", "minor", "service", "track") else None
        elif railway in RAILWAY and not is_area:
            kind, minzoom = RAILWAY[railway]
            subclass = railway
        elif tags.get("route") == "ferry":
            kind, minzoom, subclass = "ferry", 11, None
        elif tags.get("aerialway"):
            kind, minzoom, subclass = "aerialway", 12, tags["aerialway"]
        if kind:
            link = (highway or "").endswith("_link")
            properties = {
                "class": kind + ("_construction" if construction else ""), "subclass": subclass,
                "brunnel": brunnel(tags), "oneway": 1 if tags.get("oneway") in ("yes", "1") else None,
                "ramp": 1 if link else None, "service": tags.get("service") if kind in ("service", "rail") else None,
                "layer": int(tags["layer"]) if tags.get("layer", "").lstrip("-").isdigit() else None,
                "surface": ("unpaved" if tags.get("surface") in ("unpaved", "gravel", "dirt", "ground", "grass",
                                                                 "compacted", "sand") else
                            "paved" if tags.get("surface") else None),
            }
            self.add("transportation", line, properties, minzoom, osm_id)
            if tags.get("name") or tags.get("ref"):
                ref = tags.get("ref")
                self.add("transportation_name", line, {
                    "class": properties["class"], "subclass": subclass, "brunnel": properties["brunnel"],
                    "ref": ref, "ref_length": len(ref) if ref else None, "layer": properties["layer"],
                    **names(tags)}, max(minzoom, 12), osm_id)
        if highway and highway.endswith("_link") and highway[:-5] in HIGHWAY:
            kind, minzoom = HIGHWAY[highway[:-5]]
            self.add("transportation", line, {"class": kind, "ramp": 1, "brunnel": brunnel(tags),
                                              "oneway": 1 if tags.get("oneway") in ("yes", "1") else None},
                     max(minzoom, 11), osm_id)
        waterway = tags.get("waterway")
        if waterway in ("river", "stream", "canal", "drain", "ditch"):
            self.add("waterway", line, {"class": waterway, "brunnel": brunnel(tags),
                                        "intermittent": 1 if tags.get("intermittent") == "yes" else 0, **names(tags)},
                     8 if waterway == "river" else 13, osm_id)
        aeroway = tags.get("aeroway")
        if aeroway in ("runway", "taxiway") and not w.is_closed():
            self.add("aeroway", line, {"class": aeroway, "ref": tags.get("ref")}, 10 if aeroway == "runway" else 12,
                     osm_id)

    def area(self, a):
        tags = dict(a.tags)
        if not tags:
            return
        try:
            polygon = wkb.loads(self.factory.create_multipolygon(a), hex=True)
        except Exception:
            return
        if not polygon.is_valid:
            polygon = shapely.make_valid(polygon)
            polygon = unary_union([g for g in getattr(polygon, "geoms", [polygon]) if g.geom_type in
                                   ("Polygon", "MultiPolygon")])
        if polygon.is_empty:
            return
        osm_id = a.orig_id() * 10 + (2 if a.from_way() else 3)
        size = polygon.area  # square degrees, for minzoom choices
        big = 7 if size > 1e-3 else 10 if size > 1e-5 else 13
        natural, landuse, leisure, water = tags.get("natural"), tags.get("landuse"), tags.get("leisure"), tags.get("water")
        if natural == "water" or landuse in ("reservoir", "basin") or tags.get("waterway") == "riverbank" or \
                leisure == "swimming_pool":
            kind = ("swimming_pool" if leisure == "swimming_pool" else "river" if water in ("river", "canal", "stream")
                    or tags.get("waterway") == "riverbank" else "pond" if water == "pond" else "lake")
            self.add("water", polygon, {"class": kind, "intermittent": 1 if tags.get("intermittent") == "yes" else 0},
                     big, osm_id)
        subclass = next((v for v in (natural, landuse, leisure, tags.get("wetland")) if v in LANDCOVER), None)
        if natural == "wetland" and tags.get("wetland") in LANDCOVER:
            subclass = tags["wetland"]
        if subclass:
            self.add("landcover", polygon, {"class": LANDCOVER[subclass], "subclass": subclass}, big, osm_id)
        use = next((v for v in (landuse, tags.get("amenity"), leisure, tags.get("tourism")) if v in LANDUSE), None)
        if use:
            self.add("landuse", polygon, {"class": use}, max(big, 10), osm_id)
        protected = tags.get("boundary") in ("national_park", "protected_area") or leisure == "nature_reserve"
        if protected:
            kind = "nature_reserve" if leisure == "nature_reserve" else tags.get("boundary")
            self.add("park", polygon, {"class": kind, **names(tags)}, max(big - 2, 6), osm_id)
        if tags.get("building") and tags.get("building") != "no":
            height = None
            try:
                height = float(tags["height"].replace("m", "")) if "height" in tags else \
                    float(tags["building:levels"]) * 3.66 if "building:levels" in tags else None
            except ValueError:
                pass
            self.add("building", polygon, {"render_height": round(height) if height else 5,
                                           "render_min_height": 0}, 13, osm_id)
        aeroway = tags.get("aeroway")
        if aeroway in ("aerodrome", "heliport", "runway", "helipad", "taxiway", "apron"):
            self.add("aeroway", polygon, {"class": aeroway, "ref": tags.get("ref")}, 10, osm_id)
        if tags.get("name") or tags.get("addr:housenumber"):
            self.point_features(tags, polygon.representative_point(), osm_id, area=True)


class AdminWays(osmium.SimpleHandler):
    """First pass: the ways that are members of boundary=administrative relations, with their lowest level."""

    def __init__(self):
        super().__init__()
        self.ways = {}

    def relation(self, r):
        if r.tags.get("boundary") != "administrative" or not r.tags.get("admin_level", "").isdigit():
            return
        level = int(r.tags["admin_level"])
        if level > 8:
            return
        for member in r.members:
            if member.type == "w":
                old = self.ways.get(member.ref)
                if old is None or level < old[0]:
                    self.ways[member.ref] = (level, r.tags.get("maritime") == "yes")


def ocean(coastlines, bounds):
    """The sea inside `bounds`, from coastline ways (land on their left): the pieces of the box cut by the
    coastlines that lie to the right of a coastline."""
    if not coastlines:
        return None
    frame = box(*bounds)
    merged = linemerge(unary_union(coastlines))
    # Extracts end coastlines short of the box: extend open ends along their last segment to cross it.
    lines = []
    for line in getattr(merged, "geoms", [merged]):
        coords = list(line.coords)
        if not line.is_closed and len(coords) >= 2:
            def beyond(p, q):  # q moved 1 degree further away from p
                dx, dy = q[0] - p[0], q[1] - p[1]
                length = (dx * dx + dy * dy) ** 0.5 or 1
                return (q[0] + dx / length, q[1] + dy / length)
            coords = [beyond(coords[1], coords[0])] + coords + [beyond(coords[-2], coords[-1])]
        lines.append(LineString(coords))
    merged = unary_union(lines).intersection(frame)
    if len(list(polygonize(unary_union([frame.exterior, merged])))) < 2:
        return None  # the coastline does not split the box: no way to tell sea from land
    pieces = list(polygonize(unary_union([frame.exterior, merged])))
    sea = []
    for piece in pieces:
        probe = piece.representative_point()
        nearest = min((line for line in getattr(merged, "geoms", [merged])), key=lambda l: l.distance(probe))
        d = nearest.project(probe)
        a = nearest.interpolate(max(d - 1e-6, 0))
        b = nearest.interpolate(min(d + 1e-6, nearest.length))
        cross = (b.x - a.x) * (probe.y - a.y) - (b.y - a.y) * (probe.x - a.x)
        if cross < 0:  # right of the coastline: water
            sea.append(piece)
    return unary_union(sea) if sea else None


# The sea around an extract's box, from Natural Earth's 1:10m admin-1 polygons (the finest land the
# project has): a view at the box's edge then shows the sea on, not a beige rectangle. Rings by zoom,
# (minzoom, maxzoom, degrees around the box): deep zooms get a narrow ring (few extra tiles), world zooms a
# wide one. Each zoom carries one sea feature (the box's OpenStreetMap sea joined with its ring), so no
# two sea polygons meet along a seam.
SEA_RINGS = [(0, 9, 3.0), (10, 12, 0.6), (13, MAXZOOM, 0.15)]


def natural_earth_land(shared, bounds, margin):
    """Natural Earth 1:10m admin-1 land within `margin` degrees of `bounds`, as one geometry."""
    from shapely.geometry import shape
    outer = box(bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin)
    with open(os.path.join(shared, "world", "ne_10m_admin1_qgis.geojson"), encoding="utf-8") as f:
        features = json.load(f)["features"]
    parts = []
    for feature in features:
        geometry = shape(feature["geometry"])
        if geometry.intersects(outer):
            parts.append(geometry.buffer(0).intersection(outer))
    return unary_union(parts)


def sea_rings(sea, bounds, land):
    """[(minzoom, maxzoom, geometry)]: the extract's own sea joined with Natural Earth's sea around its box."""
    frame = box(*bounds)
    rings = []
    for minzoom, maxzoom, margin in SEA_RINGS:
        outer = box(bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin)
        around = outer.difference(frame).difference(land)
        joined = unary_union([g for g in (sea, around) if g is not None and not g.is_empty])
        rings.append((minzoom, maxzoom, shapely.set_precision(joined, 1e-7)))
    return rings


def merge_road_names(features):
    """transportation_name as OpenMapTiles builds it: the ways of one road (same class, name, ref, ...) merged
    into continuous lines whatever their direction, so that a road gets its labels and shields every
    symbol-spacing along the whole road instead of once per OpenStreetMap way. Each merged line keeps the
    smallest id of the ways in it; the output order is the input order of each group's first way."""
    groups = {}
    for feature in features:
        key = json.dumps([feature["properties"], feature["tippecanoe"]], sort_keys=True, ensure_ascii=False)
        groups.setdefault(key, []).append(feature)
    merged = []
    for members in groups.values():
        lines = [shapely.geometry.shape(f["geometry"]) for f in members]
        if len(members) == 1:
            merged.append(members[0])
            continue
        result = linemerge(lines, directed=False)
        parts = list(getattr(result, "geoms", [result]))
        for part in parts:
            ids = [f["id"] for f, line in zip(members, lines)
                   if part.distance(shapely.geometry.Point(line.coords[0])) < 1e-12
                   and part.distance(shapely.geometry.Point(line.coords[-1])) < 1e-12]
            merged.append({**members[0], "id": min(ids) if ids else members[0]["id"], "geometry": mapping(part)})
    return merged


def write_truth(mbtiles):
    """fixtures/vectortiles/shipped-truth.json: for every 8th tile, feature counts per layer as PyPI
    mapbox-vector-tile decodes them, so that MapStorageTests check the Swift decoder on the shipped tiles."""
    import gzip

    import mapbox_vector_tile
    with sqlite3.connect(mbtiles) as db:
        rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3").fetchall()
    truth = {}
    for z, x, tms, data in rows[::8]:
        tile = mapbox_vector_tile.decode(gzip.decompress(data))
        truth[f"{z}/{x}/{(1 << z) - 1 - tms}"] = {name: len(layer["features"]) for name, layer in tile.items()}
    with open(os.path.join(REPO, "fixtures", "vectortiles", "shipped-truth.json"), "w") as f:
        json.dump(truth, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", default=os.path.join(REPO, "..", "shared", "data"))
    parser.add_argument("--out", default=os.path.join(REPO, "Sources", "MapBaseMap", "Resources", "vectortiles"))
    parser.add_argument("--fixtures", default=os.path.join(REPO, "fixtures", "vectortiles"))
    args = parser.parse_args()
    extracts = [os.path.join(args.shared, "osm", "andorra-latest.osm.pbf"),
                os.path.join(args.shared, "osm", "monaco-latest.osm.pbf"),
                os.path.join(args.shared, "helsinki", "Helsinki.osm.pbf")]
    work = tempfile.mkdtemp(prefix="make-vector-tiles-")
    features = {layer: [] for layer in LAYERS}
    frames = []
    for path in extracts:
        admin = AdminWays()
        admin.apply_file(path)
        collector = Collector(admin.ways)
        collector.apply_file(path, locations=True)
        header = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
        b = header.header().box()
        header.close()
        bounds = (b.bottom_left.lon, b.bottom_left.lat, b.top_right.lon, b.top_right.lat)
        sea = ocean(collector.coastlines, bounds)
        if sea is not None and not sea.is_empty:
            land = natural_earth_land(args.shared, bounds, SEA_RINGS[0][2])
            for minzoom, maxzoom, geometry in sea_rings(sea, bounds, land):
                collector.add("water", geometry, {"class": "ocean"}, minzoom, 0, maxzoom)
        # The land the tiles know at street zooms: the box and its narrowest sea ring, less the sea.
        margin = SEA_RINGS[-1][2] if sea is not None and not sea.is_empty else 0
        known = box(bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin)
        if margin:
            known = shapely.set_precision(known.difference(sea_rings(sea, bounds, land)[-1][2]), 1e-7)
        frames.append({"type": "Feature", "geometry": mapping(known),
                       "properties": {"name": os.path.basename(path).split("-")[0].split(".")[0].lower()}})
        collector.features["transportation_name"] = merge_road_names(collector.features["transportation_name"])
        for layer in LAYERS:
            features[layer].extend(collector.features[layer])
        print(os.path.basename(path), {k: len(v) for k, v in collector.features.items()}, file=sys.stderr)
    arguments = []
    for layer in LAYERS:
        path = os.path.join(work, layer + ".geojson")
        with open(path, "w") as f:
            json.dump({"type": "FeatureCollection", "features": features[layer]}, f, ensure_ascii=False,
                      sort_keys=True)
        arguments += ["-L", f"{layer}:{layer}.geojson"]
    os.makedirs(args.out, exist_ok=True)
    # The land around each extract as the tiles know it (standard.json paints it over Natural Earth's sea).
    with open(os.path.join(args.out, "extracts.geojson"), "w", encoding="utf-8") as f:
        json.dump({"type": "FeatureCollection", "features": frames}, f, sort_keys=True)
        f.write("\n")
    mbtiles = os.path.join(args.out, "osm-omt.mbtiles")
    os.makedirs(args.fixtures, exist_ok=True)
    pmtiles_path = os.path.join(args.fixtures, "osm-omt.pmtiles")
    for stale in (mbtiles, pmtiles_path):
        if os.path.exists(stale):
            os.remove(stale)
    import cubao_tippecanoe
    tippecanoe = os.path.join(os.path.dirname(cubao_tippecanoe.__file__), "__cubao_tippecanoe_tippecanoe.exe")
    # Features carry their tippecanoe minzoom; -r1 keeps every point at every zoom from there.
    # Relative paths, run in the work folder: the metadata's generator_options stay the same on every machine.
    subprocess.run([tippecanoe, "-o", "osm-omt.mbtiles", "-Z0", f"-z{MAXZOOM}", "-r1", "--no-feature-limit",
                    "--no-tile-size-limit", "--no-tile-stats", "-n", "OpenStreetMap: Andorra, Monaco, Helsinki",
                    "-A", "© OpenStreetMap contributors", "-N", "OpenMapTiles schema subset, made by "
                    "Scripts/make-vector-tiles.py", "--quiet", "--force", *arguments], check=True, cwd=work)
    # tippecanoe's threads insert tiles in varying order: copy them sorted into a fresh file, so that the
    # same input gives the same bytes.
    with sqlite3.connect(os.path.join(work, "osm-omt.mbtiles")) as source, sqlite3.connect(mbtiles) as db:
        db.executescript("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE UNIQUE INDEX name ON metadata (name);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """)
        db.executemany("INSERT INTO metadata VALUES (?, ?)",
                       source.execute("SELECT name, value FROM metadata ORDER BY name").fetchall())
        db.executemany("INSERT INTO tiles VALUES (?, ?, ?, ?)", source.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3").fetchall())
    with sqlite3.connect(mbtiles) as db:
        db.execute("VACUUM")
    from pmtiles.convert import mbtiles_to_pmtiles
    mbtiles_to_pmtiles(mbtiles, pmtiles_path, MAXZOOM)
    shutil.rmtree(work)
    write_truth(mbtiles)
    for path in (mbtiles, pmtiles_path):
        print(f"{os.path.relpath(path, REPO)}: {os.path.getsize(path):,} bytes")


if __name__ == "__main__":
    main()
