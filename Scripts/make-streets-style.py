#!/usr/bin/env python3
"""Writes the shipped `streets` style (Sources/MapBaseMap/Resources/styles/streets.json) and adds the same
street layers to `standard.json` (between its Natural Earth land and its borders, from MapLibre zoom 12).

The streets style is this project's own, for the OpenMapTiles schema (water, waterway, landcover, landuse,
park, building, transportation, transportation_name, boundary, aeroway, place, poi, housenumber,
mountain_peak), in the spirit of OSM Bright: a warm light land, blue water, green parks and woods, roads
by class with casings (tunnels dashed and faded, bridges with their own casing above everything on the
ground), paths dashed, rails, boundaries, place labels, road names along the roads, POI names, house
numbers and mountain peaks. Natural Earth (the generated world layers) draws the
world zooms (MapLibre 0-7) so that zooms 2-6 are not empty.

Zoom levels are MapLibre's (MapRaster's --zoom minus 1). Deterministic: run it again and the files do not
change. Usage: python3 Scripts/make-streets-style.py [--icons [--ship]]; the shipped styles are made with
`--icons --ship` (without any option it writes text-only versions of them, without sprite).

--icons: the symbol layers with the sprite drawn for MapRaster (styles/sprites/, made by
Scripts/make-sprite.py): POI icons by class (an SDF dot tinted by class as the fallback), transit stations
above them, airports, peaks with a triangle and their elevation, capital and city dots, road shields (the
SDF shield fitted to the ref), `text-variable-anchor` for place labels, bilingual labels with `format`
(`name:latin` over a smaller `name:nonlatin`, as OSM Bright does) and the font stacks by face name
("DejaVu Sans Book", "DejaVu Sans Bold"). `--icons --ship` writes the shipped styles; `--icons` alone writes styles/streets-icons.json.draft (sprite "sprites/streets", relative to
styles/, not committed) to review a change before shipping it. The sprite ships next to the styles, in
Sources/MapBaseMap/Resources/styles/sprites/ (see Notes/streets-sprite.md).

The road layers (classes, widths, colours, casings, paths, rail) and the zoom() and by_class() expressions
are in Scripts/streets_style_roads.py, beside this script.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from streets_style_dark import dark_variant  # noqa: E402
from streets_style_roads import (CASING, RANK, ROADS, by_class, path_layers, rail_layers,  # noqa: E402
                                 road_layers, zoom)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STYLES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles")

OSM = "© OpenStreetMap contributors"
NE = "Made with Natural Earth"
FONT = ["DejaVu Sans"]
BOLD = ["DejaVu Sans Bold"]
# With --icons: font stacks by face name (family and style), as MapLibre styles name them.
ICON_FONT = ["DejaVu Sans Book"]
ICON_BOLD = ["DejaVu Sans Bold"]
ICONS = False  # set by --icons
SPRITE = "sprites/streets"  # relative to the style file

LAND = "#f4f0e8"
OCEAN = "#a5c9e0"
WATER = "#a5c9e0"
WATER_LINE = "#8cb8d6"


def natural_earth(prefix):
    """The world zooms: ocean background, land, lakes, rivers, borders (MapLibre zooms 0-7)."""
    return [
        {"id": "ne-land-110m", "type": "fill", "source": "countries110", "maxzoom": 1,
         "paint": {"fill-color": LAND}},
        {"id": "ne-land-50m", "type": "fill", "source": "countries50", "minzoom": 1, "maxzoom": 8,
         "paint": {"fill-color": LAND}},
        {"id": "ne-lakes", "type": "fill", "source": "lakes50", "minzoom": 1, "maxzoom": 8,
         "paint": {"fill-color": WATER}},
        {"id": "ne-rivers", "type": "line", "source": "rivers50", "minzoom": 2, "maxzoom": 8,
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": WATER, "line-width": zoom(2, 0.5, 7, 1.8)}},
    ]


def streets_layers(minzoom=0):
    """The layers over the vector tiles. With minzoom, every layer starts there at the earliest."""
    src = {"source": "openmaptiles"}
    L = []
    L.append({"id": "landcover-wood", "type": "fill", **src, "source-layer": "landcover",
              "filter": ["==", ["get", "class"], "wood"],
              "paint": {"fill-color": "#cfe2bd", "fill-opacity": zoom(8, 0.5, 13, 0.9)}})
    L.append({"id": "landcover", "type": "fill", **src, "source-layer": "landcover",
              "filter": ["match", ["get", "class"], ["grass", "farmland", "rock", "wetland", "sand", "ice"], True, False],
              "paint": {
                  "fill-color": by_class({"grass": "#dcebc8", "farmland": "#eef0d6", "rock": "#e3dfd8",
                                          "wetland": "#d5e6dc", "sand": "#f2e8c4", "ice": "#f2f6fa"}, "#e6ead6"),
                  "fill-opacity": zoom(8, 0.6, 13, 1)}})
    L.append({"id": "landuse", "type": "fill", **src, "source-layer": "landuse",
              "filter": ["match", ["get", "class"], ["residential", "suburb", "neighbourhood"], False, True],
              "paint": {"fill-color": by_class({
                  "commercial": "#f2e4e1", "retail": "#f2e0dc", "industrial": "#ebe2ea", "railway": "#e9e4e8",
                  "cemetery": "#d3e2cc", "school": "#f0e8d4", "university": "#f0e8d4", "college": "#f0e8d4",
                  "kindergarten": "#f0e8d4", "hospital": "#f5dede", "library": "#f0e8d4",
                  "pitch": "#c9e6c0", "stadium": "#d2ead0", "playground": "#d6f0d0", "track": "#d6e6c8",
                  "theme_park": "#e6eccf", "military": "#efdcd8", "quarry": "#e0dcd8"}, "#ebe7df")}})
    if ICONS:
        # Patterns from the sprite over their colour, from zoom 13 (MapLibre 12), aligned to the map.
        L.append({"id": "landcover-wetland-pattern", "type": "fill", **src, "source-layer": "landcover", "minzoom": 12,
                  "filter": ["==", ["get", "class"], "wetland"], "paint": {"fill-pattern": "wetland"}})
        L.append({"id": "landuse-cemetery-pattern", "type": "fill", **src, "source-layer": "landuse", "minzoom": 12,
                  "filter": ["==", ["get", "class"], "cemetery"], "paint": {"fill-pattern": "cemetery"}})
    L.append({"id": "landuse-residential", "type": "fill", **src, "source-layer": "landuse", "minzoom": 9,
              "filter": ["==", ["get", "class"], "residential"],
              "paint": {"fill-color": "#ece8e2", "fill-opacity": zoom(9, 0.5, 13, 1)}})
    L.append({"id": "park", "type": "fill", **src, "source-layer": "park",
              "paint": {"fill-color": "#d2e6bd", "fill-opacity": 0.35}})
    L.append({"id": "park-outline", "type": "line", **src, "source-layer": "park", "minzoom": 9,
              "paint": {"line-color": "#9cc484", "line-width": zoom(9, 0.5, 14, 1.2), "line-dasharray": [3, 2]}})
    L.append({"id": "waterway", "type": "line", **src, "source-layer": "waterway",
              "filter": ["!=", ["get", "brunnel"], "tunnel"],
              "layout": {"line-cap": "round", "line-join": "round"},
              "paint": {"line-color": WATER_LINE, "line-width": zoom(8, by_class({"river": 0.8}, 0.3),
                                                                     13, by_class({"river": 2.5, "canal": 2}, 1),
                                                                     18, by_class({"river": 8, "canal": 6}, 3), base=1.3)}})
    L.append({"id": "water", "type": "fill", **src, "source-layer": "water",
              "filter": ["!=", ["get", "intermittent"], 1],
              "paint": {"fill-color": WATER}})
    L.append({"id": "water-intermittent", "type": "fill", **src, "source-layer": "water",
              "filter": ["==", ["get", "intermittent"], 1],
              "paint": {"fill-color": WATER, "fill-opacity": 0.5}})
    L.append({"id": "aeroway-area", "type": "fill", **src, "source-layer": "aeroway", "minzoom": 11,
              "filter": ["==", ["geometry-type"], "Polygon"],
              "paint": {"fill-color": by_class({"runway": "#d8d4dc", "taxiway": "#d8d4dc"}, "#e4e0e8")}})
    L.append({"id": "aeroway-runway", "type": "line", **src, "source-layer": "aeroway", "minzoom": 11,
              "filter": ["all", ["==", ["geometry-type"], "LineString"],
                         ["match", ["get", "class"], ["runway", "taxiway"], True, False]],
              "paint": {"line-color": "#cfcad6",
                        "line-width": zoom(11, by_class({"runway": 3}, 1), 17, by_class({"runway": 40}, 12), base=1.5)}})
    L.append({"id": "aeroway-helipad", "type": "circle", **src, "source-layer": "aeroway", "minzoom": 15,
              "filter": ["all", ["==", ["geometry-type"], "Point"], ["==", ["get", "class"], "helipad"]],
              "paint": {"circle-radius": zoom(15, 3, 18, 6), "circle-color": "#e4e0e8",
                        "circle-stroke-color": "#a59fb2", "circle-stroke-width": 1}})
    L.append({"id": "building", "type": "fill", **src, "source-layer": "building", "minzoom": 13,
              "paint": {"fill-color": "#dfd7cd", "fill-opacity": zoom(13, 0.6, 15, 1)}})
    L.append({"id": "building-outline", "type": "line", **src, "source-layer": "building", "minzoom": 14,
              "paint": {"line-color": "#c9bcaf", "line-width": zoom(14, 0.5, 18, 1)}})
    L += road_layers("tunnel") + path_layers("tunnel")
    L += road_layers("ground") + path_layers("ground") + rail_layers()
    L += road_layers("bridge") + path_layers("bridge")
    L.append({"id": "boundary-local", "type": "line", **src, "source-layer": "boundary", "minzoom": 10,
              "filter": ["all", [">=", ["get", "admin_level"], 5], ["!=", ["get", "maritime"], 1]],
              "layout": {"line-join": "round"},
              "paint": {"line-color": "#b5a6bd", "line-width": zoom(10, 0.6, 16, 1.4), "line-dasharray": [3, 1.5, 1, 1.5]}})
    L.append({"id": "boundary-state", "type": "line", **src, "source-layer": "boundary", "minzoom": 4,
              "filter": ["all", [">=", ["get", "admin_level"], 3], ["<=", ["get", "admin_level"], 4],
                         ["!=", ["get", "maritime"], 1]],
              "layout": {"line-join": "round"},
              "paint": {"line-color": "#a996b3", "line-width": zoom(4, 0.6, 12, 1.6), "line-dasharray": [4, 2]}})
    L.append({"id": "boundary-country", "type": "line", **src, "source-layer": "boundary",
              "filter": ["all", ["==", ["get", "admin_level"], 2], ["!=", ["get", "maritime"], 1]],
              "layout": {"line-join": "round", "line-cap": "round"},
              "paint": {"line-color": "#8e7b98", "line-width": zoom(3, 0.8, 12, 2.5, 16, 4)}})
    # Labels (text only; icons wait for sprites).
    L.append({"id": "waterway-name", "type": "symbol", **src, "source-layer": "waterway", "minzoom": 13,
              "filter": ["all", ["has", "name"], ["!=", ["get", "brunnel"], "tunnel"]],
              "layout": {"text-field": "{name}", "text-font": FONT, "symbol-placement": "line",
                         "text-size": 11, "symbol-spacing": 350},
              "paint": {"text-color": "#4f7fa3", "text-halo-color": "rgba(255,255,255,0.8)", "text-halo-width": 1.2}})
    L.append({"id": "road-name", "type": "symbol", **src, "source-layer": "transportation_name", "minzoom": 13,
              "filter": ["all", ["has", "name"],
                         ["match", ["get", "class"], ROADS + ["path", "track"], True, False]],
              "layout": {"text-field": "{name}", "text-font": FONT, "symbol-placement": "line",
                         "text-size": zoom(13, 9.5, 17, 12), "symbol-spacing": 300, "text-max-angle": 30,
                         "symbol-sort-key": ["match", ["get", "class"], *sum(([c, 10 - RANK[c]] for c in ROADS), []), 20]},
              "paint": {"text-color": "#4d443c", "text-halo-color": "#ffffff", "text-halo-width": 1.4}})
    L.append({"id": "housenumber", "type": "symbol", **src, "source-layer": "housenumber", "minzoom": 16,
              "layout": {"text-field": "{housenumber}", "text-font": FONT, "text-size": 9.5, "text-padding": 2},
              "paint": {"text-color": "#9a8c80", "text-halo-color": "rgba(255,255,255,0.7)", "text-halo-width": 1}})
    L.append({"id": "mountain-peak", "type": "symbol", **src, "source-layer": "mountain_peak", "minzoom": 10,
              "filter": ["all", ["==", ["get", "class"], "peak"], ["has", "name"]],
              "layout": {"text-field": ["concat", "▲ ", ["get", "name"],
                                        ["case", ["has", "ele"], ["concat", " ", ["to-string", ["get", "ele"]], "\u00a0m"], ""]],
                         "text-font": FONT, "text-size": 10.5, "text-max-width": 9,
                         "symbol-sort-key": ["*", -1, ["to-number", ["get", "ele"]]]},
              "paint": {"text-color": "#7a5f45", "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.2}})
    L.append({"id": "poi", "type": "symbol", **src, "source-layer": "poi", "minzoom": 14,
              "filter": ["all", ["has", "name"], ["step", ["zoom"], ["<=", ["get", "rank"], 1], 16, True]],
              "layout": {"text-field": "{name}", "text-font": FONT, "text-size": 10, "text-max-width": 8,
                         "text-padding": 3, "symbol-sort-key": ["get", "rank"]},
              "paint": {
                  "text-color": by_class({
                      "park": "#4e8a3a", "garden": "#4e8a3a", "attraction": "#8a5a2b", "museum": "#8a5a2b",
                      "monument": "#8a5a2b", "castle": "#8a5a2b", "place_of_worship": "#6b5a4a",
                      "railway": "#5a5a8a", "bus": "#5a5a8a", "hospital": "#b04a4a", "school": "#8a7040",
                      "college": "#8a7040", "restaurant": "#a0602a", "cafe": "#a0602a", "bar": "#a0602a",
                      "fast_food": "#a0602a", "lodging": "#5a6a9a"}, "#6f665e"),
                  "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.2}})
    L.append({"id": "place-minor", "type": "symbol", **src, "source-layer": "place", "minzoom": 12,
              "filter": ["match", ["get", "class"], ["suburb", "quarter", "neighbourhood", "hamlet", "locality",
                                                     "isolated_dwelling"], True, False],
              "layout": {"text-field": "{name}", "text-font": FONT,
                         "text-size": by_class({"suburb": 12, "quarter": 11}, 10), "text-max-width": 8,
                         "text-transform": ["match", ["get", "class"], ["suburb", "quarter"], "uppercase", "none"]},
              "paint": {"text-color": "#6a5f66", "text-halo-color": "rgba(255,255,255,0.8)", "text-halo-width": 1.4}})
    L.append({"id": "place-village", "type": "symbol", **src, "source-layer": "place", "minzoom": 10,
              "filter": ["==", ["get", "class"], "village"],
              "layout": {"text-field": "{name}", "text-font": FONT, "text-size": zoom(10, 10, 15, 13),
                         "text-max-width": 8},
              "paint": {"text-color": "#3f3a36", "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.4}})
    L.append({"id": "place-town", "type": "symbol", **src, "source-layer": "place", "minzoom": 7,
              "filter": ["==", ["get", "class"], "town"],
              "layout": {"text-field": "{name}", "text-font": FONT, "text-size": zoom(7, 10, 15, 16),
                         "text-max-width": 8},
              "paint": {"text-color": "#2f2a26", "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.5}})
    L.append({"id": "place-city", "type": "symbol", **src, "source-layer": "place", "minzoom": 4,
              "filter": ["==", ["get", "class"], "city"],
              "layout": {"text-field": "{name}", "text-font": BOLD, "text-size": zoom(4, 11, 14, 20),
                         "text-max-width": 8, "symbol-sort-key": ["get", "rank"]},
              "paint": {"text-color": "#2a2522", "text-halo-color": "rgba(255,255,255,0.9)", "text-halo-width": 1.6}})
    L.append({"id": "place-country", "type": "symbol", **src, "source-layer": "place", "minzoom": 7, "maxzoom": 12,
              "filter": ["==", ["get", "class"], "country"],
              "layout": {"text-field": "{name}", "text-font": BOLD, "text-size": zoom(3, 11, 8, 16),
                         "text-transform": "uppercase", "text-max-width": 6},
              "paint": {"text-color": "#6e5a78", "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.6}})
    if ICONS:
        L = with_icons(L)
    if minzoom:
        for layer in L:
            layer["minzoom"] = max(layer.get("minzoom", 0), minzoom)
    return L


# --icons: the symbol layers with the sprite (styles/sprites/streets.json names every image used here).

POI_COLOUR = {
    "park": "#4e8a3a", "garden": "#4e8a3a", "attraction": "#8a5a2b", "museum": "#8a5a2b",
    "monument": "#8a5a2b", "castle": "#8a5a2b", "place_of_worship": "#6b5a4a",
    "railway": "#5a5a8a", "bus": "#5a5a8a", "hospital": "#b04a4a", "school": "#8a7040",
    "college": "#8a7040", "restaurant": "#a0602a", "cafe": "#a0602a", "bar": "#a0602a",
    "fast_food": "#a0602a", "lodging": "#5a6a9a"}
# OpenMapTiles poi classes drawn with a shop bag (the rest of the shops take the tinted dot).
SHOPS = ["shop", "clothing_store", "jewelry", "shoe", "optician", "perfumery", "furniture", "books", "gift",
         "alcohol_shop", "electronics", "mobile_phone", "outdoor", "interior_decoration", "hardware", "kiosk",
         "variety_store", "toys", "cosmetics", "florist", "watches", "bag", "boutique", "second_hand"]
# Image by OpenMapTiles poi class (several classes may share one image).
POI_ICON = {
    "grocery": "grocery", "supermarket": "grocery", "bakery": "grocery", "butcher": "grocery", "deli": "grocery",
    "restaurant": "restaurant", "food_court": "restaurant",
    "cafe": "cafe", "ice_cream": "cafe", "bar": "bar", "beer": "bar", "nightclub": "bar",
    "fast_food": "fast_food", "lodging": "lodging", "campsite": "campsite", "caravan_site": "campsite",
    "hospital": "hospital", "doctors": "hospital", "dentist": "hospital", "pharmacy": "pharmacy",
    "school": "school", "kindergarten": "school", "college": "college", "university": "college",
    "bank": "bank", "post": "post", "police": "police", "fire_station": "fire_station", "toilets": "toilets",
    "information": "information", "museum": "museum", "art_gallery": "museum", "attraction": "attraction",
    "castle": "castle", "fort": "castle", "monument": "monument", "park": "park", "garden": "park",
    "playground": "playground", "sports": "sports", "pitch": "sports", "stadium": "stadium",
    "swimming": "swimming", "swimming_pool": "swimming", "water_park": "swimming",
    "parking": "parking", "fuel": "fuel", "bus": "bus", "ferry_terminal": "ferry", "harbor": "ferry",
    "aerialway": "aerialway",
}
TRANSIT = ["railway", "bus", "ferry_terminal", "aerialway"]


def bilingual(second_scale=0.8):
    """OSM Bright's bilingual label: name:latin, and below it a smaller name:nonlatin when there is one."""
    latin = ["coalesce", ["get", "name:latin"], ["get", "name"], ""]
    return ["case", ["all", ["has", "name:latin"], ["has", "name:nonlatin"]],
            ["format", ["get", "name:latin"], {}, "\n", {}, ["get", "name:nonlatin"], {"font-scale": second_scale}],
            ["format", latin, {}]]


def poi_icon():
    """The POI image: by class (railway stations by subclass, places of worship by religion when the data
    has it, viewpoints by subclass), else the SDF dot, which icon-color tints by class."""
    rail = ["match", ["get", "subclass"], ["tram_stop"], "tram", ["subway", "subway_entrance"], "subway", "rail"]
    worship = ["match", ["get", "religion"], "christian", "religious-christian", "muslim", "religious-muslim",
               "jewish", "religious-jewish", "place_of_worship"]
    by = ["match", ["get", "class"], "railway", rail, "place_of_worship", worship, SHOPS, "shop"]
    for cls, image in POI_ICON.items():
        by += [cls, image]
    return ["case", ["==", ["get", "subclass"], "viewpoint"], "viewpoint", by + ["dot"]]


def under_icon(layout, offset=0.9):
    """Text below the icon, the icon required (a POI whose icon does not fit is not shown)."""
    layout.update({"text-anchor": "top", "text-offset": [0, offset], "icon-optional": False})
    return layout


def poi_paint(halo=1.2):
    return {"text-color": by_class(POI_COLOUR, "#6f665e"), "text-halo-color": "rgba(255,255,255,0.85)",
            "text-halo-width": halo, "icon-color": by_class(POI_COLOUR, "#8a8078"),
            "icon-halo-color": "#ffffff", "icon-halo-width": 1}


def with_icons(layers):
    """The text-only layers of streets_layers() with icons, bilingual labels and face-named font stacks."""
    src = {"source": "openmaptiles"}
    out = []
    for layer in layers:
        layer = json.loads(json.dumps(layer))
        layout = layer.get("layout", {})
        if layer["type"] == "symbol":
            layout["text-font"] = ICON_BOLD if layout.get("text-font") == BOLD else ICON_FONT
        lid = layer["id"]
        if lid == "poi":
            layer["filter"] = ["all", layer["filter"], ["!", ["match", ["get", "class"], TRANSIT, True, False]]]
            layout.update({"text-field": bilingual(), "icon-image": poi_icon(), "icon-size": 1})
            under_icon(layout)
            layer["paint"] = poi_paint()
            out.append(layer)
            out.append({"id": "poi-transit", "type": "symbol", **src, "source-layer": "poi", "minzoom": 13,
                        "filter": ["all", ["has", "name"], ["match", ["get", "class"], TRANSIT, True, False]],
                        "layout": under_icon({"text-field": bilingual(), "text-font": ICON_FONT, "text-size": 10,
                                              "text-max-width": 8, "text-padding": 2, "icon-image": poi_icon(),
                                              "symbol-sort-key": ["get", "rank"]}),
                        "paint": dict(poi_paint(), **{"text-color": "#4f5f96"})})
            out.append({"id": "airport-label", "type": "symbol", **src, "source-layer": "aerodrome_label",
                        "minzoom": 9, "filter": ["has", "name"],
                        "layout": under_icon({"text-field": bilingual(), "text-font": ICON_FONT,
                                              "text-size": zoom(9, 9, 14, 12), "text-max-width": 8,
                                              "icon-image": "airport"}),
                        "paint": {"text-color": "#4f5f96", "text-halo-color": "rgba(255,255,255,0.85)",
                                  "text-halo-width": 1.2}})
            continue
        if lid == "mountain-peak":
            name = ["coalesce", ["get", "name:latin"], ["get", "name"], ""]
            ele = ["concat", ["to-string", ["get", "ele"]], "\u00a0m"]
            layout.update({"icon-image": "peak",
                           "text-field": ["case", ["has", "ele"],
                                          ["format", name, {}, "\n", {}, ele, {"font-scale": 0.85}],
                                          ["format", name, {}]]})
            under_icon(layout, 0.8)
        elif lid == "road-name":
            out.append(layer)
            layer = {"id": "road-shield", "type": "symbol", **src, "source-layer": "transportation_name",
                     "minzoom": 10,
                     "filter": ["all", ["has", "ref"], ["<=", ["get", "ref_length"], 6],
                                ["match", ["get", "class"], ["motorway", "trunk", "primary"], True, False]],
                     "layout": {"symbol-placement": "line", "symbol-spacing": 500, "text-field": "{ref}",
                                "text-font": ICON_BOLD, "text-size": 9, "icon-image": "shield",
                                "icon-text-fit": "both", "icon-text-fit-padding": [1, 2, 1, 2],
                                "icon-rotation-alignment": "viewport", "text-rotation-alignment": "viewport"},
                     "paint": {"text-color": "#ffffff",
                               "icon-color": by_class({"motorway": CASING["motorway"], "trunk": CASING["trunk"]},
                                                      CASING["primary"]),
                               "icon-halo-color": "#ffffff", "icon-halo-width": 0.8}}
        elif lid in ("place-city", "place-town"):
            dot = ["match", ["get", "capital"], 2, "capital", "city"] if lid == "place-city" else "city"
            layout.update({"text-field": bilingual(), "icon-image": ["step", ["zoom"], dot, 11, ""],
                           "text-variable-anchor": ["bottom", "top", "right", "left"],
                           "text-radial-offset": 0.5, "text-justify": "auto", "icon-optional": False})
        elif lid == "place-village":
            layout.update({"text-field": bilingual(), "text-variable-anchor": ["center", "bottom", "top"],
                           "text-radial-offset": 0.4})
        elif lid in ("place-minor", "place-country"):
            layout["text-field"] = bilingual()
        out.append(layer)
    return out


def ne_borders():
    return [
        {"id": "ne-borders", "type": "line", "source": "countries50", "minzoom": 1, "maxzoom": 8,
         "layout": {"line-join": "round", "line-cap": "round"},
         "paint": {"line-color": "#9b8aa3", "line-width": zoom(1, 0.6, 7, 1.4)}},
    ]


def ne_labels():
    """Country names from Natural Earth at the world zooms (label rank and population decide)."""
    return [
        # One label per country (MapLibre labels each polygon of a multipolygon: every island of a country).
        {"id": "ne-country-labels", "type": "symbol", "source": "countries50", "minzoom": 1, "maxzoom": 7,
         "filter": ["all", ["<=", ["get", "labelrank"], ["step", ["zoom"], 2, 2, 3, 3, 4, 4, 6]],
                    [">=", ["get", "pop_est"], ["step", ["zoom"], 5000000, 3, 500000, 5, 0]]],
         "layout": {"text-field": "{name}", "text-font": BOLD, "text-size": zoom(1, 9, 6, 13),
                    "text-max-width": 7, "text-transform": "uppercase",
                    "symbol-sort-key": ["get", "labelrank"]},
         "paint": {"text-color": "#6e5a78", "text-halo-color": "rgba(255,255,255,0.85)", "text-halo-width": 1.4},
         "metadata": {"mapraster:polygon-labels": "feature"}},
    ]


def omt_source(relative):
    return {"type": "vector", "url": f"mbtiles://{relative}", "attribution": OSM}


def streets():
    sources = {
        "openmaptiles": omt_source("../vectortiles/osm-omt.mbtiles"),
        "countries110": {"type": "geojson", "data": "../naturalearth/ne_110m_countries.geojson", "attribution": NE},
        "countries50": {"type": "geojson", "data": "../naturalearth/ne_50m_countries.geojson", "attribution": NE},
        "lakes50": {"type": "geojson", "data": "../naturalearth/ne_50m_lakes.geojson", "attribution": NE},
        "rivers50": {"type": "geojson", "data": "../naturalearth/ne_50m_rivers.geojson", "attribution": NE},
    }
    layers = [
        {"id": "ocean", "type": "background", "maxzoom": 8, "paint": {"background-color": OCEAN}},
        {"id": "land", "type": "background", "minzoom": 8, "paint": {"background-color": LAND}},
    ]
    layers += natural_earth("ne") + streets_layers() + ne_labels()
    if ICONS:
        for layer in layers:
            if layer["id"] == "ne-country-labels":
                layer["layout"]["text-font"] = ICON_BOLD
    # Natural Earth borders above the tiles' landcover, below the labels.
    labels_at = next(i for i, l in enumerate(layers) if l["type"] == "symbol")
    layers[labels_at:labels_at] = ne_borders()
    style = {
        "version": 8,
        "name": "streets",
        "metadata": {
            "mapraster:description": (
                "Streets for vector tiles in the OpenMapTiles schema, written for MapRaster in the spirit of "
                "OSM Bright (text labels only, no icons). Natural Earth draws the world zooms 0-7. Zoom levels "
                "are MapLibre's (MapRaster's zoom minus 1). Made by Scripts/make-streets-style.py."),
        },
        "sources": sources,
        "layers": layers,
    }
    if ICONS:
        style["metadata"]["mapraster:description"] = style["metadata"]["mapraster:description"].replace(
            "(text labels only, no icons)", "(icons drawn for MapRaster: styles/sprites, Scripts/make-sprite.py)")
        style = {**{k: style[k] for k in ("version", "name", "metadata")}, "sprite": SPRITE,
                 **{k: style[k] for k in ("sources", "layers")}}
    return style


def write(name, style, folder=STYLES):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(style, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", path)


def standard():
    """standard.json with the streets' tile layers from MapLibre zoom 12 (removed first, so runs repeat)."""
    path = os.path.join(STYLES, "standard.json")
    with open(path, encoding="utf-8") as f:
        style = json.load(f)
    ids = {l["id"] for l in streets_layers()} | {"extract-land"}
    style["layers"] = [l for l in style["layers"] if l["id"] not in ids]
    # Bounds around Andorra and Monaco: central Helsinki keeps standard's own GeoJSON streets (its
    # goldens stay as they are); the streets style shows Helsinki from the tiles.
    style["sources"]["openmaptiles"] = dict(omt_source("../vectortiles/osm-omt.mbtiles"),
                                            bounds=[0.9, 42.3, 7.6, 43.8])
    tiles = streets_layers(minzoom=12)
    # The tiles' water takes standard's ocean colour, so that the sea inside an extract's box meets the
    # Natural Earth ocean around it without a visible rectangle.
    ocean = next(l["paint"]["background-color"] for l in style["layers"] if l["id"] == "ocean")
    for layer in tiles:
        paint = layer.get("paint", {})
        if layer.get("source-layer") == "water" and paint.get("fill-color") == WATER:
            paint["fill-color"] = ocean
    # Non-label tile layers go above Natural Earth's land (before "hel-landuse"); labels go below the
    # Helsinki labels (before "hel-poi-labels").
    # Natural Earth's 1:50m coast is kilometres off at street zooms (it puts half of Monaco in the sea):
    # around an extract the tiles know the land (OpenStreetMap's coast in the extract's box, Natural Earth's
    # 1:10m around it: vectortiles/extracts.geojson), so that land is painted first and the tiles drawn over it.
    land = next(l["paint"]["fill-color"] for l in style["layers"] if l["id"] == "land-50m")
    style["sources"]["omt_extracts"] = {"type": "geojson", "data": "../vectortiles/extracts.geojson"}
    extract_land = {"id": "extract-land", "type": "fill", "source": "omt_extracts", "minzoom": 12,
                    "filter": ["!=", ["get", "name"], "helsinki"], "paint": {"fill-color": land}}
    shapes = [extract_land] + [l for l in tiles if l["type"] != "symbol"]
    labels = [l for l in tiles if l["type"] == "symbol"]
    out = []
    for layer in style["layers"]:
        if layer["id"] == "hel-landuse":
            out += shapes
        if layer["id"] == "hel-poi-labels":
            out += labels
        out.append(layer)
    style["layers"] = out
    # Helsinki's GeoJSON POIs and buildings are not in the OpenMapTiles schema: their metadata tells the
    # snapshot options (pointOfInterestFilter, showsBuildings) what they are (Notes/base-map-styles.md).
    for layer in style["layers"]:
        if layer["id"] in ("hel-pois", "hel-poi-labels"):
            layer["metadata"] = {"mapraster:poi-keys": ["tourism", "amenity", "railway"]}
        if layer["id"] == "hel-buildings":
            layer["metadata"] = {"mapraster:buildings": True}
    if ICONS:
        style["sprite"] = SPRITE
    return style


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--icons", action="store_true",
                        help="symbol layers with the sprite, bilingual labels (writes streets-icons.json.draft)")
    parser.add_argument("--ship", action="store_true",
                        help="with --icons: write the shipped streets.json and standard.json with icons")
    args = parser.parse_args()
    if args.ship and not args.icons:
        parser.error("--ship goes with --icons")
    ICONS = args.icons
    if ICONS and not args.ship:
        # The draft lives in styles/ next to styles/sprites/ (the shipped styles are links into Resources).
        write("streets-icons.json.draft", streets(), folder=os.path.join(ROOT, "styles"))
    else:
        if ICONS and not os.path.exists(os.path.join(STYLES, SPRITE + ".json")):
            print(f"warning: {os.path.join(STYLES, SPRITE)}.json/.png do not exist yet: copy styles/sprites/streets*"
                  " there (Notes/streets-sprite.md)")
        streets_style, standard_style = streets(), standard()
        write("streets.json", streets_style)
        write("standard.json", standard_style)
        if ICONS:
            # The dark appearance (MapKit's userInterfaceStyle .dark) of both.
            write("streets-dark.json", dark_variant(streets_style, "streets-dark", "streets"))
            write("standard-dark.json", dark_variant(standard_style, "standard-dark", "standard"))
