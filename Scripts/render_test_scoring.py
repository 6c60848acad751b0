"""Label-placement and text-masked scoring of MapLibre's render tests, for Scripts/maplibre-render-tests.py
(whose docstring describes both scores and their options), and the self-test of both on synthetic images.

Placement: label_boxes() finds the label boxes of an image, the connected components of the pixels that
differ from the background-only image (or one background colour) by more than PLACEMENT_DIFFERENCE in a
channel, colours premultiplied by alpha, grown by PLACEMENT_MERGE pixels x pixelRatio (across, down) so
that the glyphs, words and lines of one label join, components with fewer than PLACEMENT_MIN_AREA label
pixels x pixelRatio^2 dropped; match_boxes() pairs the boxes of two images greedily by IoU (IoU >=
PLACEMENT_IOU, centres within PLACEMENT_CENTRE pixels x pixelRatio) and placement_score() counts labels
expected, found and matched.

Text masked: without_text() gives a style's text `text-opacity` 0; text_mask() is where MapRaster's renders
with and without text differ, grown by TEXT_MASK_GROW pixels x pixelRatio; text_masked_compare() runs
pixelmatch with the mask's pixels taken from expected.png.

Needs `pip install pixelmatch==0.4.0 pillow numpy`.
"""
import numpy as np
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

DEFAULT_THRESHOLD = 0.1285  # pixelmatch's threshold when a case sets none, as in MapLibre's harness
PLACEMENT_DIFFERENCE = 24  # a channel differing by more than this from the background-only image is a label's
# Pixels (x pixelRatio) by which label pixels are grown, across and down, so that the glyphs, words and lines
# of one label join: gaps up to 8 pixels across (a word space at 16 px is 4-7) and 4 down (lines at the
# default line height are often 5 or more apart and then count as boxes of their own).
PLACEMENT_MERGE = (4, 2)
PLACEMENT_MIN_AREA = 6  # components with fewer label pixels (x pixelRatio^2) are noise
PLACEMENT_IOU = 0.5
PLACEMENT_CENTRE = 3.0  # pixels (x pixelRatio)
TEXT_MASK_GROW = 2  # pixels (x pixelRatio) by which the text mask is grown


# Placement scoring ------------------------------------------------------------------------------------------

def label_mask(image, background):
    """Pixels of `image` (RGBA uint8 array) that differ from `background` (an array of the same shape, or one
    RGBA colour) by more than PLACEMENT_DIFFERENCE in some channel, colours premultiplied by alpha."""
    def premultiplied(a):
        a = a.astype(np.int32)
        return np.concatenate([a[..., :3] * a[..., 3:4] // 255, a[..., 3:4]], axis=-1)
    bg = np.broadcast_to(np.asarray(background, dtype=np.uint8), image.shape)
    return (np.abs(premultiplied(image) - premultiplied(bg)) > PLACEMENT_DIFFERENCE).any(axis=-1)


def grow(mask, rx, ry):
    """The mask grown by a rectangle of rx pixels either side across and ry down."""
    h, w = mask.shape
    padded = np.pad(mask, ((ry, ry), (rx, rx)))
    out = np.zeros_like(mask)
    for dy in range(-ry, ry + 1):
        for dx in range(-rx, rx + 1):
            out |= padded[ry + dy: ry + dy + h, rx + dx: rx + dx + w]
    return out


def components(mask):
    """Labels of the 8-connected components of a boolean mask: (label image, count); 0 is no component."""
    labels = np.zeros(mask.shape, dtype=np.int32)
    count = 0
    h, w = mask.shape
    for y0, x0 in zip(*np.nonzero(mask)):
        if labels[y0, x0]:
            continue
        count += 1
        labels[y0, x0] = count
        stack = [(y0, x0)]
        while stack:
            y, x = stack.pop()
            for ny in (y - 1, y, y + 1):
                for nx in (x - 1, x, x + 1):
                    if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not labels[ny, nx]:
                        labels[ny, nx] = count
                        stack.append((ny, nx))
    return labels, count


def label_boxes(image, background, ratio=1):
    """Boxes (x0, y0, x1, y1), exclusive ends, of the labels in `image`: see the module's docstring."""
    mask = label_mask(image, background)
    labels, count = components(grow(mask, *(int(round(r * ratio)) for r in PLACEMENT_MERGE)))
    boxes = []
    min_area = PLACEMENT_MIN_AREA * ratio * ratio
    for k in range(1, count + 1):
        ys, xs = np.nonzero((labels == k) & mask)
        if len(xs) >= min_area:
            boxes.append((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1))
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def match_boxes(expected, found, ratio=1):
    """Greedy one-to-one matching by IoU (highest first) of pairs with IoU >= PLACEMENT_IOU and centres
    within PLACEMENT_CENTRE x ratio pixels: [(expected index, found index, iou)]."""
    pairs = []
    for i, a in enumerate(expected):
        for j, b in enumerate(found):
            overlap = iou(a, b)
            dx = (a[0] + a[2] - b[0] - b[2]) / 2
            dy = (a[1] + a[3] - b[1] - b[3]) / 2
            if overlap >= PLACEMENT_IOU and (dx * dx + dy * dy) ** 0.5 <= PLACEMENT_CENTRE * ratio:
                pairs.append((overlap, i, j))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    used_e, used_f, matches = set(), set(), []
    for overlap, i, j in pairs:
        if i not in used_e and j not in used_f:
            used_e.add(i)
            used_f.add(j)
            matches.append((i, j, overlap))
    return sorted(matches)


def placement_score(expected_boxes, found_boxes, ratio=1):
    matches = match_boxes(expected_boxes, found_boxes, ratio)
    return {"expected": len(expected_boxes), "found": len(found_boxes), "matched": len(matches),
            "pass": len(matches) == len(expected_boxes) == len(found_boxes),
            "expected_boxes": expected_boxes, "found_boxes": found_boxes,
            "matches": [[i, j, round(o, 3)] for i, j, o in matches]}


def is_text_case(group, style):
    if group.startswith("text-"):
        return True
    return group.startswith("symbol-") and any(
        "text-field" in (layer.get("layout") or {}) for layer in style.get("layers") or [])


# Text-masked scoring ---------------------------------------------------------------------------------------

def has_text_layers(style):
    return any(layer.get("type") == "symbol" and "text-field" in (layer.get("layout") or {})
               for layer in style.get("layers") or [])


def is_text_masked_case(group, style):
    return (group.startswith("icon-") or group.startswith("symbol-")) and has_text_layers(style)


def without_text(style):
    """A copy of the style whose symbol layers with a `text-field` draw their text with `text-opacity` 0."""
    layers = []
    for layer in style.get("layers") or []:
        if layer.get("type") == "symbol" and "text-field" in (layer.get("layout") or {}):
            layer = dict(layer, paint=dict(layer.get("paint") or {}, **{"text-opacity": 0}))
        layers.append(layer)
    return dict(style, layers=layers)


def text_mask(actual, textless, ratio=1):
    """Where MapRaster's render with text (RGBA array) differs from the one without, grown by
    TEXT_MASK_GROW x ratio pixels."""
    mask = (actual != textless).any(axis=-1)
    r = max(1, int(round(TEXT_MASK_GROW * ratio)))
    return grow(mask, r, r)


def text_masked_compare(expected, actual, textless, ratio, threshold):
    """(differing pixels outside the text mask, mask fraction, masked actual image, diff image): pixelmatch of
    expected against actual with the mask's pixels taken from expected."""
    e = np.asarray(expected.convert("RGBA"))
    a = np.asarray(actual.convert("RGBA"))
    mask = text_mask(a, np.asarray(textless.convert("RGBA")), ratio)
    masked = Image.fromarray(np.where(mask[..., None], e, a).astype(np.uint8), "RGBA")
    diff = Image.new("RGBA", expected.size)
    differing = pixelmatch(masked, expected.convert("RGBA"), diff, threshold=threshold)
    return differing, float(mask.mean()), masked, diff


def self_test():
    """The box finder and the matcher on synthetic images whose labels are known."""
    def canvas():
        image = np.zeros((80, 120, 4), dtype=np.uint8)
        image[...] = (240, 236, 228, 255)
        image[50:80, 0:40] = (170, 200, 230, 255)  # a 'water' fill in every image, not a label
        return image

    def word(image, x, y, letters, colour=(40, 40, 40, 255)):
        for k in range(letters):  # glyphs 4 wide, 1-pixel gaps: one label
            image[y: y + 7, x + 5 * k: x + 5 * k + 4] = colour

    background = canvas()
    expected = canvas()
    word(expected, 10, 10, 5)   # A: 10...34 x 10...17
    word(expected, 60, 10, 3)   # B: 8+ pixels right of A: a separate label
    word(expected, 20, 55, 4)   # C: over the water
    actual = canvas()
    word(actual, 10, 10, 5)     # A where expected
    word(actual, 62, 11, 3)     # B 2 right, 1 down: centre within 3 pixels, IoU 0.56
    word(actual, 20, 65, 4)     # C 10 pixels down: not matched
    word(actual, 90, 40, 2)     # D only in the actual image
    actual[30, 100] = (0, 0, 0, 255)  # a lone pixel: noise, dropped

    checks = []
    e_boxes = label_boxes(expected, background)
    a_boxes = label_boxes(actual, background)
    checks.append(("expected boxes", e_boxes, [(10, 10, 34, 17), (60, 10, 74, 17), (20, 55, 39, 62)]))
    checks.append(("actual boxes", a_boxes, [(10, 10, 34, 17), (62, 11, 76, 18), (90, 40, 99, 47), (20, 65, 39, 72)]))
    checks.append(("iou of identical", iou((0, 0, 4, 4), (0, 0, 4, 4)), 1.0))
    checks.append(("iou of disjoint", iou((0, 0, 4, 4), (4, 0, 8, 4)), 0.0))
    checks.append(("iou of half-shifted", round(iou((0, 0, 4, 4), (2, 0, 6, 4)), 4), round(8 / 24, 4)))
    score = placement_score(e_boxes, a_boxes)
    checks.append(("counts", (score["expected"], score["found"], score["matched"], score["pass"]), (3, 4, 2, False)))
    checks.append(("pairs", [(i, j) for i, j, _ in score["matches"]], [(0, 0), (1, 1)]))
    same = placement_score(e_boxes, label_boxes(expected, background))
    checks.append(("identical images", (same["matched"], same["pass"]), (3, True)))
    # A shift of 4 pixels keeps IoU over 0.5 for a long label but moves its centre too far.
    far = placement_score([(0, 0, 40, 8)], [(4, 0, 44, 8)])
    checks.append(("centre too far", far["matched"], 0))
    # The modal-colour fallback finds the same boxes as the background image where the fill is absent.
    flat = np.zeros((20, 30, 4), dtype=np.uint8)
    flat[...] = (255, 255, 255, 255)
    word(flat, 3, 3, 2)
    checks.append(("modal background", label_boxes(flat, modal_colour(flat)), [(3, 3, 12, 10)]))
    # Words 5 pixels apart and lines 3 pixels apart are one label; labels 9 pixels apart are two.
    lines = np.zeros((30, 60, 4), dtype=np.uint8)
    lines[...] = (255, 255, 255, 255)
    word(lines, 2, 2, 2)      # 2...11 (exclusive)
    word(lines, 16, 2, 2)     # 16...25: a word space of 5 pixels
    word(lines, 2, 12, 3)     # the next line, 3 below
    word(lines, 34, 2, 2)     # 34...43: 9 pixels to the right, another label
    checks.append(("words and lines", label_boxes(lines, modal_colour(lines)), [(2, 2, 25, 19), (34, 2, 43, 9)]))
    # At pixelRatio 2 labels 3 pixels apart still join (grown by 8 across).
    two = np.zeros((20, 40, 4), dtype=np.uint8)
    two[...] = (255, 255, 255, 255)
    two[5:12, 2:10] = two[5:12, 13:21] = (0, 0, 0, 255)
    checks.append(("ratio 2 merge", label_boxes(two, modal_colour(two), ratio=2), [(2, 5, 21, 12)]))
    # Text masked: an icon (a square) with text to its right. MapRaster's text differs in shape from
    # MapLibre's (other glyphs), so the plain score fails and the masked one passes; a wrong icon, or
    # expected text where MapRaster draws none, fails both.
    def scene(icon_x=20, text=True, parity=0, shift=0):
        image = canvas()
        image[20:36, icon_x:icon_x + 16] = (200, 30, 30, 255)
        if text:
            for k in range(4):
                x = 40 + shift + 6 * k
                image[24:31, x: x + 4 + (k + parity) % 2] = (40, 40, 40, 255)
        return image

    def masked_verdict(expected, actual, textless):
        e, a, t = (Image.fromarray(x, "RGBA") for x in (expected, actual, textless))
        plain = pixelmatch(a, e, Image.new("RGBA", e.size), threshold=DEFAULT_THRESHOLD)
        masked, fraction, _, _ = text_masked_compare(e, a, t, 1, DEFAULT_THRESHOLD)
        return plain > 0, masked == 0, fraction > 0

    expected = scene(parity=1)
    checks.append(("masked: other glyphs", masked_verdict(expected, scene(), scene(text=False)), (True, True, True)))
    checks.append(("masked: wrong icon", masked_verdict(expected, scene(icon_x=23), scene(icon_x=23, text=False))[1],
                   False))
    checks.append(("masked: missing text", masked_verdict(expected, scene(text=False), scene(text=False))[1], False))
    checks.append(("masked: text 1 px off", masked_verdict(expected, scene(shift=1), scene(text=False))[1], True))
    checks.append(("masked: text 6 px off", masked_verdict(expected, scene(shift=6), scene(text=False))[1], False))
    checks.append(("masked: mask grown x2 at ratio 2", int(text_mask(
        np.pad(np.ones((1, 1, 4), np.uint8), ((5, 5), (5, 5), (0, 0))), np.zeros((11, 11, 4), np.uint8), 2).sum()),
        81))
    failures = [(name, got, want) for name, got, want in checks if got != want]
    for name, got, want in failures:
        print(f"self-test FAILED: {name}: got {got}, expected {want}")
    print(f"self-test: {len(checks) - len(failures)}/{len(checks)} checks pass")
    return not failures


def modal_colour(image):
    """The most common RGBA colour of an image array."""
    flat = image.reshape(-1, 4)
    values, counts = np.unique(flat, axis=0, return_counts=True)
    return values[counts.argmax()]
