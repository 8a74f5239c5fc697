/// File names and paths of entries (hashed or plain, with the optional extension).
extension DiskCache {
    // MARK: - names

    /// The file name an entry for `key` is stored under.
    public func fileName(forKey key: String) -> String { Self.fileName(forKey: key, config: config) }

    static func fileName(forKey key: String, config: Config) -> String {
        guard !config.usesHashedFileName else {
            return CacheKeys.fileName(for: key, pathExtension: config.pathExtension)
        }
        guard let ext = config.pathExtension, !ext.isEmpty else { return key }
        return key + "." + ext
    }

    /// The full path of the entry for `key` (whether or not it exists).
    public func path(forKey key: String) -> String { directory + "/" + fileName(forKey: key) }

    /// The index identity of `key`, after checking that an unhashed key makes a valid file name.
    func checkedID(_ key: String) throws(DiskCacheError) -> EntryID {
        if !config.usesHashedFileName,
            key.isEmpty || key.contains("/") || key.hasPrefix(".")
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
}
