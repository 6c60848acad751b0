import MapRaster

extension RenderCommand {
    /// `--poi FILTER`, `--no-buildings`, `--no-cross-source-collisions` and `--appearance light|dark` over
    /// the scene's.
    static func applyMapContent(_ args: Arguments, to scene: inout Scene) throws {
        if let text = args["--poi"] {
            do { scene.pointOfInterestFilter = try PointOfInterestFilter(parsing: text) } catch {
                throw CLIError.usage("--poi \(error.description)")
            }
        }
        if args.flags.contains("--no-buildings") { scene.showsBuildings = false }
        if args.flags.contains("--no-cross-source-collisions") { scene.crossSourceCollisions = false }
        if let name = args["--appearance"] {
            guard let style = UserInterfaceStyle(rawValue: name) else {
                throw CLIError.usage("--appearance '\(name)' is invalid: use light or dark")
            }
            scene.userInterfaceStyle = style
        }
    }
}
