/// The layout of a sprite sheet as spritezero makes it: images sorted by height (tallest first), then by
/// name, put on shelves by `@mapbox/shelf-pack` with `autoResize` from a 1x1 bin, then the bin shrunk to
/// the shelves it used.
///
/// The same sizes give the same positions as spritezero (checked on the five OpenMapTiles sprites of
/// `fixtures/styles/openmaptiles`, 1x and 2x: every image at the same place, the same sheet size).
enum ShelfPacking {
    /// One image to place: its name and size in pixels.
    struct Item: Equatable, Sendable {
        var name: String
        var width: Int
        var height: Int
    }

    /// Where each item went, in the order of `items`, and the sheet's size.
    struct Layout: Equatable, Sendable {
        var origins: [(x: Int, y: Int)]
        var width: Int
        var height: Int

        static func == (a: Layout, b: Layout) -> Bool {
            a.width == b.width && a.height == b.height && a.origins.elementsEqual(b.origins) { $0 == $1 }
        }
    }

    /// The order spritezero packs in: taller first, then names in UTF-16 code unit order (JavaScript's `<`).
    static func packingOrder(_ a: Item, _ b: Item) -> Bool {
        if a.height != b.height { return a.height > b.height }
        return a.name.utf16.lexicographicallyPrecedes(b.name.utf16)
    }

    /// Places `items` (each at least 1x1; sizes bounded by the caller) as shelf-pack does.
    static func layout(_ items: [Item]) -> Layout {
        struct Shelf {
            var y: Int
            var x = 0
            var width: Int
            var free: Int
            var height: Int
        }
        let order = items.indices.sorted { packingOrder(items[$0], items[$1]) }
        var origins = [(x: Int, y: Int)](repeating: (0, 0), count: items.count)
        var binWidth = 1
        var binHeight = 1
        var shelves: [Shelf] = []
        for index in order {
            let w = items[index].width
            let h = items[index].height
            precondition(w >= 1 && h >= 1, "shelf packing needs images of at least 1x1 pixels")
            while true {
                // The shelf of exactly this height that has room, else the one wasting the least area.
                var best: Int?
                var bestWaste = Int.max
                var usedHeight = 0
                var exact: Int?
                for (i, shelf) in shelves.enumerated() {
                    usedHeight += shelf.height
                    guard w <= shelf.free, h <= shelf.height else { continue }
                    if h == shelf.height {
                        exact = i
                        break
                    }
                    let waste = (shelf.height - h) * w
                    if waste < bestWaste {
                        bestWaste = waste
                        best = i
                    }
                }
                if let i = exact ?? best {
                    origins[index] = (shelves[i].x, shelves[i].y)
                    shelves[i].x += w
                    shelves[i].free -= w
                    break
                }
                if h <= binHeight - usedHeight, w <= binWidth {
                    shelves.append(Shelf(y: usedHeight, width: binWidth, free: binWidth, height: h))
                    continue
                }
                // Grow: double the smaller side (width first when equal), or enough for a large image.
                var newWidth = binWidth
                var newHeight = binHeight
                if binWidth <= binHeight || w > binWidth { newWidth = max(w, binWidth) * 2 }
                if binHeight < binWidth || h > binHeight { newHeight = max(h, binHeight) * 2 }
                for i in shelves.indices {
                    shelves[i].free += newWidth - shelves[i].width
                    shelves[i].width = newWidth
                }
                binWidth = newWidth
                binHeight = newHeight
            }
        }
        let width = shelves.map { $0.width - $0.free }.max() ?? 0
        let height = shelves.reduce(0) { $0 + $1.height }
        return Layout(origins: origins, width: width, height: height)
    }
}
