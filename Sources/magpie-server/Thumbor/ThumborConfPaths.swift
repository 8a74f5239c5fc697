#if canImport(Glibc)
    import Glibc
#endif

/// The two functions of `os.path` that thumbor's own sample configuration calls (`home =
/// expanduser("~")`, `FILE_STORAGE_ROOT_PATH = join(home, "thumbor", "storage")`), read as
/// Python computes them: `~` is this process's `HOME`, and `join` starts again at an absolute
/// part. They compute names only; nothing is read from the disk.
enum ThumborConfPaths {
    typealias Value = ThumborConfFile.Value
    typealias Failure = ThumborConfFile.Failure

    static let names: Set<String> = ["expanduser", "join"]

    static func call(_ name: String, _ arguments: [Value], line: Int) throws(Failure) -> Value {
        var strings: [String] = []
        for a in arguments {
            guard case .string(let s) = a else {
                throw Failure(line: line, reason: "\(name)() of \(ThumborConfArithmetic.kind(a)) (strings only)")
            }
            strings.append(s)
        }
        switch name {
        case "expanduser":
            guard strings.count == 1 else { throw Failure(line: line, reason: "expanduser() takes one string") }
            return .string(expandUser(strings[0]))
        default:
            guard !strings.isEmpty else { throw Failure(line: line, reason: "join() takes at least one string") }
            return .string(join(strings))
        }
    }

    /// `~` and `~/…` become `HOME` and under it (`~user` is left as it is: no user database is read).
    static func expandUser(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        var home = getenv("HOME").map { String(cString: $0) } ?? "/"
        while home.hasSuffix("/") { home.removeLast() }
        let out = home + path.dropFirst()
        return out.isEmpty ? "/" : out
    }

    static func join(_ parts: [String]) -> String {
        var out = ""
        for part in parts {
            if part.hasPrefix("/") {
                out = part
            } else if out.isEmpty || out.hasSuffix("/") {
                out += part
            } else {
                out += "/" + part
            }
        }
        return out
    }
}
