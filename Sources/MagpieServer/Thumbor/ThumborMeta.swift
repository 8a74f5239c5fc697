import Magpie
import MagpieImage

/// thumbor's `meta` URLs (`engines/json_engine.py`): instead of the image, the engine calls its
/// geometry would make, as JSON, or JSONP with a callback (`META_CALLBACK_NAME`, else the URL's
/// `callback` argument). Answered from the source's header: nothing is decoded.
///
/// As thumbor's JSON engine: `source` is the engine's size when it writes (the result's, not the
/// source's), `target` the last crop's or resize's, one `alignment` focal point at the halign and
/// valign of the image after the manual crop. Numbers are integers where thumbor writes some as
/// `48.0`; a callback from the URL is written as given where thumbor writes Python's `b'fn'`.
struct ThumborMeta: Sendable {
    var geometry: ThumborGeometry
    var noUpscale = false
    var respectsOrientation = false
    /// The image as thumbor's request holds it (quoted), `source.url`.
    var url: String
    /// The JSONP callback; nil: JSON.
    var callback: String?

    var contentType: String { callback == nil ? "application/json" : "text/javascript" }

    /// A callback a page can name: identifiers joined by dots, at most 128 characters. Anything
    /// else (thumbor writes any text of the URL's into a script) is refused.
    static func isCallback(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128 else { return false }
        func letter(_ b: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20) || b == UInt8(ascii: "_")
                || b == UInt8(ascii: "$")
        }
        return name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, letter(first) else { return false }
            return part.allSatisfy { letter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }

    /// The document for a source's bytes.
    func document(for data: [UInt8]) throws -> [UInt8] {
        let info = try ImageInfo(probing: data)
        var probe = DecodingOptions(appliesOrientation: respectsOrientation)
        probe.frames = .single(0)
        let (sw, sh) = try Image.outputSize(of: data, options: probe)
        var g = geometry
        if noUpscale {
            g.width = g.width.map { min($0, sw) }
            g.height = g.height.map { min($0, sh) }
        }
        let plan = try g.plan(sourceWidth: sw, sourceHeight: sh)
        var (w, h) = (sw, sh)
        var operations: [String] = []
        for step in plan.steps {
            switch step {
            case .crop(let l, let t, let r, let b):
                operations.append(#"{"type": "crop", "left": \#(l), "top": \#(t), "right": \#(r), "bottom": \#(b)}"#)
                (w, h) = (r - l, b - t)
            case .resize(let rw, let rh):
                operations.append(#"{"type": "resize", "width": \#(rw), "height": \#(rh)}"#)
                (w, h) = (rw, rh)
            case .flipHorizontally: operations.append(#"{"type": "flip_horizontally"}"#)
            case .flipVertically: operations.append(#"{"type": "flip_vertically"}"#)
            }
        }
        let focal =
            #"{"x": \#(Int(plan.focus.x)), "y": \#(Int(plan.focus.y)), "z": 1.0, "height": 1, "width": 1, "origin": "alignment"}"#
        let json =
            #"{"thumbor": {"source": {"url": \#(Self.string(url)), "width": \#(w), "height": \#(h), "frameCount": \#(max(1, info.frameCount))}, "operations": [\#(operations.joined(separator: ", "))], "target": {"width": \#(w), "height": \#(h)}, "focal_points": [\#(focal)]}}"#
        return Array((callback.map { "\($0)(\(json));" } ?? json).utf8)
    }

    /// A JSON string (Python's `json.dumps`: ASCII, `\uXXXX` past it).
    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.utf16 {
            switch u {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F: out.append(Character(Unicode.Scalar(u)!))
            default: out += "\\u" + String(repeating: "0", count: 4 - String(u, radix: 16).count) + String(u, radix: 16)
            }
        }
        return out + "\""
    }
}
