import Dispatch

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

/// A disk cache of byte payloads: one file per entry, named by the MD5 of its key, with the key,
/// expiry, last access and HTTP validators kept in the file's own header (never file times).
///
/// Writes go to a temporary file and are renamed into place, so a reader never sees a partial
/// entry and a crash loses at most the entries in flight. Opening the directory removes leftovers
/// of dead writers and entries that fail validation. The size limit holds at every write: the
/// directory exceeds it by at most the entry being written, and then a background trim removes the
/// least recently accessed entries down to half the limit. Calls block on file I/O: call them from
/// your own threads or through ``ImageCache``-style wrappers, not from the cooperative pool in a
/// tight loop.
public final class DiskCache: Sendable {
    /// Directory, limits and naming.
    public struct Config: Sendable {
        /// Name of the cache's directory under the default root.
        public var name: String
        /// The directory; `nil` for `$XDG_CACHE_HOME/magpie/<name>` (else `~/.cache/magpie/<name>`).
        public var directory: String?
        /// Bytes the directory may hold (entry files, headers included); 0 for no limit. 1 GiB.
        public var sizeLimit: Int
        /// Expiry of stored entries unless `store` says otherwise. Default 7 days.
        public var expiration: StorageExpiration
        /// Appended to file names (`"png"` gives `<md5>.png`).
        public var pathExtension: String?
        /// Name files by the MD5 of the key (default); otherwise by the key itself.
        public var usesHashedFileName: Bool
        /// How often expired entries are swept in the background; `nil` for never. Default 10 min.
        public var sweepInterval: Duration?
        /// The largest entry file written or read (headers included), whatever the size limit:
        /// a larger file (a sparse file declaring gigabytes, say) is invalid and never read into
        /// memory. 256 MiB.
        public var maxEntrySize: Int

        public init(
            name: String = "default", directory: String? = nil, sizeLimit: Int = 1 << 30,
            expiration: StorageExpiration = .days(7), pathExtension: String? = nil, usesHashedFileName: Bool = true,
            sweepInterval: Duration? = .seconds(600), maxEntrySize: Int = 256 << 20
        ) {
            self.maxEntrySize = max(0, maxEntrySize)
            self.name = name
            self.directory = directory
            self.sizeLimit = sizeLimit
            self.expiration = expiration
            self.pathExtension = pathExtension
            self.usesHashedFileName = usesHashedFileName
            self.sweepInterval = sweepInterval
        }

        /// `directory`, else `$XDG_CACHE_HOME/magpie/<name>`, else `$HOME/.cache/magpie/<name>`;
        /// `nil` when none is set (the cache then refuses to open rather than use a shared place).
        public var resolvedDirectory: String? {
            directory ?? DiskCache.defaultDirectory(name: name, environment: ProcessInfo.processInfo.environment)
        }

        /// The largest entry file this cache writes or reads.
        var entryCap: Int { sizeLimit > 0 ? min(sizeLimit, maxEntrySize) : maxEntrySize }
    }

    /// An entry's identity in the index: the MD5 of its key (whether or not files are named by it),
    /// so lookups hash 16 bytes and build no strings.
    struct EntryID: Hashable {
        var hi: UInt64
        var lo: UInt64

        init(key: String) {
            (hi, lo) = Digest.md5Words(key)
        }

        func hash(into hasher: inout Hasher) { hasher.combine(lo) }

        /// Writes the 32 lowercase hex digits of the digest (the hashed file name) at `out`.
        func writeHex(_ out: UnsafeMutablePointer<UInt8>) {
            let digits: StaticString = "0123456789abcdef"
            var digest = (hi, lo)
            withUnsafeBytes(of: &digest) { d in
                for i in 0..<16 {
                    out[2 * i] = digits.utf8Start[Int(d[i] >> 4)]
                    out[2 * i + 1] = digits.utf8Start[Int(d[i] & 15)]
                }
            }
        }
    }

    /// What the index knows of an entry: plain values only, so copying one retains nothing.
    struct Entry {
        var size: Int  // file bytes
        var expiresAt: Double
        var lastAccess: Double
        var headerSize = 0
        /// The file's identity when its payload last passed the CRC check in this process: a
        /// read of the same inode, size and modification time skips the check.
        var verified: FileStamp?
        /// Which write of this process put the entry in the index (0: found on disk). A removal
        /// or a read that looked at one generation leaves a later one alone.
        var generation: UInt64 = 0
    }

    struct FileStamp: Equatable {
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int

        init(_ st: stat) {
            inode = UInt64(st.st_ino)
            size = Int(st.st_size)
            modified = Int(st.st_mtim.tv_sec)
            modifiedNanoseconds = Int(st.st_mtim.tv_nsec)
        }
    }

    struct State {
        var index: [EntryID: Entry] = [:]
        /// The keys of indexed entries, kept only when files are named by their keys (not hashed).
        var keys: [EntryID: String] = [:]
        var totalSize = 0
        var trimScheduled = false
        var lastGeneration: UInt64 = 0

        /// A generation no entry has had.
        mutating func nextGeneration() -> UInt64 {
            lastGeneration += 1
            return lastGeneration
        }
    }

    /// The cache directory.
    public let directory: String
    public let config: Config
    /// Whether the folder could not be written when it was opened (a read-only mount, a folder
    /// without write permission): reads work, writes fail with ``DiskCacheError/readOnly(path:)``.
    public let isReadOnly: Bool
    /// The folder's secret for keyed digests of credentials (see `ImageManager.cacheKey`), read
    /// or made the first time a request with credentials needs it.
    var secret: [UInt8] {
        secretBox.withLock { box in
            if let box { return box }
            let loaded = Self.loadSecret(directory, writable: !isReadOnly)
            box = loaded
            return loaded
        }
    }
    private let secretBox = Locked<[UInt8]?>(nil)
    /// The size of the folder as every process writing to it counts it (`.magpie-size`, under
    /// `flock`); `nil` without a size limit or when read-only.
    let shared: SharedSizeRecord?
    /// What opening found: temporary files of dead writers removed, and invalid entries removed.
    public let openingReport: (leftoversRemoved: Int, invalidRemoved: Int)
    let state: Locked<State>
    let counters = Locked<(invalid: Int, trims: Int, recreations: Int)>((0, 0, 0))
    let clock: any CacheClock
    let background: DispatchQueue
    private let sweeper = Locked<Task<Void, Never>?>(nil)
    /// Names temporary files uniquely within this process (the pid makes them unique across).
    private let temporaryCounter = Locked<UInt64>(UInt64.random(in: 0...UInt64.max >> 8))
    /// The directory and a slash, and the file-name suffix ("" or "." + extension), as bytes.
    private let pathPrefix: [UInt8]
    private let nameSuffix: [UInt8]
    private let pid = getpid()
    /// Locks over entry files by ID (striped): a write holds its entry's lock while it renames
    /// its file into place and indexes it, and a removal while it checks that the entry is still
    /// the one it chose and deletes the file. So a trim, an expiry sweep or a read that found a
    /// bad file never deletes a newer write of the same key. Taken before `state`, never inside it.
    /// (The locked value is unused; ThreadSanitizer misreads accesses to an empty one.)
    let fileLocks = (0..<64).map { _ in Locked(0) }
    /// Runs once in each removal of several entries, after they are chosen and before their files
    /// go (tests use it to write in that window).
    let removalHook = Locked<(@Sendable () -> Void)?>(nil)

    /// Opens (creating if needed, mode 0700, with its marker file) the cache directory and
    /// indexes its entries.
    /// - Throws: ``DiskCacheError/noDirectory``, ``DiskCacheError/cannotCreateDirectory(path:errno:)``,
    ///   ``DiskCacheError/notADirectory(path:)``, ``DiskCacheError/notACacheDirectory(path:)`` (a
    ///   folder with files and no marker) or ``DiskCacheError/insecureDirectory(path:reason:)`` (a
    ///   link, another user's folder, or one that group or others may write to).
    public init(config: Config = Config(), clock: any CacheClock = SystemCacheClock()) throws(DiskCacheError) {
        self.config = config
        self.clock = clock
        guard let dir = config.resolvedDirectory else { throw .noDirectory }
        self.directory = dir
        self.pathPrefix = Array((dir + "/").utf8)
        self.nameSuffix = config.pathExtension.flatMap { $0.isEmpty ? nil : Array(("." + $0).utf8) } ?? []
        self.isReadOnly = !(try Self.prepareDirectory(dir))
        self.background = DispatchQueue(label: "magpie.disk-cache.\(config.name)", qos: .utility)
        let (state, report) = Self.scan(dir, config: config, maxEntrySize: config.entryCap)
        self.shared = isReadOnly || config.sizeLimit <= 0 ? nil : SharedSizeRecord(directory: dir)
        shared?.openedWith(total: state.totalSize)
        self.state = Locked(state)
        self.openingReport = report
        if let interval = config.sweepInterval, interval > .zero {
            let task = Task.detached(priority: .utility) { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard let self else { return }
                    _ = self.removeExpiredValues()
                }
            }
            sweeper.withLock { $0 = task }
        }
    }

    deinit {
        sweeper.withLock { $0?.cancel() }
    }

    // MARK: - names

    /// The file name an entry for `key` is stored under.
    public func fileName(forKey key: String) -> String { Self.fileName(forKey: key, config: config) }

    static func fileName(forKey key: String, config: Config) -> String {
        let base = config.usesHashedFileName ? Digest.md5Hex(key) : key
        guard let ext = config.pathExtension, !ext.isEmpty else { return base }
        return base + "." + ext
    }

    /// The full path of the entry for `key` (whether or not it exists).
    public func path(forKey key: String) -> String { directory + "/" + fileName(forKey: key) }

    /// The index identity of `key`, after checking that an unhashed key makes a valid file name.
    func checkedID(_ key: String) throws(DiskCacheError) -> EntryID {
        if !config.usesHashedFileName,
            key.isEmpty || key.contains("/") || key == "." || key == ".." || key.hasPrefix(".tmp-")
        {
            throw .invalidKey(key)
        }
        return EntryID(key: key)
    }

    /// The entry's file name: hex of the ID or the key, plus the extension.
    func fileName(_ id: EntryID, key: String?) -> String {
        if config.usesHashedFileName {
            let hex = String(unsafeUninitializedCapacity: 32) { buffer in
                id.writeHex(buffer.baseAddress!)
                return 32
            }
            return hex + String(decoding: nameSuffix, as: UTF8.self)
        }
        return (key ?? "") + String(decoding: nameSuffix, as: UTF8.self)
    }

    /// Runs `body` with the entry's NUL-terminated path, built on the stack.
    func withPath<R>(_ id: EntryID, key: String?, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let nameCount = config.usesHashedFileName ? 32 : (key?.utf8.count ?? 0)
        let total = pathPrefix.count + nameCount + nameSuffix.count + 1
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer in
            let base = buffer.baseAddress!
            pathPrefix.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
            var at = pathPrefix.count
            if config.usesHashedFileName {
                id.writeHex(base + at)
            } else if var key {
                key.withUTF8 { (base + at).update(from: $0.baseAddress!, count: $0.count) }
            }
            at += nameCount
            nameSuffix.withUnsafeBufferPointer {
                if $0.count > 0 { (base + at).update(from: $0.baseAddress!, count: $0.count) }
            }
            base[total - 1] = 0
            return try UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: total) { try body($0) }
        }
    }

    /// The path of an indexed entry, as a string (for the slow paths: removal, sweeps).
    func path(_ id: EntryID, key: String?) -> String { directory + "/" + fileName(id, key: key) }

    // MARK: - writing

    /// Stores `data` for `key`, replacing any entry, through a temporary file and a rename.
    /// - Throws: ``DiskCacheError/writeFailed(path:errno:)`` (disk full, file-size limit, no
    ///   permission, name too long…), ``DiskCacheError/entryTooLarge(size:limit:)``,
    ///   ``DiskCacheError/invalidKey(_:)``. A failed write leaves no file behind.
    public func store(
        _ data: [UInt8], forKey key: String, expiration: StorageExpiration? = nil,
        metadata: DiskEntryMetadata = DiskEntryMetadata()
    ) throws(DiskCacheError) {
        let id = try checkedID(key)
        if isReadOnly { throw .readOnly(path: directory) }
        let exp = expiration ?? config.expiration
        if exp.isExpired {
            try? remove(forKey: key)
            return
        }
        let now = clock.now()
        let crc = Digest.crc32c(data)
        let expires = exp.expiryDate(from: now)?.timeIntervalSinceReferenceDate ?? .infinity
        guard
            let header = DiskEntryFormat.header(
                key: key, payloadSize: data.count, crc: crc, created: now.timeIntervalSinceReferenceDate,
                expires: expires, metadata: metadata)
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
                        if withPath(id, key: unhashedKey, { rename(temporary, $0) }) != 0 { return errno }
                        over = state.withLock { s -> Bool in
                            let entry = Entry(
                                size: fileSize, expiresAt: expires, lastAccess: now.timeIntervalSinceReferenceDate,
                                headerSize: header.count, verified: stamp, generation: s.nextGeneration())
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
                        return 0
                    }
                }
                if failure != 0 { unlink(temporary) }
                return failure
            }
        }
        var failure = writeOnce()
        // The folder vanished under us (a temp cleaner, `rm -rf`, a volume reset): make it again
        // and write once more, rather than stop caching for good.
        if failure == ENOENT && access(directory, F_OK) != 0 && recreateDirectory() { failure = writeOnce() }
        if failure != 0 { throw .writeFailed(path: path(id, key: unhashedKey), errno: failure) }
        // Other processes' writes count too: when the folder's shared total is over the limit,
        // rescan it and trim to half across processes now, so at rest the folder holds at most
        // the limit plus the entry each writing process had in flight.
        if let shared, shared.add(replacedDelta) > config.sizeLimit {
            trimAcrossProcesses(downTo: config.sizeLimit / 2, over: config.sizeLimit, sparing: id)
        }
        if over {
            background.async { [weak self] in
                guard let self else { return }
                self.state.withLock { $0.trimScheduled = false }
                _ = self.removeSizeExceededValues()
            }
        }
    }

    /// Runs `body` with a NUL-terminated temporary path, `<dir>/.tmp-<pid>-<counter hex>`.
    private func withTemporaryPath<R>(_ counter: UInt64, _ body: (UnsafePointer<CChar>) -> R) -> R {
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
    private static func writeAll(_ fd: Int32, _ header: [UInt8], _ payload: [UInt8]) -> Int32 {
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

    // MARK: - reading

    /// The payload for `key`, or `nil` when there is none, it expired (then it is removed) or it
    /// fails validation (then it is removed and counted). Reading updates the last access and
    /// extends the expiry as asked.
    /// - Throws: ``DiskCacheError/readFailed(path:errno:)`` for I/O errors other than absence.
    public func value(forKey key: String, extendingExpiration extending: ExpirationExtending = .cacheTime)
        throws(DiskCacheError) -> [UInt8]?
    {
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
        let outcome = withPath(id, key: unhashedKey) { path in
            read(path, key: key, known: known, now: now, extending: extending)
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
        case .hit(let payload, var entry):
            state.withLock { s in
                // Unless a write or a removal came in meanwhile: theirs is the newer state.
                guard s.index[id]?.generation == seen else { return }
                entry.generation = seen ?? s.nextGeneration()
                s.totalSize += entry.size - (s.index.updateValue(entry, forKey: id)?.size ?? 0)
                if let unhashedKey { s.keys[id] = unhashedKey }
            }
            return payload
        }
    }

    private enum ReadOutcome {
        case missing
        case failed(Int32)
        case invalid
        case expired
        case hit([UInt8], Entry)
    }

    /// Reads and validates the entry file at `path`; updates its header's expiry and last access
    /// when they moved enough to matter.
    private func read(
        _ path: UnsafePointer<CChar>, key: String, known: Entry?, now: Date, extending: ExpirationExtending
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
        if let known, known.headerSize >= DiskEntryFormat.fixedSize, known.headerSize <= stamp.size {
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
            if let f = facts, known.verified != stamp, Self.crc(payload) != f.crc { facts = nil }
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
                expiresAt: header.info.expiresAt, lastAccess: header.info.lastAccess)
        }
        guard let parsed = facts else { return .invalid }
        if parsed.expiresAt <= nowSeconds { return .expired }
        var expires = parsed.expiresAt
        switch extending {
        case .none: break
        case .cacheTime:
            // The entry's own lifetime, measured again from now: expiry and last access are
            // always written together, so their difference is the lifetime last set.
            let lifetime = parsed.expiresAt - parsed.lastAccess
            if expires != .infinity {
                expires =
                    lifetime > 0 && lifetime.isFinite
                    ? nowSeconds + lifetime : Self.seconds(config.expiration.expiryDate(from: now))
            }
        case .expirationTime(let e): expires = Self.seconds(e.expiryDate(from: now))
        }
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
            headerSize: parsed.headerSize, verified: current)
        return .hit(payload, entry)
    }

    /// The header facts of the entry for `key` (key, size, expiry, last access, validators),
    /// without reading its payload or changing its access time.
    public func entryInfo(forKey key: String) -> DiskEntryInfo? {
        guard let id = try? checkedID(key) else { return nil }
        let fd = withPath(id, key: config.usesHashedFileName ? nil : key) {
            open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return Self.readHeader(fd)?.info
    }

    /// Whether an unexpired entry for `key` is indexed. Reads no file, so it answers for what
    /// this process knows: a file another process or a person removed since still counts until a
    /// read finds it gone. Ask ``isCached(forKey:verifyingFile:)`` when that matters.
    public func isCached(forKey key: String) -> Bool {
        let id = EntryID(key: key)
        let now = clock.now().timeIntervalSinceReferenceDate
        return state.withLock { s in
            guard let e = s.index[id] else { return false }
            return e.expiresAt > now
        }
    }

    /// Like ``isCached(forKey:)``, and with `verifyingFile` also checks (one `fstatat`, no read)
    /// that the entry's file is still there; a missing one is dropped from the index.
    public func isCached(forKey key: String, verifyingFile: Bool) -> Bool {
        guard isCached(forKey: key) else { return false }
        guard verifyingFile, let id = try? checkedID(key) else { return true }
        let unhashedKey = config.usesHashedFileName ? nil : key
        var st = stat()
        if withPath(id, key: unhashedKey, { fstatat(AT_FDCWD, $0, &st, AT_SYMLINK_NOFOLLOW) }) == 0,
            (st.st_mode & S_IFMT) == S_IFREG
        {
            return true
        }
        discard(id, key: unhashedKey, seen: state.withLock { $0.index[id]?.generation }, unlinking: false)
        return false
    }

    /// Makes the folder again after it vanished (mode 0700, marker) and forgets the index, whose
    /// files went with it. Returns whether the folder is usable again.
    func recreateDirectory() -> Bool {
        guard (try? Self.prepareDirectory(directory)) == true else { return false }
        shared?.reopen()
        state.withLock { s in
            s.index.removeAll()
            s.keys.removeAll()
            s.totalSize = 0
        }
        counters.withLock { $0.recreations += 1 }
        return true
    }

    /// Times the folder was found gone and made again.
    public var directoryRecreations: Int { counters.withLock { $0.recreations } }

    /// Bytes the entry files take (headers included).
    public func totalSize() -> Int { state.withLock { $0.totalSize } }
    /// Entries indexed.
    public var count: Int { state.withLock { $0.index.count } }
    /// Entries removed because they failed validation since opening (open-time ones included).
    public var invalidEntriesRemoved: Int { counters.withLock { $0.invalid } + openingReport.invalidRemoved }

    // MARK: - file helpers

    static func readHeader(_ fd: Int32) -> DiskEntryFormat.Parsed? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fileSize = Int(st.st_size)
        var head = [UInt8](repeating: 0, count: min(fileSize, 4096))
        var got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
        guard got >= DiskEntryFormat.fixedSize else { return nil }
        let declared = Int(head.withUnsafeBytes { DiskEntryFormat.read16($0, 6) })
        if declared > head.count && declared <= min(fileSize, DiskEntryFormat.maxHeaderSize) {
            head = [UInt8](repeating: 0, count: declared)
            got = head.withUnsafeMutableBytes { readAll(fd, $0, at: 0) }
            guard got == declared else { return nil }
        }
        return DiskEntryFormat.parse(Array(head[..<got]), fileSize: fileSize)
    }

    static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: off_t) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, offset + off_t(done))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done
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
