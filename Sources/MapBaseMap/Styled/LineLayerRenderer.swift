import Foundation
import MapGeometry
import MapGraphics
import MapStyle

/// Draws a `line` layer: lines, or the outlines of polygons without the edges that only exist because
/// the data is cut at the 180th meridian or at the south pole's limit, as MapLibre's line shaders draw
/// them. Bucket, then shade: ``LineBucket`` resolves each feature's paint and cuts its lines as MapLibre's
/// tiles hold them; its meshes (``LineTessellator``) are rasterized by the ``Rasterizer`` with MapLibre's
/// line shading (plain, gradient, pattern, SDF dash). `line-gap-width` draws a casing: two lines either
/// side of a gap. `line-gradient` colors a line by `line-progress` and `line-pattern` repeats an image
/// along it, spanning the line's width. `line-blur` fades the edges; `line-offset` draws a parallel line;
/// `line-translate` moves the layer. Layers whose meshes would cost too much to rasterize
/// (``LineBucket/meshBudget(imagePixels:)``), dashed gradients and dashes without a distance field are
/// stroked by Cairo (``LineLayerRenderer+Cairo.swift``).
enum LineLayerRenderer {
    /// The paint and layout properties read for every feature, resolved once per draw.
    struct Properties {
        let color: ResolvedStyleProperty
        let width: ResolvedStyleProperty
        /// `line-width` at the integer zoom below (``floorContext(_:)``).
        let floorWidth: ResolvedStyleProperty
        let opacity: ResolvedStyleProperty
        let gap: ResolvedStyleProperty
        let dasharray: ResolvedStyleProperty
        let cap: ResolvedStyleProperty
        let join: ResolvedStyleProperty
        let miterLimit: ResolvedStyleProperty
        let offset: ResolvedStyleProperty
        let blur: ResolvedStyleProperty

        /// The properties of `layer` at the zoom of `context` (a feature-free context of the image).
        init(_ layer: StyleLayer, at context: EvaluationContext) {
            color = ResolvedStyleProperty(layer, .lineColor, at: context)
            width = ResolvedStyleProperty(layer, .lineWidth, at: context)
            floorWidth = ResolvedStyleProperty(layer, .lineWidth, at: LineLayerRenderer.floorContext(context))
            opacity = ResolvedStyleProperty(layer, .lineOpacity, at: context)
            gap = ResolvedStyleProperty(layer, .lineGapWidth, at: context)
            dasharray = ResolvedStyleProperty(layer, .lineDasharray, at: context)
            cap = ResolvedStyleProperty(layer, .lineCap, at: context)
            join = ResolvedStyleProperty(layer, .lineJoin, at: context)
            miterLimit = ResolvedStyleProperty(layer, .lineMiterLimit, at: context)
            offset = ResolvedStyleProperty(layer, .lineOffset, at: context)
            blur = ResolvedStyleProperty(layer, .lineBlur, at: context)
        }
    }

    /// A piece of a line painted along its length (gradient or pattern).
    struct PaintedPiece {
        var paint: LineBucket.Paint
        var piece: StrokePiece
        var context: EvaluationContext
        var pattern: String?
    }

    /// A line layer made ready to draw: its bucket and, when it is rasterized, every job's mesh (cut to
    /// its tile's quadrilateral in a turned or tilted view). It holds no context, so it may be made on another
    /// thread (``BucketPipeline``) while an earlier layer is drawn.
    struct Prepared {
        var bucket: LineBucket
        /// One mesh per job of the bucket, in order.
        var meshes: [LineMesh]

        /// About how many bytes the meshes hold (``BucketPipeline``).
        var bytes: Int {
            meshes.reduce(0) {
                $0 + $1.vertices.count * MemoryLayout<LineMesh.Vertex>.stride + $1.indices.count * 4
            }
        }
    }

    /// The layer's bucket and meshes in `frame`'s view, for an image of `imagePixels` device pixels (the
    /// clip's area: the meshes are made only when they cost less than ``LineBucket/meshBudget(imagePixels:)``).
    /// Reads the frame's selection and, for `line-pattern`, its pattern images; never its context.
    static func prepare(
        _ layer: StyleLayer, source: FeatureSource, geojsonMaxZoom: Int, in frame: LayerFrame, imagePixels: Double
    ) -> Prepared {
        var bucket = LineBucket(layer, source: source, geojsonMaxZoom: geojsonMaxZoom, in: frame)
        // The decision is taken from the bucket's cost, before any mesh is made.
        if bucket.cost > LineBucket.meshBudget(imagePixels: imagePixels) {
            bucket = LineBucket(layer, source: source, geojsonMaxZoom: geojsonMaxZoom, in: frame, meshes: false)
        }
        let (tx, ty) = bucket.translation
        let meshes = bucket.jobs.map { job in
            // MapLibre's stencil keeps each tile's square where it is; the lines move.
            let mesh = bucket.tessellate(job)
            guard let polygon = job.clipPolygon else { return mesh }
            return mesh.clipped(to: polygon.map { Point(x: $0.x - tx, y: $0.y - ty) })
        }
        return Prepared(bucket: bucket, meshes: meshes)
    }

    /// Draws what ``prepare(_:source:geojsonMaxZoom:in:imagePixels:)`` made for `layer` into `frame`'s context:
    /// through the rasterizer when the meshes were affordable, else by Cairo.
    static func draw(_ prepared: Prepared, layer: StyleLayer, in frame: LayerFrame) {
        let bucket = prepared.bucket
        let g = frame.context
        let (tx, ty) = bucket.translation
        g.withSavedState {
            g.translateBy(x: tx, y: ty)
            if !bucket.jobs.isEmpty {
                let rasterizer = g.makeRasterizer()
                let table =
                    bucket.jobs.contains(where: \.usesGradientTable)
                    ? gradientTable(layer, frame: frame, longestLine: bucket.longestLine) : nil
                for (job, mesh) in zip(bucket.jobs, prepared.meshes) {
                    var shading = job.shading
                    if job.usesGradientTable, let table {
                        shading.paint = .gradient(
                            ColorRamp(colors: table.colors, nearest: table.nearest, steps: table.steps))
                    }
                    rasterizer.add(mesh, shading, clip: job.clip.map { $0.offsetBy(dx: -tx, dy: -ty) })
                }
                g.draw(rasterizer)
            }
            stroke(bucket.stroked, bucket: bucket, layer: layer, frame: frame)
        }
        g.setLineDash(phase: 0, lengths: [])
    }

    /// Draws `features` with Cairo: plain ones as one path per paint, then those painted along their length.
    static func stroke(_ features: [LineBucket.Stroked], bucket: LineBucket, layer: StyleLayer, frame: LayerFrame) {
        var groups = PaintGroups<LineBucket.Paint>()
        var painted: [PaintedPiece] = []
        for feature in features {
            let pipeline = feature.geojson ? bucket.geojsonPipeline : bucket.tilePipeline
            let paint = feature.paint
            if feature.painted {
                for line in feature.lines {
                    for var piece in pipeline.line(line, offset: feature.offset) {
                        if paint.offset != 0 { piece.points = LineOffset.offset(piece.points, by: paint.offset) }
                        painted.append(
                            PaintedPiece(paint: paint, piece: piece, context: feature.context, pattern: feature.pattern)
                        )
                    }
                }
                continue
            }
            groups.withPath(for: paint) { path in
                for line in feature.lines {
                    for piece in pipeline.line(line, offset: feature.offset) {
                        path.addLines(
                            paint.offset == 0 ? piece.points : LineOffset.offset(piece.points, by: paint.offset),
                            closed: false)
                    }
                }
            }
        }
        for (paint, path) in groups.nonEmpty { stroke(path, paint, frame.context, scale: frame.viewport.scale) }
        for item in painted { paintAlong(item, layer: layer, frame: frame) }
    }

    /// The context at the integer zoom below: MapLibre scales dashes by the line width there
    /// (`line-floorwidth`), not by the width drawn at a fractional zoom, and then by the tile's growth
    /// with the fractional zoom (2^fraction), as patterns.
    static func floorContext(_ context: EvaluationContext) -> EvaluationContext {
        var c = context
        c.zoom = c.zoom.rounded(.down)
        return c
    }

}
