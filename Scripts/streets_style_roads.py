"""The road layers of the streets style (Scripts/make-streets-style.py): road classes with their draw order,
widths, fill and casing colours and first zooms; roads by class with casings (tunnels, ground, bridges),
tracks and paths, rail, trams, aerial lifts and ferries; and the zoom() and by_class() expressions they are
built with, which the rest of the style uses too. Zoom levels are MapLibre's.
"""


def zoom(*stops, base=1.0):
    """An interpolate over the zoom: zoom(5, 0.5, 10, 2) or with base > 1 exponential."""
    curve = ["linear"] if base == 1.0 else ["exponential", base]
    return ["interpolate", curve, ["zoom"], *stops]


def by_class(values, default, key="class"):
    """A match on a property: {"motorway": 3, ...} -> ["match", ["get", key], "motorway", 3, ..., default]."""
    expr = ["match", ["get", key]]
    for k, v in values.items():
        expr += [k, v]
    return expr + [default]


# Road classes, lowest to highest: the order they draw in (sort key) and their widths (points, at
# MapLibre zooms 10, 13, 16, 19 for the fill; the casing is 1.2-2 points wider).
ROADS = ["service", "minor", "tertiary", "secondary", "primary", "trunk", "motorway"]
RANK = {c: i for i, c in enumerate(ROADS)}
WIDTH = {  # zoom: {class: fill width}
    8: {"motorway": 1.0, "trunk": 0.9, "primary": 0.7, "secondary": 0.4, "tertiary": 0.2, "minor": 0.1, "service": 0.1},
    11: {"motorway": 2.2, "trunk": 2.0, "primary": 1.8, "secondary": 1.4, "tertiary": 1.0, "minor": 0.6, "service": 0.3},
    14: {"motorway": 6.0, "trunk": 5.5, "primary": 5.0, "secondary": 4.4, "tertiary": 3.8, "minor": 3.0, "service": 1.6},
    17: {"motorway": 20, "trunk": 18, "primary": 16, "secondary": 14, "tertiary": 12, "minor": 10, "service": 5},
    20: {"motorway": 48, "trunk": 44, "primary": 40, "secondary": 36, "tertiary": 30, "minor": 26, "service": 14},
}
FILL = {
    "motorway": "#f7b36b", "trunk": "#fbc883", "primary": "#fde3a0", "secondary": "#fdf2b8",
    "tertiary": "#ffffff", "minor": "#ffffff", "service": "#ffffff",
}
CASING = {
    "motorway": "#d3884a", "trunk": "#cf9a5c", "primary": "#cfa865", "secondary": "#c2b27c",
    "tertiary": "#c9beb2", "minor": "#cfc5ba", "service": "#d6cdc3",
}
ROAD_MINZOOM = {"motorway": 4, "trunk": 5, "primary": 7, "secondary": 9, "tertiary": 10, "minor": 12, "service": 13}


def road_width(extra=0.0):
    stops = []
    for z in sorted(WIDTH):
        w = {c: round(v + (extra if z >= 11 else extra * 0.4), 2) for c, v in WIDTH[z].items()}
        stops += [z, by_class({c: w[c] for c in ROADS if c != "service"}, w["service"])]
    return zoom(*stops, base=1.3)


def road_filter(brunnel):
    cls = ["match", ["get", "class"], ROADS, True, False]
    if brunnel == "tunnel":
        where = ["==", ["get", "brunnel"], "tunnel"]
    elif brunnel == "bridge":
        where = ["==", ["get", "brunnel"], "bridge"]
    else:
        where = ["!", ["match", ["get", "brunnel"], ["tunnel", "bridge"], True, False]]
    # Each class from its own zoom.
    visible = [">=", ["zoom"], ["match", ["get", "class"], *sum(([c, ROAD_MINZOOM[c]] for c in ROADS), []), 99]]
    return ["all", ["==", ["geometry-type"], "LineString"], cls, where, visible]


def road_layers(brunnel, minzoom=None):
    sort = ["match", ["get", "class"], *sum(([c, RANK[c]] for c in ROADS), []), 0]
    suffix = {"tunnel": "tunnel-", "bridge": "bridge-", "ground": ""}[brunnel]
    casing = {
        "id": f"road-{suffix}casing",
        "type": "line",
        "source": "openmaptiles",
        "source-layer": "transportation",
        "filter": road_filter(brunnel),
        "layout": {"line-cap": "butt" if brunnel != "ground" else "round", "line-join": "round", "line-sort-key": sort},
        "paint": {
            "line-color": by_class({c: CASING[c] for c in ROADS if c != "service"}, CASING["service"]),
            "line-width": road_width(2.0),
            "line-opacity": zoom(6, 0, 7, 1),
        },
    }
    fill = {
        "id": f"road-{suffix}fill",
        "type": "line",
        "source": "openmaptiles",
        "source-layer": "transportation",
        "filter": road_filter(brunnel),
        "layout": {"line-cap": "round", "line-join": "round", "line-sort-key": sort},
        "paint": {
            "line-color": by_class({c: FILL[c] for c in ROADS if c != "service"}, FILL["service"]),
            "line-width": road_width(),
        },
    }
    if brunnel == "tunnel":
        casing["paint"]["line-dasharray"] = [0.5, 0.5]
        casing["paint"]["line-opacity"] = 0.45
        fill["paint"]["line-opacity"] = 0.45
        fill["layout"]["line-cap"] = "butt"
        casing["minzoom"] = fill["minzoom"] = 11
    if brunnel == "bridge":
        casing["paint"]["line-color"] = "#a8998a"
        casing["minzoom"] = fill["minzoom"] = 11
    return [casing, fill]


def path_layers(brunnel):
    where = ["==", ["get", "brunnel"], brunnel] if brunnel != "ground" else [
        "!", ["match", ["get", "brunnel"], ["tunnel", "bridge"], True, False]]
    suffix = {"tunnel": "-tunnel", "bridge": "-bridge", "ground": ""}[brunnel]
    layers = []
    if brunnel == "bridge":
        layers.append({
            "id": "path-bridge-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
            "minzoom": 14,
            "filter": ["all", ["==", ["get", "class"], "path"], where],
            "paint": {"line-color": "#d8cfc4", "line-width": zoom(14, 3, 18, 7, base=1.3)},
        })
    layers.append({
        "id": f"track{suffix}", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
        "minzoom": 12,
        "filter": ["all", ["==", ["get", "class"], "track"], where],
        "layout": {"line-join": "round"},
        "paint": {"line-color": "#b89c70", "line-width": zoom(12, 0.8, 18, 3, base=1.3),
                  "line-dasharray": [3, 1.5], "line-opacity": 0.6 if brunnel == "tunnel" else 1},
    })
    layers.append({
        "id": f"path{suffix}", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
        "minzoom": 13,
        "filter": ["all", ["==", ["get", "class"], "path"], where],
        "layout": {"line-join": "round"},
        "paint": {
            "line-color": by_class({"cycleway": "#6e8fc0", "steps": "#b07868"}, "#a58e78", key="subclass"),
            "line-width": zoom(13, 0.7, 18, 2.2, base=1.3),
            "line-dasharray": [2, 1.2], "line-opacity": 0.6 if brunnel == "tunnel" else 1,
        },
    })
    return layers


def rail_layers():
    rail = ["all", ["==", ["get", "class"], "rail"], ["!=", ["get", "brunnel"], "tunnel"]]
    return [
        {"id": "rail", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 9,
         "filter": rail, "paint": {"line-color": "#a09a94", "line-width": zoom(9, 0.6, 16, 3, base=1.3)}},
        {"id": "rail-hatch", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "minzoom": 13, "filter": rail,
         "paint": {"line-color": "#ffffff", "line-width": zoom(13, 0.6, 16, 1.6, base=1.3),
                   "line-dasharray": [3, 3]}},
        {"id": "transit", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
         "filter": ["all", ["==", ["get", "class"], "transit"], ["!=", ["get", "brunnel"], "tunnel"]],
         "paint": {"line-color": "#9a8fa6", "line-width": zoom(13, 0.6, 18, 2, base=1.3)}},
        {"id": "aerialway", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "minzoom": 12, "filter": ["==", ["get", "class"], "aerialway"],
         "paint": {"line-color": "#8a8580", "line-width": zoom(12, 0.6, 18, 1.5)}},
        {"id": "ferry", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 10,
         "filter": ["==", ["get", "class"], "ferry"],
         "paint": {"line-color": "#6d9cc2", "line-width": 1.1, "line-dasharray": [2, 2]}},
    ]
