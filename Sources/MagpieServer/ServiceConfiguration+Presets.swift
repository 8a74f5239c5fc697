extension ServiceConfiguration {
    /// What is wrong with the presets, checked as imgproxy checks them at start (each applied
    /// alone, with the arguments separator): `nil` when every one parses.
    public func presetProblem() -> String? {
        for (name, segments) in presets.sorted(by: { $0.key < $1.key }) {
            guard segments.allSatisfy({ paths.hasSeparator(String($0)) }) else {
                return "preset \(name): every part must be an option (NAME\(paths.argumentsSeparator)ARGUMENTS)"
            }
            do {
                var alone = self
                alone.paths.allowedOptions = []
                _ = try ProcessingOptions.parse([], presets: alone.presets, rules: alone.paths, named: [name])
            } catch {
                return "preset \(name): \(error.message)"
            }
        }
        return nil
    }
}
