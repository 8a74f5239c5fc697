/// imgproxy's configuration variables: every one its open-source build reads has a row here, as
/// the URL options have theirs, saying what this server does with it.
///
/// - **read**: the flags it stands for (given any of them, the variable is not read) and how its
///   value becomes arguments; a value that does not parse stops the start, naming the variable;
/// - **ignored**: accepted, with a line at start-up saying why (a vendor's error reporter this
///   server has no client for, a tuning knob of Go or libvips);
/// - **refused**: the start stops, with the reason, when its value asks for what would be unsafe
///   or impossible here (`IMGPROXY_IGNORE_SSL_VERIFICATION=true`, `IMGPROXY_USE_GCS=true`).
///
/// An `IMGPROXY_` name with no row is named on standard error. The rows are in
/// `ImgproxyEnvironment+Rows.swift` (read) and `ImgproxyEnvironment+Unread.swift` (the others);
/// docs/configuration.md shows them all, and a test checks every name of imgproxy's list has one.
enum ImgproxyEnvironment {
    typealias Convert = @Sendable (String) throws(Failure) -> [String]

    struct Row: Sendable {
        let variable: String
        let use: Use
    }

    enum Use: Sendable {
        case read(flags: [String], convert: Convert)
        case ignored(why: String)
        case refused(why: String, when: @Sendable (String) -> Bool)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let rows: [Row] = readRows + unreadRows
    static let byName: [String: Row] = Dictionary(rows.map { ($0.variable, $0) }, uniquingKeysWith: { a, _ in a })

    /// The arguments the environment adds to `given`, and notes for standard error.
    static func arguments(_ environment: [String: String], given: [String]) throws(Failure) -> (
        arguments: [String], notes: [String]
    ) {
        var arguments: [String] = []
        var notes: [String] = []
        var read: [String: String] = [:]  // flag: the variable that set it
        for row in rows {
            guard let value = environment[row.variable] else { continue }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            switch row.use {
            case .read(let flags, let convert):
                if flags.contains(where: { flag in given.contains { $0 == flag || $0.hasPrefix(flag + "=") } }) {
                    notes.append("\(row.variable) is set but \(flags[0]) is given: the flag wins")
                    continue
                }
                if let earlier = read[flags[0]] {
                    notes.append("\(row.variable) is set but so is \(earlier), which sets \(flags[0]): \(earlier) wins")
                    continue
                }
                read[flags[0]] = row.variable
                do {
                    arguments += try convert(trimmed)
                } catch {
                    throw Failure(description: "\(row.variable)=\(value): \(error.description)")
                }
            case .ignored(let why):
                notes.append("\(row.variable): \(why); ignored")
            case .refused(let why, let when):
                if when(trimmed) { throw Failure(description: "\(row.variable)=\(value): \(why)") }
            }
        }
        for name in environment.keys.sorted() where name.hasPrefix("IMGPROXY_") && byName[name] == nil {
            notes.append("\(name) is not one of imgproxy's variables; ignored")
        }
        return (arguments, notes)
    }

    // MARK: row makers

    static func read(_ variable: String, _ flags: [String], _ convert: @escaping Convert) -> Row {
        Row(variable: variable, use: .read(flags: flags, convert: convert))
    }

    /// Rows for `variables`, each accepted and ignored for `why`.
    static func ignored(_ variables: [String], _ why: String) -> [Row] {
        variables.map { Row(variable: $0, use: .ignored(why: why)) }
    }

    /// Rows for `variables`, each stopping the start for `why` when `when` holds for its value
    /// (by default: a true boolean or, for a variable that is not one, any value but empty).
    static func refused(
        _ variables: [String], _ why: String, when: @escaping @Sendable (String) -> Bool = Self.asks
    ) -> [Row] {
        variables.map { Row(variable: $0, use: .refused(why: why, when: when)) }
    }

    /// Whether a value asks for its feature: not empty and not one of Go's false words.
    @Sendable static func asks(_ value: String) -> Bool {
        !value.isEmpty && !["0", "f", "F", "false", "FALSE", "False"].contains(value)
    }
}
