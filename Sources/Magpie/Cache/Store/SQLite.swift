internal import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure SQLite reported: its primary result code, the extended one, the `errno` of the
/// system call that failed under it (0 if none) and its message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var extendedCode: Int32
    var systemErrno: Int32
    var message: String

    /// The database is not a database, or a page of it is damaged.
    var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// The disk (or the file-size limit) refused the pages.
    var isFull: Bool {
        code == SQLITE_FULL || (code == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EFBIG))
    }
    /// Another connection held a lock past the busy timeout.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The folder's file can no longer be written (read-only mount, permissions).
    var isReadOnly: Bool { code == SQLITE_READONLY }

    /// The closest `errno` for a caller that reports file errors: the system's own when SQLite
    /// kept it, else ENOSPC for a full disk, EIO otherwise.
    var errnoValue: Int32 {
        if systemErrno != 0 { return systemErrno }
        if isFull { return ENOSPC }
        if isReadOnly { return EROFS }
        if isBusy { return EBUSY }
        return EIO
    }

    var description: String { "SQLite error \(extendedCode): \(message)" }
}

/// One connection to an SQLite database (the system's libsqlite3, built serialized). A connection
/// is used by one thread at a time: ``CacheIndex`` hands them out from a pool. Statements are
/// prepared once and kept, keyed by their SQL's static address.
final class SQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [UInt: OpaquePointer] = [:]

    /// Opens (creating, unless `readOnly`) the database at `path`. `immutable` reads a database in
    /// a folder that cannot be written (no WAL index can be made there).
    init(path: String, readOnly: Bool = false, immutable: Bool = false, busyTimeoutMilliseconds: Int32 = 10_000)
        throws(SQLiteError)
    {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_URI | SQLITE_OPEN_NOFOLLOW
        let name = immutable ? "file:\(Self.uriEscaped(path))?immutable=1" : path
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(
                code: rc & 0xFF, extendedCode: rc, systemErrno: db.map { sqlite3_system_errno($0) } ?? 0,
                message: db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc)))
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private static func uriEscaped(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"): out += "%" + String(b, radix: 16)
            default: out.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return out
    }

    func error(_ rc: Int32) -> SQLiteError {
        SQLiteError(
            code: rc & 0xFF, extendedCode: rc, systemErrno: sqlite3_system_errno(handle),
            message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        if rc != SQLITE_OK { throw error(rc) }
    }

    /// The prepared statement for `sql` (prepared on first use, then kept), reset and unbound.
    func statement(_ sql: StaticString) throws(SQLiteError) -> SQLiteStatement {
        let key = UInt(bitPattern: sql.utf8Start)
        if let cached = statements[key] { return SQLiteStatement(handle: cached, connection: self) }
        var prepared: OpaquePointer?
        let rc = sql.withUTF8Buffer { text in
            text.withMemoryRebound(to: CChar.self) {
                sqlite3_prepare_v3(
                    handle, $0.baseAddress, Int32($0.count), UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            }
        }
        guard rc == SQLITE_OK, let prepared else { throw error(rc) }
        statements[key] = prepared
        return SQLiteStatement(handle: prepared, connection: self)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The first column of the first row of `sql` (a pragma, a count), as an integer.
    func integer(_ sql: StaticString) throws(SQLiteError) -> Int {
        let s = try statement(sql)
        defer { s.reset() }
        return try s.step() ? s.int(0) : 0
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`: the folder's write lock is taken
    /// first, so two writers never deadlock upgrading), committed when it returns, rolled back
    /// when it throws.
    func transaction<R>(_ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Checkpoints the write-ahead log into the database; `truncating` also gives its space back.
    func checkpoint(truncating: Bool) {
        sqlite3_wal_checkpoint_v2(
            handle, nil, truncating ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }
}

/// A prepared statement of a ``SQLiteConnection``: bind, step, read columns, reset. Blobs and
/// text are bound without copying: the bytes must live until the statement is reset.
struct SQLiteStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }
    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }
    /// Binds `bytes` as a blob, uncopied (SQLITE_STATIC): valid until the next reset.
    func bind(_ index: Int32, blob bytes: UnsafeRawBufferPointer) {
        sqlite3_bind_blob64(
            handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), nil)
    }
    /// Binds `text` (its UTF-8 bytes, copied by SQLite).
    func bind(_ index: Int32, text: String) {
        var text = text
        _ = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text64(
                    handle, index, $0.baseAddress, UInt64($0.count),
                    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self), UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Advances to the next row: `true` on a row, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw connection.error(rc)
    }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// A blob column's bytes, valid until the next step or reset.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let base = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: count > 0 ? base : nil, count: count)
    }
    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws SQLite's errors (typed throws pass through).
    func withSQLiteBytes<R>(_ body: (UnsafeRawBufferPointer) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        let result: Result<R, SQLiteError> = withUnsafeBytes { raw in
            do throws(SQLiteError) {
                return .success(try body(raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
