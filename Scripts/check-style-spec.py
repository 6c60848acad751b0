#!/usr/bin/env python3
"""Checks a style against the MapLibre style specification's v8 reference (`v8.json`) and its sprite.

A cross-check for styles this project writes (e.g. styles/streets.json), independent of MapRaster's own
decoder, so that a style is valid MapLibre whatever MapRaster accepts. It checks:
- root members, sources (members by source type), layers (members, type, minzoom/maxzoom);
- every layout and paint property: known for the layer's type (`layout_<type>`, `paint_<type>`), its
  `requires` (e.g. `text-offset` not with `text-radial-offset`, `icon-text-fit` needs `text-field`);
  constants by type (number with minimum/maximum, enum values, array length and element type, boolean,
  string, color, formatted, resolvedImage, padding); expressions: every operator a known
  `expression_name`, `match` labels and `literal` contents left alone, `format` options among font-scale,
  text-font, text-color, vertical-align, feature data (`get`, `has`, ...) only in data-driven properties,
  `zoom` only where the property's expression takes it;
- filters: known operators;
- with the sprite (the style's relative `sprite` path, `.json`): every image name an `icon-image` or
  `*-pattern` can produce as a literal (outputs of match/case/step/coalesce) exists in the sprite.
Exit status 1 with one line per problem, 0 with a summary when the style is valid.

Where v8.json comes from: maplibre-style-spec's `src/reference/v8.json` (github.com/maplibre/maplibre-style-spec,
BSD-3-Clause) or the npm package @maplibre/maplibre-gl-style-spec (`dist/latest.json`). Not in this repository.

Usage: python3 Scripts/check-style-spec.py --spec PATH/v8.json STYLE.json [STYLE.json ...]
"""
import argparse
import json
import os
import re
import sys

FEATURE_OPS = {"get", "has", "!has", "id", "geometry-type", "properties", "feature-state", "in", "!in",
               "line-progress", "accumulated"}
FORMAT_OPTIONS = {"font-scale", "text-font", "text-color", "vertical-align"}
COLOR = re.compile(r"^(#[0-9a-fA-F]{3,4}|#[0-9a-fA-F]{6}|#[0-9a-fA-F]{8}|rgba?\(.*\)|hsla?\(.*\)|[a-z]+)$")


class Checker:
    def __init__(self, spec):
        self.spec = spec
        self.operators = set(spec["expression_name"]["values"])
        self.problems = []

    def problem(self, path, message):
        self.problems.append(f"{path}: {message}")

    # Expressions ---------------------------------------------------------------------------------------

    def is_expression(self, value):
        return isinstance(value, list) and value and isinstance(value[0], str) and value[0] in self.operators

    def walk(self, expr, path, used):
        """Checks operators recursively; collects the operators used into `used`."""
        if isinstance(expr, dict):
            return
        if not isinstance(expr, list) or not expr:
            return
        op = expr[0]
        if not isinstance(op, str) or op not in self.operators:
            self.problem(path, f"unknown expression operator {op!r}")
            return
        used.add(op)
        if op == "literal":
            return
        if op == "match":
            if len(expr) < 5 or len(expr) % 2 == 0:
                self.problem(path, "match needs an input, label/output pairs and a fallback")
            self.walk(expr[1], f"{path}[1]", used)
            for i in range(2, len(expr) - 1, 2):
                label = expr[i]
                labels = label if isinstance(label, list) else [label]
                if not labels or not all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in labels):
                    self.problem(f"{path}[{i}]", "match labels must be strings or numbers (or arrays of them)")
                self.walk(expr[i + 1], f"{path}[{i + 1}]", used)
            self.walk(expr[-1], f"{path}[{len(expr) - 1}]", used)
            return
        if op == "format":
            i = 1
            while i < len(expr):
                self.walk(expr[i], f"{path}[{i}]", used)
                if i + 1 < len(expr) and isinstance(expr[i + 1], dict):
                    unknown = set(expr[i + 1]) - FORMAT_OPTIONS
                    if unknown:
                        self.problem(f"{path}[{i + 1}]", f"unknown format options {sorted(unknown)}")
                    for key, value in expr[i + 1].items():
                        self.walk(value, f"{path}[{i + 1}].{key}", used)
                    i += 2
                else:
                    i += 1
            return
        if op in ("interpolate", "interpolate-hcl", "interpolate-lab"):
            if not (isinstance(expr[1], list) and expr[1] and expr[1][0] in ("linear", "exponential", "cubic-bezier")):
                self.problem(f"{path}[1]", "interpolation type must be linear, exponential or cubic-bezier")
            stops = expr[3:]
            keys = stops[0::2]
            if len(stops) % 2 or not all(isinstance(k, (int, float)) for k in keys) or keys != sorted(keys):
                self.problem(path, "interpolate stops must be ascending number/output pairs")
            self.walk(expr[2], f"{path}[2]", used)
            for i in range(4, len(expr), 2):
                self.walk(expr[i], f"{path}[{i}]", used)
            return
        if op == "step":
            keys = expr[3::2]
            if len(expr) % 2 == 0 or not all(isinstance(k, (int, float)) for k in keys) or keys != sorted(keys):
                self.problem(path, "step needs an input, a first output and ascending stop/output pairs")
            for i in [1, 2] + list(range(4, len(expr), 2)):
                self.walk(expr[i], f"{path}[{i}]", used)
            return
        for i, arg in enumerate(expr[1:], 1):
            if isinstance(arg, list):
                self.walk(arg, f"{path}[{i}]", used)

    def outputs(self, expr):
        """The literal strings an expression can produce (for image names); None parts are dynamic."""
        if isinstance(expr, str):
            return {expr}
        if not isinstance(expr, list) or not expr:
            return set()
        op = expr[0]
        if op == "match":
            return set().union(*(self.outputs(e) for e in expr[3:-1:2]), self.outputs(expr[-1]))
        if op == "case":
            return set().union(*(self.outputs(e) for e in expr[2:-1:2]), self.outputs(expr[-1]))
        if op == "step":
            return set().union(*(self.outputs(e) for e in expr[2::2]))
        if op == "coalesce":
            return set().union(*(self.outputs(e) for e in expr[1:]))
        if op in ("image", "literal"):
            return self.outputs(expr[1])
        return set()

    # Values --------------------------------------------------------------------------------------------

    def constant(self, spec, value, path):
        kind = spec.get("type")
        if kind == "number":
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return self.problem(path, f"expected a number, got {value!r}")
            if "minimum" in spec and value < spec["minimum"]:
                self.problem(path, f"{value} is below the minimum {spec['minimum']}")
            if "maximum" in spec and value > spec["maximum"]:
                self.problem(path, f"{value} is above the maximum {spec['maximum']}")
        elif kind == "enum":
            if value not in spec.get("values", {}):
                self.problem(path, f"{value!r} is not one of {sorted(spec.get('values', {}))}")
        elif kind == "boolean":
            if not isinstance(value, bool):
                self.problem(path, f"expected a boolean, got {value!r}")
        elif kind in ("string", "formatted", "resolvedImage"):
            if not isinstance(value, str):
                self.problem(path, f"expected a string, got {value!r}")
        elif kind == "color":
            if not isinstance(value, str) or not COLOR.match(value.strip()):
                self.problem(path, f"expected a color, got {value!r}")
        elif kind in ("array", "variableAnchorOffsetCollection", "padding", "numberArray", "colorArray"):
            if kind == "padding" and isinstance(value, (int, float)):
                return
            if not isinstance(value, list):
                return self.problem(path, f"expected an array, got {value!r}")
            if "length" in spec and len(value) != spec["length"]:
                self.problem(path, f"expected {spec['length']} elements, got {len(value)}")
            element = spec.get("value")
            for i, v in enumerate(value):
                if element == "enum":
                    self.constant({"type": "enum", "values": spec.get("values", {})}, v, f"{path}[{i}]")
                elif element in ("number", "string", "boolean"):
                    self.constant({"type": element}, v, f"{path}[{i}]")

    def property(self, spec, value, path):
        if isinstance(value, dict):  # a legacy function
            if spec.get("property-type") == "constant":
                self.problem(path, "this property takes no function")
            if "stops" not in value and value.get("type") != "identity":
                self.problem(path, "a function needs stops")
            return
        if self.is_expression(value):
            allowed = set(spec.get("expression", {}).get("parameters", []))
            if spec.get("property-type") == "constant" or not allowed:
                return self.problem(path, "this property takes no expression")
            used = set()
            self.walk(value, path, used)
            if used & FEATURE_OPS and "feature" not in allowed:
                self.problem(path, f"feature data ({sorted(used & FEATURE_OPS)}) in a property that is not "
                             "data-driven")
            if "zoom" in used and "zoom" not in allowed:
                self.problem(path, "zoom in a property whose expression does not take it")
            if value[0] == "literal":
                self.constant(spec, value[1], path)
            return
        self.constant(spec, value, path)

    def requires(self, spec, layout, name, path):
        for requirement in spec.get("requires", []):
            if isinstance(requirement, str):
                if requirement not in layout:
                    self.problem(path, f"{name} requires {requirement}")
            elif isinstance(requirement, dict):
                for key, allowed in requirement.items():
                    if key == "!":
                        if allowed in layout:
                            self.problem(path, f"{name} cannot be used with {allowed}")
                    elif key in layout and isinstance(allowed, list) and isinstance(layout[key], str) \
                            and layout[key] not in allowed:
                        self.problem(path, f"{name} requires {key} in {allowed}")

    # Style ---------------------------------------------------------------------------------------------

    def style(self, style, sprite_names):
        spec = self.spec
        for key in style:
            if key not in spec["$root"]:
                self.problem(key, "unknown root member")
        if style.get("version") != 8:
            self.problem("version", "must be 8")
        for name, source in (style.get("sources") or {}).items():
            kind = source.get("type")
            table = spec.get(f"source_{kind}")
            if table is None:
                self.problem(f"sources.{name}", f"unknown source type {kind!r}")
                continue
            for key in source:
                if key not in table:
                    self.problem(f"sources.{name}.{key}", f"unknown member of a {kind} source")
        ids = set()
        layer_types = spec["layer"]["type"]["values"]
        for index, layer in enumerate(style.get("layers") or []):
            path = f"layers[{index}] ({layer.get('id')})"
            if layer.get("id") in ids:
                self.problem(path, "duplicate id")
            ids.add(layer.get("id"))
            for key in layer:
                if key not in spec["layer"]:
                    self.problem(f"{path}.{key}", "unknown layer member")
            kind = layer.get("type")
            if kind not in layer_types:
                self.problem(path, f"unknown layer type {kind!r}")
                continue
            if kind != "background" and layer.get("source") not in (style.get("sources") or {}):
                self.problem(path, f"unknown source {layer.get('source')!r}")
            for key in ("minzoom", "maxzoom"):
                if key in layer:
                    self.constant(spec["layer"][key], layer[key], f"{path}.{key}")
            if "filter" in layer:
                if self.is_expression(layer["filter"]):
                    self.walk(layer["filter"], f"{path}.filter", set())
                elif not (isinstance(layer["filter"], list) and layer["filter"]
                          and layer["filter"][0] in spec["filter_operator"]["values"]):
                    self.problem(f"{path}.filter", "neither an expression nor a legacy filter")
            layout = layer.get("layout", {})
            for group in ("layout", "paint"):
                table = spec[f"{group}_{kind}"]
                for name, value in layer.get(group, {}).items():
                    if name not in table:
                        self.problem(f"{path}.{group}.{name}", f"not a {group} property of {kind} layers")
                        continue
                    self.property(table[name], value, f"{path}.{group}.{name}")
                    self.requires(table[name], layout, name, f"{path}.{group}.{name}")
                    is_image = name == "icon-image" or name.endswith("-pattern")
                    if is_image and sprite_names is not None:
                        for image in sorted(self.outputs(value)):
                            if image and image not in sprite_names:
                                self.problem(f"{path}.{group}.{name}", f"image {image!r} is not in the sprite")
        return ids


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spec", required=True, help="MapLibre's v8.json (see the module's docstring)")
    parser.add_argument("styles", nargs="+")
    args = parser.parse_args()
    with open(args.spec, encoding="utf-8") as f:
        spec = json.load(f)
    failed = False
    for path in args.styles:
        with open(path, encoding="utf-8") as f:
            style = json.load(f)
        names = None
        checker = Checker(spec)
        sprite = style.get("sprite")
        if isinstance(sprite, str) and "://" not in sprite:
            sprite_json = os.path.join(os.path.dirname(os.path.abspath(path)), sprite + ".json")
            try:
                with open(sprite_json, encoding="utf-8") as f:
                    names = set(json.load(f))
            except (OSError, ValueError) as error:
                checker.problem("sprite", f"cannot read {sprite_json}: {error}")
        ids = checker.style(style, names)
        for line in checker.problems:
            print(f"{path}: {line}")
        failed |= bool(checker.problems)
        if not checker.problems:
            symbols = sum(1 for layer in style["layers"] if layer["type"] == "symbol")
            print(f"{path}: valid against {os.path.basename(args.spec)} ({len(ids)} layers, {symbols} symbol layers"
                  + (f", every image in the sprite's {len(names)}" if names is not None else "") + ")")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
