// One import for users of the library: `import MapRaster`.
@_exported import MapAnnotations
@_exported import MapBaseMap
@_exported import MapData
@_exported import MapDiff
@_exported import MapGeometry
@_exported import MapGraphics
@_exported import MapOverlays
@_exported import MapRender
@_exported import MapScene
@_exported import MapStyle
