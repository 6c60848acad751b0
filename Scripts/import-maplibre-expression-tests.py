#!/usr/bin/env python3
"""Bundles MapLibre's expression tests into fixtures/maplibre-expression-tests/tests.json.

The style specification's repository (github.com/maplibre/maplibre-style-spec, BSD-3-Clause, its
LICENSE.txt is copied beside the bundle) keeps one `test.json` per case under
`test/integration/expression/tests/<operator>/<case>/`: an expression, inputs (zoom, canonical tile,
feature properties, geometry, id) and the expected outputs. This script writes them, unchanged, as one
JSON object `{"commit": ..., "tests": {"<operator>/<case>": {...}}}` sorted by name, which
Tests/MapStyleTests/MapLibreExpressionTests.swift reads. Groups of operators MapRaster does not evaluate
(`distance`) are left out to keep the fixture small.

Not a test and not run by `swift test`; needs only the standard library.

Usage: python3 Scripts/import-maplibre-expression-tests.py STYLE_SPEC_CHECKOUT [COMMIT]
  git clone https://github.com/maplibre/maplibre-style-spec && \
  python3 Scripts/import-maplibre-expression-tests.py maplibre-style-spec $(git -C maplibre-style-spec rev-parse HEAD)
"""

import json
import os
import shutil
import sys

LEFT_OUT = {"distance"}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    checkout = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "unknown"
    root = os.path.join(checkout, "test", "integration", "expression", "tests")
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "..", "fixtures", "maplibre-expression-tests")
    tests = {}
    for folder, _, files in os.walk(root):
        if "test.json" not in files:
            continue
        name = os.path.relpath(folder, root).replace(os.sep, "/")
        if name.split("/")[0] in LEFT_OUT:
            continue
        with open(os.path.join(folder, "test.json"), encoding="utf-8") as f:
            tests[name] = json.load(f)
    os.makedirs(out_dir, exist_ok=True)
    bundle = {"source": "github.com/maplibre/maplibre-style-spec test/integration/expression/tests",
              "commit": commit, "tests": dict(sorted(tests.items()))}
    with open(os.path.join(out_dir, "tests.json"), "w", encoding="utf-8") as f:
        json.dump(bundle, f, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
        f.write("\n")
    shutil.copyfile(os.path.join(checkout, "LICENSE.txt"), os.path.join(out_dir, "LICENSE.txt"))
    print(f"wrote {len(tests)} tests to {os.path.normpath(out_dir)}/tests.json")


if __name__ == "__main__":
    main()
