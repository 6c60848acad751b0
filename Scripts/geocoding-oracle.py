#!/usr/bin/env python3
"""Independent truth for MapGeocoding, written to fixtures/geocoding/.

Reverse geocoding (reverse-truth.csv): shapely point-in-polygon on the same Natural Earth GeoJSON files and a
scipy k-d tree (unit-sphere vectors, then haversine) over the same GeoNames CSV, applying the rules that
MapGeocoding documents:
  country   the first feature of ne_10m_countries_deu.geojson containing the point (none: at sea)
  admin-1   among the features of ne_10m_admin1_qgis.geojson containing the point, the first of the same
            country (adm0_a3 == the country's ADM0_A3), else the first
  place     among GeoNames places of the country's ISO code: the most populous place of 100,000+ people
            within 5 km (populations from geonames_cities_100k.geojson: same country, same name with accents,
            case and punctuation ignored, nearest within 5 km), else the nearest place within 25 km; ties to the
            nearer, then the earlier row. Points at sea have no place here, even where OSM data would name a
            street (the Swift test compares the Natural Earth answer only)
Points: N uniformly random on the sphere, N within 5 km of a country's boundary (a random point of a random
boundary edge, moved up to 5 km in a random direction). Indexes are 0-based file order, -1 for none.

Forward search (forward.csv): 1,000 random GeoNames places with the query that names them: "name, country",
with the place's admin-1 and admin-2 names added only where another place of that name in that country is
more than 1 km away or a state or country has that name; `ambiguous` marks places that even then share name,
state and county with another place more than 1 km away. Typos (typos.csv): the 100 most populous cities of geonames_cities_100k with one letter
changed, left out, added or swapped, expected at the
coordinates of the same city in the places file (where the name joined; else those of cities_100k). Addresses (addresses.csv): 50 OSM address nodes (Andorra, Monaco,
Helsinki) with no other address within 5 m.

Usage: geocoding-oracle.py [N per half, default 12000] [output folder, default fixtures/geocoding]
        [--subset K: also write reverse-truth.csv with only the first K points of each half]
Needs PyPI shapely, scipy, numpy, osmium. Deterministic (seeded).
"""
import csv
import json
import math
import os
import random
import sys
import unicodedata

import numpy as np
import shapely
from scipy.spatial import cKDTree

DATA = "/work/shared/data"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
N = int(ARGS[0]) if ARGS else 12000
OUT = ARGS[1] if len(ARGS) > 1 else os.path.join(ROOT, "fixtures/geocoding")
SUBSET = None
if "--subset" in sys.argv:
    SUBSET = int(sys.argv[sys.argv.index("--subset") + 1])
R = 6371.0088
D2R = math.pi / 180
ISO2_FIX = {"FRA": "FR", "NOR": "NO", "KOS": "XK"}


def join_key(name):
    text = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


def hav(lat1, lon1, lat2, lon2):
    dlat = (lat2 - lat1) * D2R
    dlon = (lon2 - lon1) * D2R
    s1 = math.sin(dlat / 2)
    s2 = math.sin(dlon / 2)
    h = s1 * s1 + math.cos(lat1 * D2R) * math.cos(lat2 * D2R) * s2 * s2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def xyz(lat, lon):
    lat = np.radians(lat)
    lon = np.radians(lon)
    return np.stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)], axis=-1)


def load_polygons(path):
    fc = json.load(open(path, encoding="utf-8"))
    geoms = [shapely.geometry.shape(f["geometry"]) for f in fc["features"]]
    return fc["features"], geoms


def main():
    rng = random.Random(15)
    countries, cgeoms = load_polygons(os.path.join(DATA, "world/ne_10m_countries_deu.geojson"))
    admins, ageoms = load_polygons(os.path.join(DATA, "world/ne_10m_admin1_qgis.geojson"))
    ctree = shapely.STRtree(cgeoms)
    atree = shapely.STRtree(ageoms)
    rows = list(csv.DictReader(open(os.path.join(DATA, "world/geonames_cities1000_admin.csv"), encoding="utf-8")))
    big = json.load(open(os.path.join(DATA, "world/geonames_cities_100k.geojson"), encoding="utf-8"))
    plat = np.array([float(r["lat"]) for r in rows])
    plon = np.array([float(r["lon"]) for r in rows])
    ptree = cKDTree(xyz(plat, plon))

    # Populations: same cc and name, nearest row within 5 km (ties: lowest row); the largest population wins.
    population = {}
    joined_row = {}
    unjoined = []
    for f in big["features"]:
        p = f["properties"]
        lon, lat = f["geometry"]["coordinates"]
        best = None
        for i in ptree.query_ball_point(xyz(lat, lon), 2 * math.sin(5.5 / R / 2)):
            if rows[i]["cc"] == p["country"] and join_key(rows[i]["name"]) == join_key(p["name"]):
                d = hav(lat, lon, plat[i], plon[i])
                if d < 5 and (best is None or (d, i) < best):
                    best = (d, i)
        if best is not None:
            population[best[1]] = max(population.get(best[1], 0), int(p["population"] or 0))
            joined_row[p["geonameid"]] = best[1]
        else:
            unjoined.append((p["name"], p["country"], lat, lon))

    # Points.
    points = []
    while len(points) < N:
        z = rng.uniform(-1, 1)
        points.append((math.degrees(math.asin(z)), rng.uniform(-180, 180), "random"))
    edges = []
    for g in cgeoms:
        for poly in getattr(g, "geoms", [g]):
            for ring in [poly.exterior, *poly.interiors]:
                edges.append(np.asarray(ring.coords))
    weights = np.array([len(e) for e in edges], dtype=float)
    cum = np.cumsum(weights)
    near = []
    while len(near) < N:
        k = int(np.searchsorted(cum, rng.uniform(0, cum[-1]), side="right"))
        ring = edges[min(k, len(edges) - 1)]
        j = rng.randrange(len(ring) - 1)
        t = rng.random()
        lon = ring[j][0] + t * (ring[j + 1][0] - ring[j][0])
        lat = ring[j][1] + t * (ring[j + 1][1] - ring[j][1])
        dist = rng.uniform(0, 5) / R
        bearing = rng.uniform(0, 2 * math.pi)
        la1, lo1 = math.radians(lat), math.radians(lon)
        la2 = math.asin(math.sin(la1) * math.cos(dist) + math.cos(la1) * math.sin(dist) * math.cos(bearing))
        lo2 = lo1 + math.atan2(math.sin(bearing) * math.sin(dist) * math.cos(la1),
                               math.cos(dist) - math.sin(la1) * math.sin(la2))
        lat2, lon2 = math.degrees(la2), (math.degrees(lo2) + 540) % 360 - 180
        if abs(lat2) <= 90:
            near.append((lat2, lon2, "border"))
    points += near

    pts = shapely.points([p[1] for p in points], [p[0] for p in points])
    cpairs = ctree.query(pts, predicate="intersects")
    apairs = atree.query(pts, predicate="intersects")
    cin = [[] for _ in points]
    for pi, fi in zip(*cpairs):
        cin[pi].append(int(fi))
    ain = [[] for _ in points]
    for pi, fi in zip(*apairs):
        ain[pi].append(int(fi))

    chord25 = 2 * math.sin(25.5 / R / 2)
    out_rows = []
    for k, (lat, lon, kind) in enumerate(points):
        c = min(cin[k]) if cin[k] else -1
        a = -1
        place = -1
        if c >= 0:
            cp = countries[c]["properties"]
            cands = sorted(ain[k])
            same = [i for i in cands if admins[i]["properties"]["adm0_a3"] == cp["ADM0_A3"]]
            a = same[0] if same else (cands[0] if cands else -1)
            iso2 = ISO2_FIX.get(cp["ADM0_A3"], cp["ISO_A2"])
            if iso2 not in (None, "-99"):
                best = None
                best_big = None
                for i in ptree.query_ball_point(xyz(lat, lon), chord25):
                    if rows[i]["cc"] != iso2:
                        continue
                    d = hav(lat, lon, plat[i], plon[i])
                    if d <= 25 and (best is None or (d, i) < best):
                        best = (d, i)
                    pop = population.get(i, 0)
                    if pop >= 100_000 and d <= 5 and (best_big is None or (-pop, d, i) < best_big):
                        best_big = (-pop, d, i)
                place = best_big[2] if best_big else (best[1] if best else -1)
        out_rows.append((repr(lat), repr(lon), kind, c, a, place,
                         countries[c]["properties"]["NAME_LONG"] if c >= 0 else "",
                         admins[a]["properties"]["name"] if a >= 0 else "",
                         rows[place]["name"] if place >= 0 else ""))

    os.makedirs(OUT, exist_ok=True)
    header = ["lat", "lon", "kind", "country", "admin1", "place", "country_name", "admin1_name", "place_name"]

    def write(path, selected):
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(selected)

    if SUBSET:
        write(os.path.join(OUT, "reverse-truth.csv"), out_rows[:SUBSET] + out_rows[N:N + SUBSET])
        write(os.path.join("/tmp", "geocoding-reverse-truth-full.csv"), out_rows)
    else:
        write(os.path.join(OUT, "reverse-truth.csv"), out_rows)
    sea = sum(1 for r in out_rows if r[3] == -1)
    print(f"reverse: {len(out_rows)} points ({N} random, {N} within 5 km of a border or coast), {sea} at sea")

    # Forward search.
    name_of_cc = {}
    for f in countries:
        p = f["properties"]
        iso2 = ISO2_FIX.get(p["ADM0_A3"], p["ISO_A2"])
        if iso2 not in (None, "-99") and iso2 not in name_of_cc:
            name_of_cc[iso2] = p["NAME_LONG"]

    def norm(s):
        return " ".join("".join(ch.lower() if ch.isalnum() else " " for ch in s).split())

    by_name_cc = {}
    for i, r in enumerate(rows):
        by_name_cc.setdefault((norm(r["name"]), r["cc"]), []).append(i)
    area_names = {join_key(f["properties"]["name"] or "") for f in admins}
    area_names |= {join_key(f["properties"]["NAME_LONG"] or "") for f in countries}
    frng = random.Random(1015)
    fwd = []
    qualified = 0
    ambiguous = 0
    while len(fwd) < 1000:
        i = frng.randrange(len(rows))
        r = rows[i]
        if r["cc"] not in name_of_cc or not norm(r["name"]):
            continue
        others = [j for j in by_name_cc[(norm(r["name"]), r["cc"])]
                  if j != i and hav(plat[i], plon[i], plat[j], plon[j]) > 1]
        # Cities of 100,000+ not joined to a place are searched under their own name too.
        alias = any(join_key(a[0]) == join_key(r["name"]) and a[1] == r["cc"] and hav(plat[i], plon[i], a[2], a[3]) > 1
                    for a in unjoined)
        parts = [r["name"]]
        if others or alias or join_key(r["name"]) in area_names:
            qualified += 1
            parts += [x for x in (r["admin1"], r["admin2"]) if x]
        parts.append(name_of_cc[r["cc"]])
        # Still ambiguous: another place of the same name, state and county more than 1 km away.
        same = any(rows[j]["admin1"] == r["admin1"] and rows[j]["admin2"] == r["admin2"] for j in others)
        ambiguous += same
        fwd.append((", ".join(parts), repr(float(plat[i])), repr(float(plon[i])), int(same)))
    with open(os.path.join(OUT, "forward.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["query", "lat", "lon", "ambiguous"])
        w.writerows(fwd)
    print(f"forward: 1000 queries, {qualified} with admin names added (another place of that name in the country, "
          f"or a state or country of that name), {ambiguous} still ambiguous (same name, state and county)")

    trng = random.Random(2015)
    typos = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    for f in big["features"][:100]:
        name = f["properties"]["name"]
        lon, lat = f["geometry"]["coordinates"]
        # The same city in the places file, where it joined (the two GeoNames snapshots differ by a few km).
        if f["properties"]["geonameid"] in joined_row:
            j = joined_row[f["properties"]["geonameid"]]
            lat, lon = float(plat[j]), float(plon[j])
        while True:
            chars = list(name)
            pos = [k for k, ch in enumerate(chars) if ch.isalpha()]
            k = trng.choice(pos)
            op = trng.choice(["replace", "delete", "insert", "swap"])
            if op == "replace":
                chars[k] = trng.choice([c for c in letters if c != chars[k].lower()])
            elif op == "delete":
                del chars[k]
            elif op == "insert":
                chars.insert(k, trng.choice(letters))
            elif k + 1 < len(chars) and chars[k + 1].isalpha() and chars[k] != chars[k + 1]:
                chars[k], chars[k + 1] = chars[k + 1], chars[k]
            else:
                continue
            typo = "".join(chars)
            if norm(typo) != norm(name) and len(norm(typo)) >= 3:
                break
        typos.append((typo, name, repr(lat), repr(lon)))
    with open(os.path.join(OUT, "typos.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["query", "name", "lat", "lon"])
        w.writerows(typos)
    print("typos: 100")

    import osmium

    addresses = []
    for path in [os.path.join(DATA, "osm/andorra-latest.osm.pbf"), os.path.join(DATA, "osm/monaco-latest.osm.pbf"),
                 os.path.join(DATA, "helsinki/Helsinki.osm.pbf")]:
        for n in osmium.FileProcessor(path, osmium.osm.NODE):
            t = n.tags
            if "addr:housenumber" in t and "addr:street" in t:
                addresses.append((os.path.basename(path), n.location.lat, n.location.lon, t["addr:street"],
                                  t["addr:housenumber"], t.get("addr:postcode", "")))
    # Every address point (nodes and building centroids) to check for neighbours: both count.
    allpts = [(a[1], a[2], a[3], a[4]) for a in addresses]
    chosen = []
    arng = random.Random(3015)
    order = list(range(len(addresses)))
    arng.shuffle(order)
    per_file = {}
    for i in order:
        a = addresses[i]
        if per_file.get(a[0], 0) >= 17:
            continue
        if any((b[2], b[3]) != (a[3], a[4]) and hav(a[1], a[2], b[0], b[1]) * 1000 < 5 for b in allpts):
            continue
        chosen.append(a)
        per_file[a[0]] = per_file.get(a[0], 0) + 1
        if len(chosen) == 50:
            break
    with open(os.path.join(OUT, "addresses.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["file", "lat", "lon", "street", "housenumber", "postcode"])
        for a in chosen:
            w.writerow([a[0], repr(a[1]), repr(a[2]), a[3], a[4], a[5]])
    print(f"addresses: {len(chosen)} ({per_file})")


if __name__ == "__main__":
    main()
