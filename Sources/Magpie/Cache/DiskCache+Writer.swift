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

/// Writing entries: a temporary file, its header and payload, a rename, the index and the limit.
extension DiskCache {
    // MARK: - writing

    /// Stores `data` for `key`, replacing any entry, through a temporary file and a rename.
    ///
    /// `freshness` is what the origin said (see ``EntryFreshness``): with validators in
    /// `metadata` the entry is kept for its expiry and revalidated once stale; without them it is
    /// never kept past its freshness (and one stale already is not written).
    /// - Throws: ``DiskCacheError/writeFailed(path:errno:)`` (disk full, file-size limit, no
    ///   permission, name too long…), ``DiskCacheError/entryTooLarge(size:limit:)``,
    ///   ``DiskCacheError/invalidKey(_:)``. A failed write leaves no file behind.
    public func store(
        _ data: [UInt8], forKey key: String, expiration: StorageExpiration? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata(), freshness: EntryFreshness = .unlimited
    ) throws(DiskCacheError) {
        let id = try checkedID(key)
        if isReadOnly { throw .readOnly(path: directory) }
        let exp = expiration ?? config.expiration
        let now = clock.now()
        var expires = exp.expiryDate(from: now)?.timeIntervalSinceReferenceDate ?? .infinity
        var freshness = freshness
        if metadata.canRevalidate {
            freshness.freshUntil = min(freshness.freshUntil, expires)
        } else {
            expires = min(expires, freshness.freshUntil)
        }
        if exp.isExpired || (!metadata.canRevalidate && freshness.freshUntil <= now.timeIntervalSinceReferenceDate) {
            try? remove(forKey: key)
            return
        }
        let crc = Digest.crc32c(data)
        guard
            let header = DiskEntryFormat.header(
                key: key, payloadSize: data.count, crc: crc, created: now.timeIntervalSinceReferenceDate,
                expires: expires, metadata: metadata, freshness: freshness)
        else { throw .invalidKey(key) }
        let fileSize = header.count + data.count
        if fileSize > config.entryCap { throw .entryTooLarge(size: fileSize, limit: config.entryCap) }
        // Keep the limit: before adding, the directory must be within it (a trim may lag).
        if config.sizeLimit > 0 { evictOldest(downTo: config.sizeLimit, sparing: id) }
        let counter = temporaryCounter.withLock { c -> UInt64 in
            c &+= 1
            return c
        }
        let unhashedKey = config.usesHashedFileName ? nil : key
        // Small entries skip the fstat: their first read checks the CRC (cheaper than the call)
        // and records the file's identity then.
        let wantsStamp = data.count > 64 << 10
        var stamp: FileStamp?
        var over = false
        var replacedDelta = 0
        var sharedTotal: Int?
        func writeOnce() -> Int32 {
            withTemporaryPath(counter) { temporary in
                // 0600: entries may hold images fetched with credentials.
                let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard fd >= 0 else { return errno }
                var failure = Self.writeAll(fd, header, data)
                if failure == 0 && wantsStamp {
                    var st = stat()
                    if fstat(fd, &st) == 0 { stamp = FileStamp(st) } else { failure = errno }
                }
                if close(fd) != 0 && failure == 0 { failure = errno }
                if failure == 0 {
                    failure = fileLock(id).withLock { _ -> Int32 in
                        var renamed: Int32 = 0
                        // The rename and its count in the folder's shared total go together.
                        sharedTotal = counted {
                            renamed = withPath(id, key: unhashedKey) { rename(temporary, $0) } == 0 ? 0 : errno
                            return renamed == 0 ? land() : 0
                        }
                        return renamed
                    }
                }
                if failure != 0 { unlink(temporary) }
                return failure
            }
        }
        /// Indexes the renamed file; returns the difference it made to the folder's size.
        func land() -> Int {
            over = state.withLock { s -> Bool in
                let entry = Entry(
                    size: fileSize, expiresAt: expires, lastAccess: now.timeIntervalSinceReferenceDate,
                    freshUntil: freshness.freshUntil, headerSize: header.count, verified: stamp,
                    generation: s.nextGeneration())
                let delta = fileSize - (s.index.updateValue(entry, forKey: id)?.size ?? 0)
                s.totalSize += delta
                replacedDelta = delta
                if let unhashedKey { s.keys[id] = unhashedKey }
                guard config.sizeLimit > 0, s.totalSize > config.sizeLimit, !s.trimScheduled else {
                    return false
                }
                s.trimScheduled = true
                return true
            }
            return replacedDelta
        }
        var failure = writeOnce()
        // The folder vanished under us (a temp cleaner, `rm -rf`, a volume reset): make it again
        // and write once more, rather than stop caching for good.
        if failure == ENOENT && access(directory, F_OK) != 0 && recreateDirectory() { failure = writeOnce() }
        if failure != 0 { throw .writeFailed(path: path(id, key: unhashedKey), errno: failure) }
        // Other processes' writes count too: when the folder's shared total is over the limit,
        // rescan it and trim to half across processes now, so at rest the folder holds at most
        // the limit plus the entry each writing process had in flight.
        if let sharedTotal, sharedTotal > config.sizeLimit {
            trimAcrossProcesses(downTo: config.sizeLimit / 2, over: config.sizeLimit, sparing: id)
        }
        if over {
            // On the I/O executor, like every other blocking call; at most one trim is pending
            // (`trimScheduled`), and `waitForBackgroundWork()` waits for it.
            background.enter()
            Task.detached(priority: .utility) { [weak self, background] in
                _ = try? await BlockingExecutor.io.run { [weak self] in
                    guard let self else { return }
                    self.state.withLock { $0.trimScheduled = false }
                    _ = self.removeSizeExceededValues()
                }
                background.leave()
            }
        }
    }

    /// Runs `body` with a NUL-terminated temporary path, `<dir>/.tmp-<pid>-<counter hex>`.
    func withTemporaryPath<R>(_ counter: UInt64, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pathPrefix.count + 48) { buffer in
            let base = buffer.baseAddress!
            pathPrefix.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
            var at = pathPrefix.count
            for b in ".tmp-".utf8 {
                base[at] = b
                at += 1
            }
            func put(_ value: UInt64, radix: UInt64) {
                let digits: StaticString = "0123456789abcdef"
                var v = value
                let start = at
                repeat {
                    base[at] = digits.utf8Start[Int(v % radix)]
                    at += 1
                    v /= radix
                } while v > 0
                // Digits came out least significant first.
                var (i, j) = (start, at - 1)
                while i < j {
                    buffer.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            put(UInt64(pid), radix: 10)
            base[at] = UInt8(ascii: "-")
            at += 1
            put(counter, radix: 16)
            base[at] = 0
            return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: at + 1) { body($0) }
        }
    }

    /// Writes header and payload with as few system calls as the kernel allows (writev).
    static func writeAll(_ fd: Int32, _ header: [UInt8], _ payload: [UInt8]) -> Int32 {
        header.withUnsafeBytes { h in
            payload.withUnsafeBytes { p in
                let total = h.count + p.count
                var done = 0
                while done < total {
                    let headerLeft = max(0, h.count - done)
                    let payloadDone = max(0, done - h.count)
                    var iov = (
                        iovec(
                            iov_base: UnsafeMutableRawPointer(
                                mutating: h.baseAddress.map { $0 + (h.count - headerLeft) }),
                            iov_len: headerLeft),
                        iovec(
                            iov_base: UnsafeMutableRawPointer(mutating: p.baseAddress.map { $0 + payloadDone }),
                            iov_len: p.count - payloadDone)
                    )
                    let n = withUnsafeMutablePointer(to: &iov) {
                        $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(fd, $0, 2) }
                    }
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return n < 0 ? errno : ENOSPC }
                    done += n
                }
                return 0
            }
        }
    }
}
