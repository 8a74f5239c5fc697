import MagpieServer

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// thumbor's configuration keys (`thumbor/config.py` of 7.8 defines 133): every one has a row
/// here, as imgproxy's variables have theirs in ``ImgproxyEnvironment``, saying what this server
/// does with it.
///
/// - **setting**: read into ``ThumborSettings`` (the answers to thumbor's URLs);
/// - **arguments**: the flags it stands for, as the server's own settings (timeouts, the user
///   agent, the local root); a flag given on the command line wins;
/// - **ignored**: accepted, with a line at start saying why (Redis queues, statsd, Sentry, class
///   paths whose behaviour the server has anyway, what is still to come);
/// - **refused**: the start stops, with the key, its line and the reason, where the value asks
///   for what would be unsafe or is not built (`HTTP_LOADER_VALIDATE_CERTS = False`, uploads).
///
/// A value of the wrong kind stops the start too, naming the key and its line. A key thumbor
/// does not define is named at start and ignored (thumbor sets it and never reads it). The rows
/// are in `ThumborConfig+Rows.swift` (read) and `ThumborConfig+Unread.swift` (the others).
enum ThumborConfig {
    typealias Value = ThumborConfFile.Value

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    enum Use: Sendable {
        case setting(@Sendable (inout ThumborSettings, Value) throws(Failure) -> Void)
        case arguments(flags: [String], @Sendable (Value) throws(Failure) -> [String])
        case ignored(why: String)
        case refused(why: String, when: @Sendable (Value) -> Bool)
    }

    struct Row: Sendable {
        let key: String
        let use: Use
    }

    static let rows: [Row] = readRows + unreadRows
    static let byKey: [String: Row] = Dictionary(rows.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })

    /// What the file at `path` asks: thumbor's settings, the arguments its keys stand for (none
    /// that `given` has already), and notes for standard error.
    static func load(path: String, given: [String]) throws(Failure) -> (
        settings: ThumborSettings, arguments: [String], notes: [String]
    ) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Failure(description: "--thumbor-config \(path): cannot be read (\(error.localizedDescription))")
        }
        let assignments: [ThumborConfFile.Assignment]
        do {
            assignments = try ThumborConfFile.parse(text)
        } catch {
            throw Failure(description: "--thumbor-config \(path): \(error.description)")
        }
        return try read(ThumborConfFile.values(assignments), given: given, file: path)
    }

    /// The rows applied to the file's values, in the rows' order (so `LOADER` is read before
    /// `FILE_LOADER_ROOT_PATH` needs it).
    static func read(_ values: [String: (value: Value, line: Int)], given: [String], file: String) throws(Failure)
        -> (settings: ThumborSettings, arguments: [String], notes: [String])
    {
        var settings = ThumborSettings()
        var arguments: [String] = []
        var notes: [String] = []
        for row in rows {
            guard let (value, line) = values[row.key] else { continue }
            let at = "\(file):\(line): \(row.key)"
            do throws(Failure) {
                switch row.use {
                case .setting(let apply): try apply(&settings, value)
                case .arguments(let flags, let convert):
                    if flags.contains(where: { flag in given.contains { $0 == flag || $0.hasPrefix(flag + "=") } }) {
                        notes.append("\(at) is set but \(flags[0]) is given: the flag wins")
                        continue
                    }
                    arguments += try convert(value)
                case .ignored(let why): notes.append("\(at): \(why); ignored")
                case .refused(let why, let when):
                    if when(value) { throw Failure(description: "\(why)") }
                }
            } catch {
                throw Failure(description: "\(at) = \(value): \(error.description)")
            }
        }
        if settings.loadsFiles, values["FILE_LOADER_ROOT_PATH"] == nil,
            !given.contains(where: { $0 == "--local-root" || $0.hasPrefix("--local-root=") })
        {
            // thumbor's default root: the home folder of the user it runs as.
            arguments += ["--local-root", FileManager.default.homeDirectoryForCurrentUser.path]
        }
        for key in values.keys.sorted() where byKey[key] == nil {
            notes.append("\(file):\(values[key]!.line): \(key) is not one of thumbor's keys; ignored")
        }
        return (settings, arguments, notes)
    }
}
