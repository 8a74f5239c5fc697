#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads' times, and files taken into the index as they are read. A hit writes nothing itself:
/// its access time (and the expiry it extended) wait in memory and go to the index together, in
/// one transaction, when 256 are waiting, a second has passed, or a trim or a sweep is about to
/// choose (YYCache writes each read's time at once, a transaction per hit). Until then this
/// process's reads see them; other processes see them at most a second late.
extension DiskCache {
    struct Touch {
        /// The row's write stamp when it was read: a newer write's row is not touched.
        var stamp: UInt64
        var expiresAt: Double
        var lastAccess: Double
    }

    static let touchBatch = 256

    /// Records a read's time; flushes when enough are waiting or the oldest is a second old.
    func recordTouch(_ id: EntryID, stamp: UInt64, expiresAt: Double, lastAccess: Double) {
        let due = pendingTouches.withLock { p -> Bool in
            p.touches[id] = Touch(stamp: stamp, expiresAt: expiresAt, lastAccess: lastAccess)
            p.since = min(p.since, lastAccess)
            return p.touches.count >= Self.touchBatch || lastAccess - p.since >= 1
        }
        if due { flushTouches() }
    }

    /// `row` as this process's reads left it (a waiting touch of the same write applied).
    func withPendingTouch(_ row: IndexRow, _ id: EntryID) -> IndexRow {
        guard let touch = pendingTouches.withLock({ $0.touches.isEmpty ? nil : $0.touches[id] }),
            touch.stamp == row.inode
        else { return row }
        var row = row
        row.expiresAt = touch.expiresAt
        row.lastAccess = touch.lastAccess
        return row
    }

    /// Writes the waiting reads' times to the index, in one transaction.
    func flushTouches() {
        guard !isReadOnly, pendingTouches.withLock({ !$0.touches.isEmpty }), let index = currentIndex() else { return }
        _ = indexed(index) { (i) throws(SQLiteError) in try i.write { (c) throws(SQLiteError) in try writeTouches(c) } }
    }

    /// Inside a write transaction: writes the waiting reads' times (and forgets them).
    func writeTouches(_ c: SQLiteConnection) throws(SQLiteError) {
        let touches = pendingTouches.withLock { p -> [EntryID: Touch] in
            defer {
                p.touches.removeAll(keepingCapacity: true)
                p.since = .infinity
            }
            return p.touches
        }
        for (id, touch) in touches {
            try c.touchRow(id, stamp: touch.stamp, expiresAt: touch.expiresAt, lastAccess: touch.lastAccess)
        }
    }

    /// Takes a file entry into the index as it is read: a file without a row (an earlier
    /// version's, or one a crashed writer renamed and never indexed) gets its row; a file small
    /// enough to be a row becomes one, and the file goes. `row` becomes the entry's row.
    func adopt(
        _ id: EntryID, key: String, payload: [UInt8], facts: DiskEntryFormat.Facts, stamp: FileStamp,
        row: inout IndexRow
    ) {
        guard !isReadOnly, let index = currentIndex() else { return }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var adopted = row
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
    }
}
