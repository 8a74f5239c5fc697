/// imgproxy's configuration variables, read when the matching flag is not given, so a deployment
/// that runs imgproxy switches by changing the command. One row per variable: its name, the flags
/// it stands for (given any of them, the variable is not read) and how its value becomes
/// arguments. A value that does not parse stops the server at start, naming the variable; a
/// variable this server does not support is named on standard error and otherwise ignored. The
/// table in docs/configuration.md says what each does here.
enum ImgproxyEnvironment {
    typealias Convert = @Sendable (String) throws(Failure) -> [String]

    struct Row: Sendable {
        let variable: String
        let flags: [String]
        let convert: Convert
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The arguments the environment adds to `given`, and notes for standard error.
    static func arguments(_ environment: [String: String], given: [String]) throws(Failure) -> (
        arguments: [String], notes: [String]
    ) {
        var arguments: [String] = []
        var notes: [String] = []
        for row in rows {
            guard let value = environment[row.variable] else { continue }
            if row.flags.contains(where: { flag in given.contains { $0 == flag || $0.hasPrefix(flag + "=") } }) {
                notes.append("\(row.variable) is set but \(row.flags[0]) is given: the flag wins")
                continue
            }
            do {
                arguments += try row.convert(value.trimmingCharacters(in: .whitespaces))
            } catch {
                throw Failure(description: "\(row.variable)=\(value): \(error.description)")
            }
        }
        let known = Set(rows.map(\.variable))
        for name in environment.keys.sorted() where name.hasPrefix("IMGPROXY_") && !known.contains(name) {
            notes.append(unsupported[name].map { "\(name): \($0); ignored" } ?? "\(name) is not supported; ignored")
        }
        return (arguments, notes)
    }

    // MARK: value parsers

    static func int(_ flag: String, _ range: ClosedRange<Int> = 0...Int(Int32.max)) -> Convert {
        { v throws(Failure) in
            guard let n = Int(v), range.contains(n) else { throw Failure(description: "not an integer in \(range)") }
            return [flag, String(n)]
        }
    }

    static func bool(_ s: String) throws(Failure) -> Bool {
        switch s {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw Failure(description: "not a boolean (true, false, 1, 0)")
        }
    }

    /// A flag when true (and `off` when false, if the flag has an inversion).
    static func flag(_ on: String, off: String? = nil) -> Convert {
        { v throws(Failure) in try bool(v) ? [on] : off.map { [$0] } ?? [] }
    }

    static func string(_ flag: String) -> Convert {
        { v throws(Failure) in
            guard !v.isEmpty else { throw Failure(description: "empty") }
            return [flag, v]
        }
    }

    /// A comma-separated list, each item an argument of `flag`.
    static func list(_ flag: String) -> Convert {
        { v throws(Failure) in
            v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .flatMap { [flag, $0] }
        }
    }

    static func hex(_ flag: String) -> Convert {
        { v throws(Failure) in
            guard !v.isEmpty, v.count % 2 == 0,
                v.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
            else { throw Failure(description: "not hex") }
            return [flag, v]
        }
    }

    /// imgproxy's `:8080` (every interface) or `HOST:PORT`.
    static func bind(_ flag: String) -> Convert {
        { v throws(Failure) in
            let text = v.hasPrefix(":") ? "0.0.0.0" + v : v
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
                (0...65535).contains(port), colon > text.startIndex
            else { throw Failure(description: "not HOST:PORT or :PORT") }
            return [flag, text]
        }
    }

    /// Megapixels (imgproxy's unit) as whole pixels.
    static func megapixels(_ flag: String) -> Convert {
        { v throws(Failure) in
            guard let mp = Double(v), mp.isFinite, mp > 0, mp <= 1_000_000 else {
                throw Failure(description: "not a positive number of megapixels")
            }
            return [flag, String(Int((mp * 1_000_000).rounded()))]
        }
    }

    /// imgproxy's 0 means "no limit"; Magpie always has one, so 0 keeps the flag's default.
    static func limit(_ flag: String) -> Convert {
        { v throws(Failure) in v == "0" ? [] : try int(flag, 1...Int.max)(v) }
    }

    /// `jpeg=80,webp=70,avif=60`: formats this server does not write (jxl, gif…) are left out.
    @Sendable static func formatQuality(_ v: String) throws(Failure) -> [String] {
        var out: [String] = []
        for item in v.split(separator: ",") {
            let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let q = Int(parts[1]), (1...100).contains(q) else {
                throw Failure(description: "not FORMAT=QUALITY,… with qualities 1–100")
            }
            if ["jpg", "jpeg", "png", "webp", "avif"].contains(parts[0].lowercased()) {
                out += ["--format-quality", "\(parts[0].lowercased())=\(q)"]
            } else if !["jxl", "gif", "heic", "tiff", "bmp", "ico"].contains(parts[0].lowercased()) {
                throw Failure(description: "unknown format \(parts[0])")
            }
        }
        return out
    }
}
