import Foundation
import MagpieTestSupport
import Testing

@testable import Magpie
@testable import MagpieServer

/// The configured cases of imgproxy's `options/parser/processing_options_test.go` (v4): the same
/// paths, with the same configuration, give the same source, format and options here.
extension ImgproxyTableTests {
    static let origin = "http://images.dev/lorem/ipsum.jpg?param=value"

    static func b64(_ s: String) -> String { Base64URL.encode(Array(s.utf8)) }

    /// The path through ``ServicePath`` and ``ProcessingOptions`` as the service parses it.
    static func parsePath(
        _ path: String, _ rules: PathRules = .init(), presets: [String: [String]] = [:]
    ) throws -> (ServicePath, ProcessingOptions) {
        let p = try ServicePath.parse("/unsafe" + path, rules: rules)
        return (p, try ProcessingOptions.parse(p.options, presets: presets, rules: rules, named: p.presets))
    }

    @Test func base64SourcesWithAFileNameABaseURLAndReplacements() throws {
        var rules = PathRules()
        rules.base64IncludesFilename = true
        let (named, _) = try Self.parsePath("/size:100:100/\(Self.b64(Self.origin)).png/puppy.jpg", rules)
        #expect(named.source == Self.origin && named.ext == "png")
        // Without the rule the file name is part of the base64 text, which then does not decode.
        #expect(throws: ServiceError.malformedPath) {
            try Self.parsePath("/size:100:100/\(Self.b64(Self.origin)).png/puppy.jpg")
        }
        var base = PathRules()
        base.baseURL = "http://images.dev/"
        let (b, _) = try Self.parsePath("/size:100:100/\(Self.b64("lorem/ipsum.jpg?param=value")).png", base)
        #expect(b.source == "http://images.dev/lorem/ipsum.jpg?param=value" && b.ext == "png")
        let (already, _) = try Self.parsePath("/size:100:100/\(Self.b64(Self.origin))", base)
        #expect(already.source == Self.origin, "a source already under the base URL is kept")
        var replacing = PathRules()
        replacing.replacements = try #require(
            SourceReplacement.list("test://*/=test2://images.dev/${1}/dolor/;test2://=http://"))
        let (r, _) = try Self.parsePath(
            "/size:100:100/\(Self.b64("test://lorem/ipsum.jpg?param=value")).png", replacing)
        #expect(r.source == "http://images.dev/lorem/dolor/ipsum.jpg?param=value")
    }

    @Test func plainSourcesWithABaseURLAndReplacements() throws {
        var base = PathRules()
        base.baseURL = "http://images.dev/"
        let (b, _) = try Self.parsePath("/size:100:100/plain/lorem/ipsum.jpg@png", base)
        #expect(b.source == "http://images.dev/lorem/ipsum.jpg" && b.ext == "png")
        let (escaped, _) = try Self.parsePath("/size:100:100/plain/lorem%2Fipsum.jpg%3Fparam%3Dvalue@png", base)
        #expect(escaped.source == "http://images.dev/lorem/ipsum.jpg?param=value")
        var replacing = PathRules()
        replacing.replacements = try #require(
            SourceReplacement.list("test://*/=test2://images.dev/${1}/dolor/;test2://=http://"))
        let (r, _) = try Self.parsePath("/size:100:100/plain/test://lorem/ipsum.jpg@png", replacing)
        #expect(r.source == "http://images.dev/lorem/dolor/ipsum.jpg" && r.ext == "png")
    }

    @Test func anotherArgumentsSeparator() throws {
        var rules = PathRules()
        rules.argumentsSeparator = ","
        let (_, o) = try Self.parsePath("/size,100,100,1/plain/http://images.dev/lorem/ipsum.jpg", rules)
        #expect(o.width == 100 && o.height == 100 && o.enlarge)
        // A colon is now part of the source, not an option.
        let (p, _) = try Self.parsePath("/w,10/plain/http://images.dev/a:b.jpg", rules)
        #expect(p.options == ["w,10"] && p.source == "http://images.dev/a:b.jpg")
    }

    @Test func theDefaultPresetAppliesFirst() throws {
        let presets = ["default": ["resizing_type:fill", "blur:0.2", "quality:50"]]
        let (_, o) = try Self.parsePath("/quality:70/plain/http://images.dev/lorem/ipsum.jpg", presets: presets)
        #expect(o.resizingType == .fill && o.effects.blur == 0.2 && o.quality == 70)
    }

    @Test func presetsOnlyPaths() throws {
        var rules = PathRules()
        rules.onlyPresets = true
        let presets = ["test1": ["blur:0.2"], "test2": ["quality:50"]]
        let plain = "http://images.dev/lorem/ipsum.jpg"
        for (path, source) in [
            ("/test1:test2/plain/\(plain)@png", plain), ("/test1:test2/\(Self.b64(Self.origin)).png", Self.origin),
        ] {
            let (p, o) = try Self.parsePath(path, rules, presets: presets)
            #expect(p.source == source && p.ext == "png" && o.effects.blur == 0.2 && o.quality == 50, "\(path)")
        }
        // An option segment is a preset name there, and none is called `w:10`.
        #expect(throws: ServiceError.badOption) {
            try Self.parsePath("/w:10/plain/\(Self.origin)", rules, presets: presets)
        }
    }

    /// imgproxy's `TestParseAllowedOptions`: `w`, `h` and `pr` allowed; a preset's own options are
    /// not checked.
    @Test func allowedOptions() throws {
        var rules = PathRules()
        rules.allowedOptions = ["w", "h", "pr"]
        let presets = ["test1": ["blur:0.2"]]
        for (options, allowed) in [
            ("w:100/h:200", true), ("w:100/h:200/blur:10", false), ("w:100/h:200/pr:test1", true),
            ("w:100/h:200/pr:test1/blur:10", false), ("width:100", false),
        ] {
            let path = "/\(options)/\(Self.b64(Self.origin)).png"
            if allowed {
                #expect(throws: Never.self, "\(options)") { try Self.parsePath(path, rules, presets: presets) }
            } else {
                #expect(throws: ServiceError.forbiddenOption, "\(options)") {
                    try Self.parsePath(path, rules, presets: presets)
                }
            }
        }
    }
}
