import Foundation
import MapGeometry
import MapGraphics

extension AnnotationLayout {
    private struct BitmapKey: Hashable {
        var reuseIdentifier: String?
        var content: AnyHashable
        var width: Double
        var height: Double
    }

    /// Draws every annotation view that shows in the image, then the selected annotation's callout;
    /// returns all annotations and clusters with their frames and states.
    ///
    /// Order, back to front: views north to south (then in the order added), the user location, selected
    /// views, the callout.
    /// Views with a ``AnnotationView/reuseContentKey`` are drawn into a bitmap once per identifier, key
    /// and size and copied at their frame's origin rounded to whole device pixels.
    ///
    /// - Parameter sharedLayoutViewport: the layout's viewport when the layout was made once for a larger
    ///   area (tiles) and moved into `viewport`; the callout is then placed in that frame.
    /// - Returns: the placed annotations and how many view bitmaps were drawn and reused.
    package func draw(
        in context: GraphicsContext, viewport: MapViewport, sharedLayoutViewport: MapViewport?, reusesBitmaps: Bool
    ) throws -> (placed: [PlacedAnnotation], drawn: Int, reused: Int) {
        let layout = self
        var drawn = 0
        var reused = 0
        func layer(_ item: AnnotationLayout.Item) -> Int {
            item.isSelected ? 2 : item.annotation is UserLocation ? 1 : 0
        }
        let imageBounds = Rect(origin: .zero, size: viewport.size)
        let shown = (layout.annotations + layout.clusters).filter {
            $0.state == .visible && $0.frame.intersects(imageBounds)
        }.sorted { (layer($0), $0.y, $0.order) < (layer($1), $1.y, $1.order) }
        var bitmaps: [BitmapKey: ImageSurface] = [:]
        let scale = viewport.scale
        for item in shown {
            let view = item.view
            guard let content = view.reuseContentKey, view.reuseIdentifier != nil, view.size.width > 0,
                view.size.height > 0
            else {
                context.withSavedState {
                    context.translateBy(x: item.frame.minX, y: item.frame.minY)
                    view.draw(in: context, bounds: Rect(origin: .zero, size: view.size))
                }
                continue
            }
            let key = BitmapKey(
                reuseIdentifier: view.reuseIdentifier, content: content, width: view.size.width,
                height: view.size.height)
            let bitmap: ImageSurface
            if reusesBitmaps, let cached = bitmaps[key] {
                bitmap = cached
                reused += 1
            } else {
                bitmap = try ImageSurface(
                    width: Int((view.size.width * scale).rounded(.up)),
                    height: Int((view.size.height * scale).rounded(.up)))
                let bitmapContext = try GraphicsContext(surface: bitmap, scale: scale)
                view.draw(in: bitmapContext, bounds: Rect(origin: .zero, size: view.size))
                try bitmapContext.checkStatus("drawing an annotation view")
                bitmaps[key] = bitmap
                drawn += 1
            }
            let x = (item.frame.minX * scale).rounded() / scale
            let y = (item.frame.minY * scale).rounded() / scale
            context.draw(
                bitmap,
                in: Rect(x: x, y: y, width: Double(bitmap.width) / scale, height: Double(bitmap.height) / scale))
        }
        try context.checkStatus("drawing annotation views")
        var calloutRect: Rect?
        // With a shared layout (tiles), the callout is placed in the layout's frame, so that every image
        // cut from it draws the same bubble, also when only the bubble reaches into the image.
        let candidates =
            sharedLayoutViewport == nil ? shown : (layout.annotations + layout.clusters).filter { $0.state == .visible }
        if let item = candidates.last(where: { $0.isSelected }), item.view.canShowCallout,
            let title = item.annotation.title, !title.isEmpty
        {
            var callout = CalloutView(
                title: title, subtitle: item.annotation.subtitle,
                leftAccessoryImage: item.view.leftCalloutAccessoryImage,
                rightAccessoryImage: item.view.rightCalloutAccessoryImage)
            if let layoutViewport = sharedLayoutViewport {
                let perPoint = viewport.mapPointsPerPoint
                let dx = (viewport.visibleMapRect.minX - layoutViewport.visibleMapRect.minX) / perPoint
                let dy = (viewport.visibleMapRect.minY - layoutViewport.visibleMapRect.minY) / perPoint
                let frameInLayout = item.frame.offsetBy(dx: dx, dy: dy)
                // Only a selected view inside the laid-out area gets a callout there.
                if frameInLayout.intersects(Rect(origin: .zero, size: layoutViewport.size)) {
                    try callout.place(pointingAt: frameInLayout, imageSize: layoutViewport.size)
                    try context.withSavedState {
                        context.translateBy(x: -dx, y: -dy)
                        try callout.draw(in: context)
                    }
                    calloutRect = callout.bubble.offsetBy(dx: -dx, dy: -dy)
                }
            } else {
                try callout.place(pointingAt: item.frame, imageSize: viewport.size)
                try callout.draw(in: context)
                calloutRect = callout.bubble
            }
        }
        let all = layout.annotations.sorted { ($0.y, $0.order) < ($1.y, $1.order) }.map { item in
            PlacedAnnotation(
                annotation: item.annotation, frame: item.frame, visibility: item.state, clusterID: item.clusterID,
                isSelected: item.isSelected, calloutFrame: item.isSelected ? calloutRect : nil)
        }
        let clusters = layout.clusters.map { item in
            PlacedAnnotation(
                annotation: item.annotation, frame: item.frame, visibility: item.state, clusterID: item.clusterID,
                isSelected: false, calloutFrame: nil)
        }
        return (all + clusters, drawn, reused)
    }
}
