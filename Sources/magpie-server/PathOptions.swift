import ArgumentParser
import MagpieServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How request paths are read (``PathRules``) and the presets, as imgproxy's
/// variables set them (`IMGPROXY_ARGUMENTS_SEPARATOR`, `_BASE_URL`, `_URL_REPLACEMENTS`,
/// `_PRESETS`, `_PRESETS_SEPARATOR`, `_PRESETS_PATH`, `_ONLY_PRESETS`, …).
struct PathOptions: ParsableArguments {
    @Option(name: .long, help: "A preset, NAME=OPTION/OPTION… (repeatable); `default` applies to every request first.")
    var preset: [String] = []
    @Option(name: .long, help: "Presets, NAME=OPTION/OPTION… divided by --presets-separator (IMGPROXY_PRESETS).")
    var presets: String?
    @Option(name: .long, help: "What divides the presets of --presets (default: ,).")
    var presetsSeparator = ","
    @Option(name: .long, help: "A file of presets, one NAME=OPTION/OPTION… a line; # starts a comment.")
    var presetsPath: String?
    @Flag(name: .long, help: "Paths name presets only: /SIGNATURE/PRESET:PRESET…/SOURCE.")
    var onlyPresets = false
    @Option(name: .long, help: "What divides an option's name and arguments (default: :).")
    var argumentsSeparator = ":"
    @Option(
        name: .customLong("allowed-option"),
        help: "An option name a URL may use, as written (repeatable; default: all).")
    var allowedOptions: [String] = []
    @Option(name: .long, help: "Put before every source that does not start with it (after --url-replacement).")
    var baseURL: String?
    @Option(
        name: .customLong("url-replacement"),
        help:
            "PATTERN=REPLACEMENT: a source starting with PATTERN (* is any text but /) starts with REPLACEMENT (${N}: the Nth *)."
    )
    var urlReplacements: [String] = []
    @Flag(name: .long, help: "A base64 source may be followed by /FILENAME, which is dropped.")
    var base64URLIncludesFilename = false
    @Option(name: .long, help: "Serve every route under this path (/images/SIGNATURE/…, /images/health).")
    var pathPrefix: String?
    @Option(name: .long, help: "A path answered as /health is, besides it.")
    var healthCheckPath: String?
    @Option(
        name: .long, help: "Where a local:// or s3:// source's query (an S3 version) begins: ?, another text, or none.")
    var sourceQuerySeparator = "?"
    @Flag(name: .long, help: "A local:// or s3:// source has no query: a ? is part of its key.")
    var noSourceQuery = false

    /// The presets and path rules into `configuration`.
    func apply(to configuration: inout ServiceConfiguration) throws {
        guard !argumentsSeparator.isEmpty, !argumentsSeparator.contains("/") else {
            throw ValidationError("--arguments-separator must be text without /")
        }
        var rules = PathRules()
        rules.argumentsSeparator = argumentsSeparator
        rules.onlyPresets = onlyPresets
        rules.allowedOptions = Set(allowedOptions)
        rules.baseURL = baseURL ?? ""
        guard !sourceQuerySeparator.isEmpty, !sourceQuerySeparator.contains("/") else {
            throw ValidationError("--source-query-separator must be text without / (--no-source-query: none)")
        }
        rules.sourceQuerySeparator = noSourceQuery ? "" : sourceQuerySeparator
        for text in urlReplacements {
            guard let eq = text.firstIndex(of: "="),
                let r = SourceReplacement(
                    pattern: String(text[..<eq]), replacement: String(text[text.index(after: eq)...]))
            else {
                throw ValidationError(
                    "--url-replacement \(text): not PATTERN=REPLACEMENT (at most \(SourceReplacement.maxStars) *)")
            }
            rules.replacements.append(r)
        }
        rules.base64IncludesFilename = base64URLIncludesFilename
        rules.prefix = try Self.path(pathPrefix, "--path-prefix")
        rules.healthCheckPath = try Self.path(healthCheckPath, "--health-check-path")
        configuration.paths = rules
        var lines = preset
        if let presets { lines += presets.components(separatedBy: presetsSeparator) }
        if let presetsPath {
            guard let text = try? String(contentsOfFile: presetsPath, encoding: .utf8) else {
                throw ValidationError("--presets-path \(presetsPath): cannot be read as UTF-8 text")
            }
            lines += text.split(whereSeparator: \.isNewline).map(String.init)
        }
        for line in lines {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            let parts = text.split(separator: "=", omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard parts.count == 2, !name.isEmpty, !value.isEmpty else {
                throw ValidationError("preset \(text): not NAME=OPTION/OPTION…")
            }
            configuration.presets[name] = value.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        }
        if let problem = configuration.presetProblem() { throw ValidationError(problem) }
    }

    /// A path as imgproxy reads one (`/` added before, none after); empty: none.
    static func path(_ text: String?, _ flag: String) throws -> String {
        guard var path = text, !path.isEmpty else { return "" }
        guard !path.contains("?"), !path.contains("#"), !path.contains("%") else {
            throw ValidationError("\(flag) must be a plain path")
        }
        while path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty || path.hasPrefix("/") ? path : "/" + path
    }
}
