import MapData

/// A style file that cannot be used (see ``DocumentError``).
public typealias StyleError = DocumentError
