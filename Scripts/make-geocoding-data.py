#!/usr/bin/env python3
"""Builds Sources/MapGeocoding/Resources/geocoding/geocoding.bin, the offline geocoder's data.

Reads /work/shared/data (or the folder given as the first argument):
  world/ne_10m_countries_deu.geojson   Natural Earth 1:10m countries (public domain)
  world/ne_10m_admin1_qgis.geojson     Natural Earth 1:10m admin-1, QGIS generalization (public domain)
  world/geonames_cities1000_admin.csv  GeoNames places of 1,000+ people (CC BY 4.0)
  world/geonames_cities_100k.geojson   GeoNames populations and heuristic Japanese names (CC BY 4.0)
  osm/*.osm.pbf, helsinki/Helsinki.osm.pbf   OpenStreetMap (ODbL): addr:* points, named highways

Needs PyPI `osmium`. Deterministic: the same input gives the same bytes.

File format (all integers are unsigned LEB128 varints unless said otherwise; "zz" = zigzag-encoded signed):
  magic  8 bytes  "MRGEO\\x00\\x01\\x00"
  strings        count, then per string: byte length, UTF-8 bytes. String 0 is "".
  countries      count, then per country: name, nameJa, iso2, iso3, adm0_a3 (string indices), geometry
  admin1         count, then per area: name, adm0_a3 (string indices), geometry
  geometry       ring count, then per ring: vertex count (>= 4, closed), then vertices as zz deltas of
                 (longitude, latitude) in micro-degrees from the previous vertex (the first from 0,0)
  places         count, then per place: zz delta lon, zz delta lat (micro-degrees, from the previous place),
                 name, admin1, admin2, cc, nameJa (string indices), population (0 = unknown, < 1e5)
  aliases        count, then per alias (a GeoNames city of 100,000+ whose name did not join a place above):
                 zz delta lon, zz delta lat, name, cc, nameJa (string indices), population; forward search only
  addresses      count, then per address: zz delta lon, zz delta lat, street, housenumber, postcode
  streets        count, then per street: name (string index), vertex count (>= 2), zz deltas as in rings
  coverage       count, then per box: zz west, zz south, zz east, zz north (micro-degrees), cc (string index):
                 the extent of each OSM extract and the country it covers
Coordinates in the sources have 6 decimals, so micro-degrees keep them exactly: the polygons answered are
the polygons in the GeoJSON files, vertex for vertex.
"""
import csv
import json
import math
import os
import sys
import unicodedata

DATA = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/MapGeocoding/Resources/geocoding/geocoding.bin")

# Natural Earth leaves ISO_A2 at -99 for these three; their codes are not in dispute.
ISO2_FIX = {"FRA": "FR", "NOR": "NO", "KOS": "XK"}
ISO3_FIX = {"FRA": "FRA", "NOR": "NOR", "KOS": "XKX"}


def micro(v):
    return int(round(v * 1_000_000))


class Writer:
    def __init__(self):
        self.out = bytearray()
        self.strings = {"": 0}
        self.string_list = [""]

    def s(self, text):
        text = text or ""
        if text not in self.strings:
            self.strings[text] = len(self.string_list)
            self.string_list.append(text)
        return self.strings[text]


def uvar(buf, v):
    assert v >= 0
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            buf.append(b | 0x80)
        else:
            buf.append(b)
            return


def zz(buf, v):
    uvar(buf, (v << 1) if v >= 0 else ((-v << 1) - 1))


def rings_of(geometry):
    t = geometry["type"]
    polys = [geometry["coordinates"]] if t == "Polygon" else geometry["coordinates"] if t == "MultiPolygon" else []
    rings = []
    for poly in polys:
        for ring in poly:
            pts = [(micro(x), micro(y)) for x, y in ring]
            if pts[0] != pts[-1]:
                pts.append(pts[0])
            if len(pts) >= 4:
                rings.append(pts)
    return rings


def geometry_bytes(buf, rings):
    uvar(buf, len(rings))
    for ring in rings:
        uvar(buf, len(ring))
        px = py = 0
        for x, y in ring:
            zz(buf, x - px)
            zz(buf, y - py)
            px, py = x, y


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def join_key(name):
    """Names compared for the join: accents dropped, case folded, anything but letters and digits a space."""
    text = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


def join_populations(rows, big):
    """Population and Japanese name of cities1000 rows from cities_100k: same cc, same name (join_key), nearest
    within 5 km (ties: lowest row). Returns ({row index: (population, name_ja)}, [unjoined features])."""
    by_key = {}
    for i, r in enumerate(rows):
        by_key.setdefault((r["cc"], join_key(r["name"])), []).append(i)
    joined = {}
    unjoined = []
    for f in big["features"]:
        p = f["properties"]
        lon, lat = f["geometry"]["coordinates"]
        best = None
        for i in by_key.get((p["country"], join_key(p["name"])), []):
            d = haversine_km(lat, lon, float(rows[i]["lat"]), float(rows[i]["lon"]))
            if d < 5 and (best is None or d < best[0]):
                best = (d, i)
        if best is not None:
            i = best[1]
            pop = int(p["population"] or 0)
            if i not in joined or joined[i][0] < pop:
                joined[i] = (pop, p.get("name_ja_guess") or "")
        else:
            unjoined.append(f)
    return joined, unjoined


def osm_features(paths):
    import osmium

    addresses, streets = [], []

    class H(osmium.SimpleHandler):
        def node(self, n):
            t = n.tags
            if "addr:housenumber" in t and "addr:street" in t and n.location.valid():
                addresses.append((micro(n.location.lon), micro(n.location.lat), t["addr:street"],
                                  t["addr:housenumber"], t.get("addr:postcode", "")))

        def way(self, w):
            t = w.tags
            pts = [(micro(nd.lon), micro(nd.lat)) for nd in w.nodes if nd.location.valid()]
            if not pts:
                return
            if "addr:housenumber" in t and "addr:street" in t:
                ring = pts[:-1] if len(pts) > 1 and pts[0] == pts[-1] else pts
                cx = round(sum(p[0] for p in ring) / len(ring))
                cy = round(sum(p[1] for p in ring) / len(ring))
                addresses.append((cx, cy, t["addr:street"], t["addr:housenumber"], t.get("addr:postcode", "")))
            if "highway" in t and "name" in t and len(pts) >= 2 and t.get("area") != "yes":
                dedup = [pts[0]] + [b for a, b in zip(pts, pts[1:]) if a != b]
                if len(dedup) >= 2:
                    streets.append((t["name"], dedup))

    boxes = []
    for path, cc in paths:
        a0, s0 = len(addresses), len(streets)
        H().apply_file(path, locations=True)
        xs = [a[0] for a in addresses[a0:]] + [p[0] for s in streets[s0:] for p in s[1]]
        ys = [a[1] for a in addresses[a0:]] + [p[1] for s in streets[s0:] for p in s[1]]
        if xs:
            boxes.append((min(xs), min(ys), max(xs), max(ys), cc))
        print(f"  {os.path.basename(path)}: {len(addresses) - a0} addresses, {len(streets) - s0} named highways")
    # Deterministic order: sorted.
    addresses.sort()
    streets.sort()
    return addresses, streets, boxes


def main():
    w = Writer()
    body = bytearray()
    countries = json.load(open(os.path.join(DATA, "world/ne_10m_countries_deu.geojson"), encoding="utf-8"))
    uvar(body, len(countries["features"]))
    nvert = 0
    for f in countries["features"]:
        p = f["properties"]
        a3 = p["ADM0_A3"]
        iso2 = ISO2_FIX.get(a3, p["ISO_A2"])
        iso3 = ISO3_FIX.get(a3, p["ISO_A3"])
        iso2 = "" if iso2 in (None, "-99") else iso2
        iso3 = "" if iso3 in (None, "-99") else iso3
        for v in (p["NAME_LONG"], p.get("NAME_JA") or "", iso2, iso3, a3):
            uvar(body, w.s(v))
        rings = rings_of(f["geometry"])
        nvert += sum(len(r) for r in rings)
        geometry_bytes(body, rings)
    admin1 = json.load(open(os.path.join(DATA, "world/ne_10m_admin1_qgis.geojson"), encoding="utf-8"))
    uvar(body, len(admin1["features"]))
    for f in admin1["features"]:
        p = f["properties"]
        uvar(body, w.s(p["name"] or ""))
        uvar(body, w.s(p["adm0_a3"] or ""))
        rings = rings_of(f["geometry"])
        nvert += sum(len(r) for r in rings)
        geometry_bytes(body, rings)
    rows = list(csv.DictReader(open(os.path.join(DATA, "world/geonames_cities1000_admin.csv"), encoding="utf-8")))
    big = json.load(open(os.path.join(DATA, "world/geonames_cities_100k.geojson"), encoding="utf-8"))
    joined, unjoined = join_populations(rows, big)
    uvar(body, len(rows))
    px = py = 0
    for i, r in enumerate(rows):
        x, y = micro(float(r["lon"])), micro(float(r["lat"]))
        zz(body, x - px)
        zz(body, y - py)
        px, py = x, y
        pop, ja = joined.get(i, (0, ""))
        for v in (r["name"], r["admin1"], r["admin2"], r["cc"], ja):
            uvar(body, w.s(v))
        uvar(body, pop)
    uvar(body, len(unjoined))
    px = py = 0
    for f in unjoined:
        p = f["properties"]
        x, y = micro(f["geometry"]["coordinates"][0]), micro(f["geometry"]["coordinates"][1])
        zz(body, x - px)
        zz(body, y - py)
        px, py = x, y
        for v in (p["name"], p["country"], p.get("name_ja_guess") or ""):
            uvar(body, w.s(v))
        uvar(body, int(p["population"] or 0))
    # The OSM extracts and the country each covers.
    pbfs = [(os.path.join(DATA, "osm/andorra-latest.osm.pbf"), "AD"), (os.path.join(DATA, "osm/monaco-latest.osm.pbf"), "MC"),
            (os.path.join(DATA, "helsinki/Helsinki.osm.pbf"), "FI")]
    addresses, streets, boxes = osm_features(pbfs)
    uvar(body, len(addresses))
    px = py = 0
    for x, y, street, number, postcode in addresses:
        zz(body, x - px)
        zz(body, y - py)
        px, py = x, y
        for v in (street, number, postcode):
            uvar(body, w.s(v))
    uvar(body, len(streets))
    for name, pts in streets:
        uvar(body, w.s(name))
        uvar(body, len(pts))
        px = py = 0
        for x, y in pts:
            zz(body, x - px)
            zz(body, y - py)
            px, py = x, y
    uvar(body, len(boxes))
    for box in boxes:
        for v in box[:4]:
            zz(body, v)
        uvar(body, w.s(box[4]))

    out = bytearray(b"MRGEO\x00\x01\x00")
    uvar(out, len(w.string_list))
    for text in w.string_list:
        raw = text.encode("utf-8")
        uvar(out, len(raw))
        out += raw
    out += body
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as fh:
        fh.write(out)
    print(f"{OUT}: {len(out):,} bytes; {len(countries['features'])} countries, {len(admin1['features'])} admin-1, "
          f"{nvert:,} polygon vertices, {len(rows):,} places ({len(joined):,} with population, {len(unjoined)} aliases), "
          f"{len(addresses):,} addresses, {len(streets):,} named highways, {len(w.string_list):,} strings")


if __name__ == "__main__":
    main()
