#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads' times, and files taken into the index as they are read. A hit writes nothing itself:
/// its access time and the expiry it extended wait in memory, where this process's reads, trims
/// and sweeps see them (a trim leaves an entry this process read since its row's time alone).
/// They reach the index only once they matter to other processes: an access a minute or more
/// newer than the row's, or an expiry moved by more than its slack, in one transaction for many
/// (when 256 such wait, or a second after the first). YYCache writes each read's time at once, a
/// transaction per hit: here that rewrote a 16 KiB page of the index for each read, and made reads
/// slower than files.
extension DiskCache {
    struct Touch {
        /// The row's write stamp when it was read: a newer write's row is not touched.
        var stamp: UInt64
        var expiresAt: Double
        var lastAccess: Double
        /// Whether the index must learn it (see the extension's summary).
        var matters: Bool
    }

    struct PendingTouches {
        var touches: [EntryID: Touch] = [:]
        /// Touches that matter, waiting.
        var mattering = 0
        /// When the first of those was recorded.
        var since = Double.infinity
    }

    static let touchBatch = 256
    /// Touches kept at most: past it the ones that do not matter are forgotten (the index's
    /// minute-old order stands for them).
    static let touchLimit = 65_536

    /// Records a read's time against the row it read; flushes when enough that matter wait.
    func recordTouch(_ id: EntryID, row: IndexRow, expiresAt: Double, lastAccess: Double) {
        let slack = expiresAt == .infinity ? 60 : min(60, max(0.001, (expiresAt - lastAccess) / 100))
        let matters =
            lastAccess - row.lastAccess >= 60
            || (expiresAt != row.expiresAt && !(abs(expiresAt - row.expiresAt) < slack))
        let due = pendingTouches.withLock { p -> Bool in
            let before = p.touches.updateValue(
                Touch(stamp: row.inode, expiresAt: expiresAt, lastAccess: lastAccess, matters: matters), forKey: id)
            if matters && before?.matters != true {
                p.mattering += 1
                p.since = min(p.since, lastAccess)
            }
            if !matters && before?.matters == true { p.touches[id]?.matters = true }
            if p.touches.count > Self.touchLimit {
                p.touches = p.touches.filter { $0.value.matters }
            }
            return p.mattering >= Self.touchBatch || (p.mattering > 0 && lastAccess - p.since >= 1)
        }
        if due { flushTouches() }
    }

    /// The read this process made of `id` since its row's time, if any (`nil` once the row was
    /// written again).
    func pendingTouch(_ id: EntryID, stamp: UInt64) -> Touch? {
        pendingTouches.withLock { p in
            guard !p.touches.isEmpty, let touch = p.touches[id], touch.stamp == stamp else { return nil }
            return touch
        }
    }

    /// `row` as this process's reads left it (a waiting touch of the same write applied).
    func withPendingTouch(_ row: IndexRow, _ id: EntryID) -> IndexRow {
        guard let touch = pendingTouch(id, stamp: row.inode) else { return row }
        var row = row
        row.expiresAt = touch.expiresAt
        row.lastAccess = touch.lastAccess
        return row
    }

    /// Writes the waiting reads' times that matter to the index, in one transaction.
    func flushTouches() {
        guard !isReadOnly, pendingTouches.withLock({ $0.mattering > 0 }), let index = currentIndex() else { return }
        _ = indexed(index) { (i) throws(SQLiteError) in try i.write { (c) throws(SQLiteError) in try writeTouches(c) } }
    }

    /// Inside a write transaction: writes the waiting reads' times that matter (and forgets them;
    /// the others stay for this process).
    func writeTouches(_ c: SQLiteConnection) throws(SQLiteError) {
        let touches = pendingTouches.withLock { p -> [(EntryID, Touch)] in
            let mattering = p.touches.filter { $0.value.matters }
            for id in mattering.keys { p.touches[id] = nil }
            p.mattering = 0
            p.since = .infinity
            return Array(mattering)
        }
        for (id, touch) in touches {
            try c.touchRow(id, stamp: touch.stamp, expiresAt: touch.expiresAt, lastAccess: touch.lastAccess)
        }
    }

    /// Takes a file entry into the index as it is read: a file without a row (an earlier
    /// version's, or one a crashed writer renamed and never indexed) gets its row; a file small
    /// enough to be a row becomes one, and the file goes. `row` becomes the entry's row. Returns
    /// whether it did.
    @discardableResult
    func adopt(
        _ id: EntryID, key: String, payload: [UInt8], facts: DiskEntryFormat.Facts, stamp: FileStamp,
        row: inout IndexRow
    ) -> Bool {
        guard !isReadOnly, let index = currentIndex() else { return false }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var adopted = row
        adopted.headerSize = facts.headerSize
        let size = facts.headerSize + facts.payloadSize
        var bytes: [UInt8]? = nil
        if size <= config.inlineThreshold,
            let header = DiskEntryFormat.header(
                key: key, payloadSize: payload.count, crc: facts.crc, created: facts.lastAccess,
                expires: row.expiresAt, metadata: facts.metadata, freshness: facts.freshness)
        {
            bytes = header + payload
            adopted.isFile = false
            adopted.size = bytes!.count
            adopted.disk = bytes!.count + IndexRow.rowOverhead
            adopted.inode = UInt64.random(in: 1...UInt64.max)
        } else {
            adopted.isFile = true
            adopted.inode = stamp.inode
            adopted.disk = max(adopted.disk, (size + 4095) / 4096 * 4096)
        }
        let landed = adopted
        let done: Bool = fileLock(id).withLock { _ in
            let result = indexed(index) { (i) throws(SQLiteError) -> Bool in
                try i.write { (c) throws(SQLiteError) -> Bool in
                    // Only over what was there when the file was read: no row, or this file's.
                    let current = try c.rowHead(id)
                    guard current == nil || current?.inode == stamp.inode else { return false }
                    if let bytes {
                        _ = try bytes.withSQLiteBytes { (raw) throws(SQLiteError) in
                            try c.putRow(id, key: unhashedKey, landed, data: raw)
                        }
                    } else {
                        try c.putRow(id, key: unhashedKey, landed, data: nil)
                    }
                    return true
                }
            }
            guard case .success(true) = result else { return false }
            if !landed.isFile { unlinkFile(id, key: unhashedKey, inode: stamp.inode) }
            return true
        }
        if done {
            row = landed
            counters.withLock { $0.migrated += 1 }
        }
        return done
    }
}
