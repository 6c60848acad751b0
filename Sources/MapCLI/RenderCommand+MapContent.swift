import MapRaster

extension RenderCommand {
    /// `--poi FILTER`, `--no-buildings` and `--appearance light|dark` over the scene's.
    static func applyMapContent(_ args: Arguments, to scene: inout Scene) throws {
        if let text = args["--poi"] {
            do { scene.pointOfInterestFilter = try PointOfInterestFilter(parsing: text) } catch {
                throw CLIError.usage("--poi \(error.description)")
            }
        }
        if args.flags.contains("--no-buildings") { scene.showsBuildings = false }
        if let name = args["--appearance"] {
            guard let style = UserInterfaceStyle(rawValue: name) else {
                throw CLIError.usage("--appearance '\(name)' is invalid: use light or dark")
            }
            scene.userInterfaceStyle = style
        }
    }
}
