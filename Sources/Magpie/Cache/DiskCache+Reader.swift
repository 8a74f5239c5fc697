#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading entries: the fast path, validation (header, CRC-32C, expiry) and the file helpers.
extension DiskCache {
    // MARK: - reading

    /// The payload for `key`, or `nil` when there is none, it expired (then it is removed) or it
    /// fails validation (then it is removed and counted). Reading updates the last access and
    /// extends the expiry as asked.
    /// - Throws: ``DiskCacheError/readFailed(path:errno:)`` for I/O errors other than absence.
    public func value(forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime)
        throws(DiskCacheError) -> [UInt8]?
    {
        try entry(forKey: key, extendingExpiration: extending)?.payload
    }

    /// An entry as a read found it.
    struct Hit {
        var payload: [UInt8]
        /// When the entry goes (seconds since the reference date; `.infinity` for never).
        var expiresAt: Double
        var freshness: EntryFreshness
        /// Whether the origin's freshness had passed at the read (only with `allowingStale`).
        var isStale: Bool
        /// The validators, content type and variant kept with it (no second read needed).
        var metadata: DiskEntryMetadata
        /// The response's variant (see ``ResponseValidators/variant``), when it had `Vary`.
        var variant: String? { metadata.variant }
    }

    /// As ``value(forKey:extendingExpiration:)``, with the entry's expiry and freshness. A stale
    /// entry (see ``EntryFreshness``) is returned only `allowingStale`; otherwise it is a miss,
    /// and it stays for a revalidation.
    func entry(
        forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime,
        allowingStale: Bool = false
    ) throws(DiskCacheError) -> Hit? {
        let id = try checkedID(key)
        let unhashedKey = config.usesHashedFileName ? nil : key
        let now = clock.now()
        let nowSeconds = now.timeIntervalSinceReferenceDate
        let known = state.withLock { $0.index[id] }
        let seen = known?.generation
        if let known, known.expiresAt <= nowSeconds {
            discard(id, key: unhashedKey, seen: seen)
            return nil
        }
        if let known, known.freshUntil <= nowSeconds, !allowingStale { return nil }
        let outcome = withPath(id, key: unhashedKey) { path in
            read(path, key: key, known: known, now: now, extending: extending, allowingStale: allowingStale)
        }
        switch outcome {
        case .missing:
            discard(id, key: unhashedKey, seen: seen, unlinking: false)
            return nil
        case .failed(let e):
            throw .readFailed(path: path(id, key: unhashedKey), errno: e)
        case .invalid:
            if discard(id, key: unhashedKey, seen: seen) { counters.withLock { $0.invalid += 1 } }
            return nil
        case .expired:
            discard(id, key: unhashedKey, seen: seen)
            return nil
        case .stale:
            return nil
        case .hit(let payload, var entry, let freshness, let metadata):
            state.withLock { s in
                // Unless a write or a removal came in meanwhile: theirs is the newer state.
                guard s.index[id]?.generation == seen else { return }
                entry.generation = seen ?? s.nextGeneration()
                s.totalSize += entry.size - (s.index.updateValue(entry, forKey: id)?.size ?? 0)
                if let unhashedKey { s.keys[id] = unhashedKey }
            }
            return Hit(
                payload: payload, expiresAt: entry.expiresAt, freshness: freshness,
                isStale: !freshness.isFresh(at: nowSeconds), metadata: metadata)
        }
    }

    enum ReadOutcome {
        case missing
        case failed(Int32)
        case invalid
        case expired
        /// Past the origin's freshness, and the read did not allow stale entries.
        case stale
        case hit([UInt8], Entry, EntryFreshness, metadata: DiskEntryMetadata)
    }

    /// Reads and validates the entry file at `path`; updates its header's expiry and last access
    /// when they moved enough to matter.
    func read(
        _ path: UnsafePointer<CChar>, key: String, known: Entry?, now: Date, extending: ExpirationExtending,
        allowingStale: Bool = false
    ) -> ReadOutcome {
        let nowSeconds = now.timeIntervalSinceReferenceDate
        // Read-only: a writable descriptor costs more to open and close (write access and
        // close-write notifications); the rare header update opens its own.
        // O_NONBLOCK and O_NOFOLLOW: a FIFO or a link planted under the entry's name is refused
        // without blocking or following; so is anything but a regular file within the size cap.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            return errno == ELOOP ? .invalid : .failed(errno)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failed(errno) }
        guard (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= config.entryCap else { return .invalid }
        let stamp = FileStamp(st)
        var payload: [UInt8] = []
        var facts: DiskEntryFormat.Facts?
        if let known, known.headerSize >= DiskEntryFormat.minimumFixedSize, known.headerSize <= stamp.size {
            // The index knows the header's size: header and payload in one read. The CRC pass is
            // skipped when this process verified this very file (inode, size, time) before.
            let headerSize = known.headerSize
            withUnsafeTemporaryAllocation(byteCount: headerSize, alignment: 8) { header in
                var complete = false
                payload = [UInt8](unsafeUninitializedCapacity: stamp.size - headerSize) { buffer, count in
                    let got = Self.readTwo(fd, header, UnsafeMutableRawBufferPointer(buffer))
                    complete = got == stamp.size
                    count = complete ? stamp.size - headerSize : 0
                }
                if complete {
                    facts = DiskEntryFormat.facts(UnsafeRawBufferPointer(header), fileSize: stamp.size, key: key)
                }
            }
            if let f = facts, !known.wasVerified(as: stamp), Self.crc(payload) != f.crc { facts = nil }
        }
        if facts == nil {
            // First sight of this file, or it changed under us: read the header to learn its size.
            guard let header = Self.readHeader(fd), header.info.key == key else { return .invalid }
            payload = [UInt8](unsafeUninitializedCapacity: header.info.size) { buffer, count in
                count = Self.readAll(fd, UnsafeMutableRawBufferPointer(buffer), at: off_t(header.headerSize))
            }
            guard payload.count == header.info.size, Self.crc(payload) == header.crc else { return .invalid }
            facts = DiskEntryFormat.Facts(
                headerSize: header.headerSize, payloadSize: header.info.size, crc: header.crc,
                expiresAt: header.info.expiresAt, lastAccess: header.info.lastAccess,
                freshness: header.info.freshness, hasValidators: header.info.metadata.canRevalidate,
                metadata: header.info.metadata)
        }
        guard let parsed = facts else { return .invalid }
        if parsed.expiresAt <= nowSeconds { return .expired }
        if !allowingStale && !parsed.freshness.isFresh(at: nowSeconds) { return .stale }
        // The entry's own lifetime: expiry and last access are always written together, so their
        // difference is the lifetime last set.
        let lifetime = parsed.expiresAt - parsed.lastAccess
        let fallback = config.expiration
        var expires = extending.extendedExpiry(from: parsed.expiresAt, at: now) { date in
            lifetime > 0 && lifetime.isFinite ? date.addingTimeInterval(lifetime) : fallback.expiryDate(from: date)
        }
        // Without validators nothing can renew an entry: reads never keep it past its freshness.
        if !parsed.hasValidators { expires = min(expires, max(parsed.expiresAt, parsed.freshness.freshUntil)) }
        // The header's expiry and last access are rewritten (one 16-byte write) only when they
        // move by a minute or more (or 1% of a short lifetime): hot entries cost no writes, and
        // the access order survives reopening at one-minute resolution (exact within a process).
        var current = stamp
        let slack = expires == .infinity ? 60 : min(60, max(0.001, (expires - nowSeconds) / 100))
        let expiryMoved = expires != parsed.expiresAt && !(abs(expires - parsed.expiresAt) < slack)
        if expiryMoved || nowSeconds - parsed.lastAccess >= 60 {
            let wfd = isReadOnly ? -1 : open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if wfd >= 0 {
                var fields = (expires.bitPattern.littleEndian, nowSeconds.bitPattern.littleEndian)
                if withUnsafeBytes(of: &fields, { pwrite(wfd, $0.baseAddress, 16, DiskEntryFormat.expiresOffset) })
                    == 16
                {
                    var after = stat()
                    if fstat(wfd, &after) == 0 { current = FileStamp(after) }
                }
                close(wfd)
            }
        }
        let entry = Entry(
            size: parsed.headerSize + parsed.payloadSize, expiresAt: expires, lastAccess: nowSeconds,
            freshUntil: parsed.freshness.freshUntil, headerSize: parsed.headerSize, verified: current)
        return .hit(payload, entry, parsed.freshness, metadata: parsed.metadata)
    }

    // MARK: - file helpers

    static func readHeader(_ fd: Int32) -> DiskEntryFormat.Parsed? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: min(fileSize, 4096))
        var got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
        guard got >= DiskEntryFormat.minimumFixedSize else { return nil }
        let declared = Int(head.withUnsafeBytes { DiskEntryFormat.read16($0, 6) })
        if declared > head.count && declared <= min(fileSize, DiskEntryFormat.maxHeaderSize) {
            head = [UInt8](repeating: 0, count: declared)
            got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
            guard got == declared else { return nil }
        }
        return DiskEntryFormat.parse(Array(head[..<got]), fileSize: fileSize)
    }

    static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: off_t) -> Int {
        FileIO.read(fd, into: buffer, at: Int(offset)).count
    }

    /// Reads the header and the payload after it with one system call; returns the bytes read.
    static func readTwo(_ fd: Int32, _ a: UnsafeMutableRawBufferPointer, _ b: UnsafeMutableRawBufferPointer) -> Int {
        var iov = (iovec(iov_base: a.baseAddress, iov_len: a.count), iovec(iov_base: b.baseAddress, iov_len: b.count))
        let n = withUnsafeMutablePointer(to: &iov) {
            $0.withMemoryRebound(to: iovec.self, capacity: 2) { preadv(fd, $0, 2, 0) }
        }
        if n == a.count + b.count || n <= 0 { return max(0, n) }
        // Short read: fall back to plain reads for the rest.
        let rest = readAll(
            fd, UnsafeMutableRawBufferPointer(rebasing: b[max(0, n - a.count)...]), at: off_t(max(n, a.count)))
        return n + rest
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        Digest.crc32c(bytes)
    }

    static func seconds(_ date: Date?) -> Double { date?.timeIntervalSinceReferenceDate ?? .infinity }
}
