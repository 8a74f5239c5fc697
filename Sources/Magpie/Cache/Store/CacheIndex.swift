#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cache folder's index: one SQLite database (`.magpie-index.sqlite`, in WAL mode) that knows
/// every entry, its bytes, its bytes on disk, its last access and its expiry, and holds the small
/// entries themselves (YYCache's `manifest.sqlite`). Every process that opens the folder shares
/// it: SQLite's locks order their writes, and the totals it keeps (by trigger, in the same
/// transaction as each change) are the folder's, whoever wrote.
///
/// Reads take a connection from a small pool (WAL readers never wait for the writer); writes go
/// through one connection under this process's lock, so the threads of one process queue here
/// rather than in SQLite's sleeping busy handler, which only other processes meet.
final class CacheIndex: Sendable {
    static let fileName = ".magpie-index.sqlite"
    /// The database and the files SQLite keeps beside it.
    static let fileNames = [fileName, fileName + "-wal", fileName + "-shm"]
    /// Bumped when the schema changes; a database of another format is made again.
    static let format = 1
    /// The database's page size (set when it is made).
    static let pageSize = 16384

    let path: String
    let isReadOnly: Bool
    /// Opened without its log (a read-only folder where SQLite could not read the log).
    let isImmutable: Bool
    /// The database file's inode when it was opened: a file of another inode under the name
    /// means the folder or the database was made again (by this process or another).
    let inode: UInt64
    private let writer: Locked<SQLiteConnection>?
    private let readers = Locked<[SQLiteConnection]>([])
    private let settings: Settings

    struct Settings: Sendable {
        /// Pages of write-ahead log after which a writer checkpoints it into the database.
        var walPages: Int
        /// Bytes the log is cut back to after a checkpoint.
        var journalLimit: Int
    }

    /// Opens (making, unless `readOnly`) the index in `directory`. A read-only folder's index is
    /// opened immutable (no WAL index can be made there); `nil` when it has none.
    init(directory: String, readOnly: Bool, settings: Settings) throws(SQLiteError) {
        path = directory + "/" + Self.fileName
        isReadOnly = readOnly
        self.settings = settings
        if readOnly {
            writer = nil
            // Read-only, the log included (a writer that exited without closing leaves its last
            // transactions there); immutable, without it, only when the folder cannot give SQLite
            // even that (no log or shared-memory file it may read).
            var reader: SQLiteConnection
            var immutable = false
            do {
                reader = try SQLiteConnection(path: path, readOnly: true)
                _ = try reader.integer("SELECT count(*) FROM entries")
            } catch {
                reader = try SQLiteConnection(path: path, readOnly: true, immutable: true)
                _ = try reader.integer("SELECT count(*) FROM entries")
                immutable = true
            }
            isImmutable = immutable
            readers.withLock { $0.append(reader) }
        } else {
            // Made here first, 0600 (SQLite would make it 0644, and its log and shared-memory
            // files take the database's mode): rows may hold images fetched with credentials.
            let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
            if fd >= 0 { close(fd) }
            let connection = try SQLiteConnection(path: path)
            try Self.prepare(connection, settings: settings)
            // The writer's cache is larger (2 MiB): a trim's batch changes many pages at once.
            try connection.execute("PRAGMA cache_size=-2048")
            try Self.makeSchema(connection)
            writer = Locked(connection)
            isImmutable = false
        }
        var st = stat()
        inode = lstat(path, &st) == 0 ? UInt64(st.st_ino) : 0
    }

    /// Each connection's settings: no syncing (as the entry files never were: a checkpoint's
    /// fsync cost a write 50 µs on average here; a process killed loses nothing, a power cut may
    /// lose the last writes or damage the index, which every read's CRC check and the rebuild
    /// answer), a small page cache (512 KiB a reading connection, at most eight, and 2 MiB for
    /// the writer: 6 MiB in all; the kernel's page cache holds the rest), the log's bounds.
    private static func prepare(_ c: SQLiteConnection, settings: Settings) throws(SQLiteError) {
        try c.execute(
            """
            PRAGMA synchronous=OFF; PRAGMA cache_size=-512; PRAGMA temp_store=MEMORY;
            PRAGMA wal_autocheckpoint=\(settings.walPages); PRAGMA journal_size_limit=\(settings.journalLimit);
            """)
    }

    /// Makes the tables, their indexes and the triggers that keep the totals, once per database.
    /// Incremental vacuum must be chosen before the first table: trims give pages back with it.
    private static func makeSchema(_ c: SQLiteConnection) throws(SQLiteError) {
        if try c.integer("SELECT count(*) FROM sqlite_master WHERE name = 'meta'") == 0 {
            // 16 KiB pages: a thumbnail's row (1-3 KB) leaves less of a page unused than in
            // smaller ones (bytes on disk per byte stored: 1.56 with 4 KiB pages, 1.22 with 8 KiB,
            // 1.18 with 16 KiB; see the caches page). Rows of 8-16 KiB would sit one to a page:
            // the inline threshold (8 KiB) keeps them files.
            try c.execute("PRAGMA page_size=\(pageSize); PRAGMA auto_vacuum=INCREMENTAL")
        }
        try c.execute("PRAGMA journal_mode=WAL")
        try c.transaction { () throws(SQLiteError) in
            try c.execute(
                """
                CREATE TABLE IF NOT EXISTS meta(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS entries(
                    seq INTEGER PRIMARY KEY, id INTEGER NOT NULL, lo INTEGER NOT NULL, key TEXT,
                    file INTEGER NOT NULL, size INTEGER NOT NULL, disk INTEGER NOT NULL, expires REAL NOT NULL,
                    access REAL NOT NULL, fresh REAL NOT NULL, inode INTEGER NOT NULL, header INTEGER NOT NULL,
                    data BLOB);
                CREATE UNIQUE INDEX IF NOT EXISTS entries_id ON entries(id);
                CREATE INDEX IF NOT EXISTS entries_access ON entries(access, id);
                CREATE INDEX IF NOT EXISTS entries_expires ON entries(expires);
                CREATE TABLE IF NOT EXISTS totals(
                    id INTEGER PRIMARY KEY CHECK (id = 0), entries INTEGER NOT NULL, bytes INTEGER NOT NULL,
                    files INTEGER NOT NULL, file_disk INTEGER NOT NULL);
                INSERT OR IGNORE INTO totals VALUES (0, 0, 0, 0, 0);
                INSERT OR IGNORE INTO meta VALUES ('format', \(format));
                CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN
                    UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.size, files = files + NEW.file,
                        file_disk = file_disk + NEW.disk * NEW.file WHERE id = 0;
                END;
                CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN
                    UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.size, files = files - OLD.file,
                        file_disk = file_disk - OLD.disk * OLD.file WHERE id = 0;
                END;
                CREATE TRIGGER IF NOT EXISTS entries_update AFTER UPDATE OF size, disk, file ON entries BEGIN
                    UPDATE totals SET bytes = bytes - OLD.size + NEW.size, files = files - OLD.file + NEW.file,
                        file_disk = file_disk - OLD.disk * OLD.file + NEW.disk * NEW.file WHERE id = 0;
                END;
                """)
            if try c.integer("SELECT value FROM meta WHERE name = 'format'") != format {
                throw SQLiteError(code: 26, extendedCode: 26, systemErrno: 0, message: "an index of another format")
            }
        }
    }

    /// Runs `body` with a reading connection from the pool (a new one when all are in use).
    func read<R>(_ body: (SQLiteConnection) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        let connection: SQLiteConnection
        if let pooled = readers.withLock({ $0.popLast() }) {
            connection = pooled
        } else {
            connection = try SQLiteConnection(path: path, readOnly: isReadOnly, immutable: isImmutable)
            try Self.prepare(connection, settings: settings)
        }
        defer { readers.withLock { if $0.count < 8 { $0.append(connection) } } }
        return try body(connection)
    }

    /// Runs `body` in a write transaction on this process's writing connection.
    func write<R>(_ body: (SQLiteConnection) throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        guard let writer else {
            throw SQLiteError(code: 8, extendedCode: 8, systemErrno: EROFS, message: "the cache folder is read-only")
        }
        let result: Result<R, SQLiteError> = writer.withLock { c in
            do throws(SQLiteError) {
                return .success(try c.transaction { () throws(SQLiteError) -> R in try body(c) })
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `body` on the writing connection outside a transaction (pragmas, checkpoints).
    func withWriter<R>(_ body: (SQLiteConnection) throws(SQLiteError) -> R) throws(SQLiteError) -> R? {
        guard let writer else { return nil }
        let result: Result<R, SQLiteError> = writer.withLock { c in
            do throws(SQLiteError) {
                return .success(try body(c))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Bytes of log the index keeps at most after a checkpoint (the size limit sets them aside).
    var logBudget: Int { settings.journalLimit }

    /// Whether the file under the index's name is still the one this index opened (not removed
    /// with its folder, not made again by another process).
    var isCurrent: Bool {
        var st = stat()
        return lstat(path, &st) == 0 && UInt64(st.st_ino) == inode
    }

    /// Bytes the database and its log take on disk (the 32 KB shared-memory file, an index of
    /// the log that SQLite maps, is left out as the log's bookkeeping).
    func bytesOnDisk() -> Int {
        var total = 0
        for suffix in ["", "-wal"] {
            var st = stat()
            if lstat(path + suffix, &st) == 0 { total += Int(st.st_blocks) * 512 }
        }
        return total
    }

    /// Removes a damaged database (and its log) so the next open makes a new one; only when the
    /// file under the name is still `inode` (another process may have made it again already).
    static func discard(directory: String, inode: UInt64) {
        let path = directory + "/" + fileName
        var st = stat()
        guard lstat(path, &st) == 0, inode == 0 || UInt64(st.st_ino) == inode else { return }
        for name in fileNames { unlink(directory + "/" + name) }
    }
}
