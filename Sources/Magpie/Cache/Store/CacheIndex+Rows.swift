/// What the index holds of one entry, and the queries that read and change rows. A row is the
/// entry's truth for its times (expiry, last access, freshness) and its sizes; the entry's own
/// header (in the row's bytes, or at the start of its file) is the truth for its key, validators
/// and payload checksum, and is checked on every read.
struct IndexRow: Sendable, Equatable {
    /// The entry is a file in the folder (else its bytes are in the row).
    var isFile: Bool
    /// Header and payload bytes.
    var size: Int
    /// Bytes on disk: a file's blocks (its row is in the index's pages), or for a row entry its
    /// bytes and its bookkeeping (an estimate: the index's pages are what is counted).
    var disk: Int
    var expiresAt: Double
    var lastAccess: Double
    var freshUntil: Double
    /// The file's inode, or a row's random write stamp: a removal leaves a newer write alone.
    var inode: UInt64
    /// The entry header's bytes (a file's read takes header and payload in one call).
    var headerSize = 0

    /// Bytes a row's own bookkeeping takes in the database (its columns, the three indexes' keys).
    static let rowOverhead = 96
}

/// The folder's totals, kept by the database's triggers.
struct IndexTotals: Sendable, Equatable {
    var entries = 0
    var bytes = 0
    var files = 0
    var fileDisk = 0
}

/// Where a walk of the least recently accessed entries stopped.
struct IndexCursor: Sendable {
    var lastAccess: Double
    var rowID: Int

    init(_ victim: IndexVictim) {
        lastAccess = victim.lastAccess
        rowID = victim.id.rowID
    }
}

/// An entry chosen for removal: enough to delete its row only if unchanged, and its file.
struct IndexVictim: Sendable {
    var id: DiskCache.EntryID
    var key: String?
    var isFile: Bool
    var disk: Int
    var lastAccess: Double
    var inode: UInt64
}

extension DiskCache.EntryID {
    var rowID: Int { Int(Int64(bitPattern: hi)) }
    var rowLo: Int { Int(Int64(bitPattern: lo)) }
    init(row: Int, lo: Int) {
        self.init(hi: UInt64(bitPattern: Int64(row)), lo: UInt64(bitPattern: Int64(lo)))
    }
}

extension SQLiteConnection {
    private func readRow(_ s: SQLiteStatement, from column: Int32 = 0) -> IndexRow {
        IndexRow(
            isFile: s.int(column) != 0, size: s.int(column + 1), disk: s.int(column + 2),
            expiresAt: s.double(column + 3), lastAccess: s.double(column + 4), freshUntil: s.double(column + 5),
            inode: UInt64(bitPattern: Int64(s.int(column + 6))), headerSize: s.int(column + 7))
    }

    /// The row of `id` with its bytes (`nil` for a file entry), handed to `body`, where alone
    /// they are valid. `nil` when there is no row (or one of another key under the same number).
    func row<R>(_ id: DiskCache.EntryID, _ body: (IndexRow, UnsafeRawBufferPointer?) -> R) throws(SQLiteError) -> R? {
        let s = try statement(
            "SELECT file, size, disk, expires, access, fresh, inode, header, data FROM entries WHERE id = ?1 AND lo = ?2"
        )
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        guard try s.step() else { return nil }
        let row = readRow(s)
        return body(row, row.isFile ? nil : s.blob(8))
    }

    /// The row of `id` without its bytes.
    func rowHead(_ id: DiskCache.EntryID) throws(SQLiteError) -> IndexRow? {
        let s = try statement(
            "SELECT file, size, disk, expires, access, fresh, inode, header FROM entries WHERE id = ?1 AND lo = ?2")
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        return try s.step() ? readRow(s) : nil
    }

    /// Writes the row of `id` (replacing any, whatever its key); `data` is the entry's bytes for a
    /// row entry, `nil` for a file. Returns the row it replaced, if it was of the same key.
    @discardableResult
    func putRow(_ id: DiskCache.EntryID, key: String?, _ row: IndexRow, data: UnsafeRawBufferPointer?)
        throws(SQLiteError) -> IndexRow?
    {
        let previous = try rowHead(id)
        let s = try statement(
            """
            INSERT INTO entries(id, lo, key, file, size, disk, expires, access, fresh, inode, header, data)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?12, ?11)
            ON CONFLICT(id) DO UPDATE SET lo = excluded.lo, key = excluded.key, file = excluded.file,
                size = excluded.size, disk = excluded.disk, expires = excluded.expires, access = excluded.access,
                fresh = excluded.fresh, inode = excluded.inode, header = excluded.header, data = excluded.data
            """)
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        if let key { s.bind(3, text: key) } else { s.bindNull(3) }
        s.bind(4, row.isFile ? 1 : 0)
        s.bind(5, row.size)
        s.bind(6, row.disk)
        s.bind(7, row.expiresAt)
        s.bind(8, row.lastAccess)
        s.bind(9, row.freshUntil)
        s.bind(10, Int(Int64(bitPattern: row.inode)))
        if let data { s.bind(11, blob: data) } else { s.bindNull(11) }
        s.bind(12, row.headerSize)
        _ = try s.step()
        return previous
    }

    /// Sets the expiry and last access of `id`'s row, while it is still the write `stamp` names
    /// (reads' times, written in batches).
    func touchRow(_ id: DiskCache.EntryID, stamp: UInt64, expiresAt: Double, lastAccess: Double) throws(SQLiteError) {
        let s = try statement(
            "UPDATE entries SET expires = ?3, access = max(access, ?4) WHERE id = ?1 AND lo = ?2 AND inode = ?5")
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        s.bind(3, expiresAt)
        s.bind(4, lastAccess)
        s.bind(5, Int(Int64(bitPattern: stamp)))
        _ = try s.step()
    }

    /// Sets the times of `id`'s row after a revalidation, and its bytes when it is a row entry
    /// (its header's freshness fields rewritten).
    func renewRow(_ id: DiskCache.EntryID, expiresAt: Double, lastAccess: Double, freshUntil: Double, data: [UInt8]?)
        throws(SQLiteError)
    {
        let s = try statement(
            "UPDATE entries SET expires = ?3, access = ?4, fresh = ?5, data = coalesce(?6, data) WHERE id = ?1 AND lo = ?2"
        )
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        s.bind(3, expiresAt)
        s.bind(4, lastAccess)
        s.bind(5, freshUntil)
        try (data ?? []).withSQLiteBytes { (raw) throws(SQLiteError) in
            if data != nil { s.bind(6, blob: raw) } else { s.bindNull(6) }
            _ = try s.step()
        }
    }

    /// Deletes `id`'s row; with `unchanged`, only while its last access and its write stamp
    /// (inode, or a row's nonce) are still those (a read or a write since it was chosen keeps it).
    /// Returns whether a row went.
    @discardableResult
    func deleteRow(_ id: DiskCache.EntryID, ifUnchanged seen: (lastAccess: Double, inode: UInt64)? = nil)
        throws(SQLiteError) -> Bool
    {
        let s = try statement(
            "DELETE FROM entries WHERE id = ?1 AND lo = ?2 AND (?3 IS NULL OR (access = ?3 AND inode = ?4))")
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        if let seen {
            s.bind(3, seen.lastAccess)
            s.bind(4, Int(Int64(bitPattern: seen.inode)))
        } else {
            s.bindNull(3)
        }
        _ = try s.step()
        return changes > 0
    }

    /// Deletes `id`'s row if its write stamp is still `inode` (whatever its last access).
    @discardableResult
    func deleteRow(_ id: DiskCache.EntryID, ifStamp inode: UInt64) throws(SQLiteError) -> Bool {
        let s = try statement("DELETE FROM entries WHERE id = ?1 AND lo = ?2 AND inode = ?3")
        defer { s.reset() }
        s.bind(1, id.rowID)
        s.bind(2, id.rowLo)
        s.bind(3, Int(Int64(bitPattern: inode)))
        _ = try s.step()
        return changes > 0
    }

    /// Pages of the database in use (free ones are given back by the next trim's vacuum, and
    /// reused by the next rows meanwhile).
    func usedPageBytes() throws(SQLiteError) -> Int {
        try (integer("PRAGMA page_count") - integer("PRAGMA freelist_count")) * integer("PRAGMA page_size")
    }

    func totals() throws(SQLiteError) -> IndexTotals {
        let s = try statement("SELECT entries, bytes, files, file_disk FROM totals WHERE id = 0")
        defer { s.reset() }
        guard try s.step() else { return IndexTotals() }
        return IndexTotals(entries: s.int(0), bytes: s.int(1), files: s.int(2), fileDisk: s.int(3))
    }

    private func victims(_ s: SQLiteStatement) throws(SQLiteError) -> [IndexVictim] {
        var out: [IndexVictim] = []
        while try s.step() {
            out.append(
                IndexVictim(
                    id: DiskCache.EntryID(row: s.int(0), lo: s.int(1)), key: s.text(2), isFile: s.int(3) != 0,
                    disk: s.int(4), lastAccess: s.double(5), inode: UInt64(bitPattern: Int64(s.int(6)))))
        }
        return out
    }

    /// Up to `limit` entries, least recently accessed first (ties by number), after the entry
    /// `after` names (a trim's batches: `nil` from the start).
    func leastRecentlyAccessed(limit: Int, after: IndexCursor? = nil) throws(SQLiteError) -> [IndexVictim] {
        // Two statements, so each walks the (access, id) index from where it starts: an `OR` in
        // one made SQLite sort the whole table for every batch.
        guard let after else {
            let s = try statement(
                "SELECT id, lo, key, file, disk, access, inode FROM entries ORDER BY access, id LIMIT ?1")
            defer { s.reset() }
            s.bind(1, limit)
            return try victims(s)
        }
        let s = try statement(
            """
            SELECT id, lo, key, file, disk, access, inode FROM entries
            WHERE (access, id) > (?1, ?2) ORDER BY access, id LIMIT ?3
            """)
        defer { s.reset() }
        s.bind(1, after.lastAccess)
        s.bind(2, after.rowID)
        s.bind(3, limit)
        return try victims(s)
    }

    /// Up to `limit` entries expired at `now`.
    func expired(at now: Double, limit: Int) throws(SQLiteError) -> [IndexVictim] {
        let s = try statement(
            "SELECT id, lo, key, file, disk, access, inode FROM entries WHERE expires <= ?1 LIMIT ?2")
        defer { s.reset() }
        s.bind(1, now)
        s.bind(2, limit)
        return try victims(s)
    }

    /// Every entry (for `removeAll`), in batches after `rowID`.
    func allEntries(after rowID: Int, limit: Int) throws(SQLiteError) -> [IndexVictim] {
        let s = try statement(
            "SELECT id, lo, key, file, disk, access, inode FROM entries WHERE id > ?1 ORDER BY id LIMIT ?2")
        defer { s.reset() }
        s.bind(1, rowID)
        s.bind(2, limit)
        return try victims(s)
    }

    /// A number kept in the index's `meta` table (`nil` when unset).
    func meta(_ name: StaticString) throws(SQLiteError) -> Int? {
        let s = try statement("SELECT value FROM meta WHERE name = ?1")
        defer { s.reset() }
        s.bind(1, text: name.description)
        return try s.step() ? s.int(0) : nil
    }

    func setMeta(_ name: StaticString, _ value: Int) throws(SQLiteError) {
        let s = try statement("INSERT INTO meta VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET value = excluded.value")
        defer { s.reset() }
        s.bind(1, text: name.description)
        s.bind(2, value)
        _ = try s.step()
    }

    /// Bytes of the database's pages (free ones included: they are on disk until a vacuum).
    func pageBytes() throws(SQLiteError) -> Int {
        try integer("PRAGMA page_count") * integer("PRAGMA page_size")
    }

    /// Gives free pages back to the file system (the database was made with incremental vacuum).
    func vacuumFreePages() throws(SQLiteError) {
        let s = try statement("PRAGMA incremental_vacuum")
        defer { s.reset() }
        while try s.step() {}
    }
}
