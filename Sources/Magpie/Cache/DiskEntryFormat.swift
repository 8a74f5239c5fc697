#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a disk entry keeps of the response it came from: the HTTP validators and content type.
public typealias DiskEntryMetadata = ResponseValidators

/// What the cache knows of an entry without reading its payload.
public struct DiskEntryInfo: Sendable, Hashable {
    /// The original key.
    public var key: String
    /// Payload bytes.
    public var size: Int
    /// Seconds since the reference date; `.infinity` when it never expires.
    public var expiresAt: Double
    /// Seconds since the reference date of the last read or write.
    public var lastAccess: Double
    public var metadata: DiskEntryMetadata
    /// The origin's freshness and stale allowances (``EntryFreshness/unlimited`` for entries
    /// stored without them).
    public var freshness: EntryFreshness = .unlimited
}

/// The on-disk layout of one entry: a fixed header, the key and validators, then the payload.
///
///     0  "MGPE"            4  version (u16)   6  header length (u16)
///     8  payload length (u64)                16  payload CRC-32C (u32)   20  reserved (u32)
///    24  created (f64)     32  expires (f64, +inf = never)   40  last access (f64)
///    48  key length (u32)  52  ETag length (u16)  54  Last-Modified length (u16)
///    56  Content-Type length (u16)  58  variant length (u16; reserved, zero, in version 1)
///    60  fresh until (f64, +inf = while kept)  68  origin lifetime (u32 s)
///    72  stale-while-revalidate (u32 s)  76  stale-if-error (u32 s)  80  flags (u32)  84  reserved (u32)
///        (flags: 1 immutable, 2 has validators, 4 must-revalidate, 8 no-cache)
///    88  key, ETag, Last-Modified, Content-Type, variant
///
/// Little-endian. Version 1 (still read) ends its fixed part at 60 and has no freshness fields.
/// The expiry and last-access fields are rewritten in place together (one 16-byte pwrite at
/// `expiresOffset`); a revalidation rewrites the freshness fields (one pwrite at `freshOffset`).
enum DiskEntryFormat {
    static let magic: [UInt8] = Array("MGPE".utf8)
    static let version: UInt16 = 2
    static let fixedSize = 88
    /// The smallest fixed part of any version read (version 1's).
    static let minimumFixedSize = 60
    static let expiresOffset: off_t = 32
    static let freshOffset: off_t = 60
    static let immutableFlag: UInt32 = 1
    static let validatorsFlag: UInt32 = 2
    static let mustRevalidateFlag: UInt32 = 4
    static let noCacheFlag: UInt32 = 8
    static let privateFlag: UInt32 = 16

    static func fixedPart(version: UInt16) -> Int? {
        switch version {
        case 1: return minimumFixedSize
        case 2: return fixedSize
        default: return nil
        }
    }

    /// The 24 bytes at `freshOffset`.
    static func freshnessFields(_ f: EntryFreshness, hasValidators: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(24)
        append(&out, f.freshUntil.bitPattern)
        append(&out, f.lifetime)
        append(&out, f.staleWhileRevalidate)
        append(&out, f.staleIfError)
        append(
            &out,
            (f.immutable ? immutableFlag : 0) | (hasValidators ? validatorsFlag : 0)
                | (f.mustRevalidate ? mustRevalidateFlag : 0) | (f.noCache ? noCacheFlag : 0)
                | (f.isPrivate ? privateFlag : 0))
        append(&out, UInt32(0))
        return out
    }

    /// The freshness fields of a header (`.unlimited` for version 1), and whether the entry has
    /// validators.
    static func freshness(_ b: UnsafeRawBufferPointer) -> (EntryFreshness, hasValidators: Bool) {
        guard read16(b, 4) >= 2, b.count >= fixedSize else { return (.unlimited, true) }
        let flags = read32(b, 80)
        var f = EntryFreshness(
            freshUntil: Double(bitPattern: read64(b, 60)), lifetime: read32(b, 68),
            staleWhileRevalidate: read32(b, 72), staleIfError: read32(b, 76), immutable: flags & immutableFlag != 0,
            mustRevalidate: flags & mustRevalidateFlag != 0, noCache: flags & noCacheFlag != 0)
        f.isPrivate = flags & privateFlag != 0
        return (f, flags & validatorsFlag != 0)
    }
    /// Headers are small; a larger declared one is corruption.
    static let maxHeaderSize = 64 * 1024

    static func header(
        key: String, payloadSize: Int, crc: UInt32, created: Double, expires: Double, metadata: DiskEntryMetadata,
        freshness: EntryFreshness = .unlimited
    ) -> [UInt8]? {
        let etag = metadata.etag ?? ""
        let lastModified = metadata.lastModified ?? ""
        let contentType = metadata.contentType ?? ""
        let variant = metadata.variant ?? ""
        let keyCount = key.utf8.count
        let counts = (etag.utf8.count, lastModified.utf8.count, contentType.utf8.count, variant.utf8.count)
        let size = fixedSize + keyCount + counts.0 + counts.1 + counts.2 + counts.3
        guard size <= Int(UInt16.max) else { return nil }
        var h = [UInt8]()
        h.reserveCapacity(size)
        h += magic
        append(&h, version)
        append(&h, UInt16(size))
        append(&h, UInt64(payloadSize))
        append(&h, crc)
        append(&h, UInt32(0))
        append(&h, created.bitPattern)
        append(&h, expires.bitPattern)
        append(&h, created.bitPattern)
        append(&h, UInt32(keyCount))
        append(&h, UInt16(counts.0))
        append(&h, UInt16(counts.1))
        append(&h, UInt16(counts.2))
        append(&h, UInt16(counts.3))
        h += freshnessFields(freshness, hasValidators: metadata.canRevalidate)
        h.append(contentsOf: key.utf8)
        h.append(contentsOf: etag.utf8)
        h.append(contentsOf: lastModified.utf8)
        h.append(contentsOf: contentType.utf8)
        h.append(contentsOf: variant.utf8)
        return h
    }

    struct Parsed {
        var info: DiskEntryInfo
        var headerSize: Int
        var crc: UInt32
        var version: UInt16
    }

    /// The layout facts of a header that is valid for a file of `fileSize` bytes.
    struct Layout {
        var headerSize: Int
        var payloadSize: Int
        var keyLength: Int
        var fieldLengths: (Int, Int, Int, Int)  // ETag, Last-Modified, Content-Type, variant
        var fixedSize: Int
    }

    static func layout(_ b: UnsafeRawBufferPointer, fileSize: Int) -> Layout? {
        guard b.count >= minimumFixedSize, b[0] == magic[0], b[1] == magic[1], b[2] == magic[2], b[3] == magic[3],
            let fixedSize = fixedPart(version: read16(b, 4))
        else { return nil }
        let headerSize = Int(read16(b, 6))
        let payload = read64(b, 8)
        guard headerSize >= fixedSize, headerSize <= b.count, payload <= UInt64(Int.max),
            headerSize + Int(payload) == fileSize
        else { return nil }
        let keyLength = Int(read32(b, 48))
        let variantLength = fixedSize > minimumFixedSize ? Int(read16(b, 58)) : 0
        let lengths = (Int(read16(b, 52)), Int(read16(b, 54)), Int(read16(b, 56)), variantLength)
        guard fixedSize + keyLength + lengths.0 + lengths.1 + lengths.2 + lengths.3 == headerSize else { return nil }
        return Layout(
            headerSize: headerSize, payloadSize: Int(payload), keyLength: keyLength, fieldLengths: lengths,
            fixedSize: fixedSize)
    }

    /// Parses a header read from the start of a file of `fileSize` bytes; `nil` when invalid.
    static func parse(_ bytes: [UInt8], fileSize: Int) -> Parsed? {
        bytes.withUnsafeBytes { b in
            guard let l = layout(b, fileSize: fileSize) else { return nil }
            var at = l.fixedSize
            func take(_ n: Int) -> String {
                defer { at += n }
                return String(decoding: b[at..<at + n], as: UTF8.self)
            }
            let key = take(l.keyLength)
            let fields = [
                take(l.fieldLengths.0), take(l.fieldLengths.1), take(l.fieldLengths.2), take(l.fieldLengths.3),
            ].map { $0.isEmpty ? nil : $0 }
            let metadata = DiskEntryMetadata(
                etag: fields[0], lastModified: fields[1], contentType: fields[2], variant: fields[3])
            return parsed(b, l, key: key, metadata: metadata)
        }
    }

    /// The header facts a read needs, without the key.
    struct Facts {
        var headerSize: Int
        var payloadSize: Int
        var crc: UInt32
        var expiresAt: Double
        var lastAccess: Double
        var freshness: EntryFreshness
        var hasValidators: Bool
        /// The validators, content type and variant kept with the entry (strings built only for
        /// the fields it has), so a hit needs no second read to revalidate.
        var metadata: DiskEntryMetadata
    }

    /// The facts a read needs, checked without building strings: `nil` unless the header is
    /// valid for a file of `fileSize` bytes and was written for `key`.
    static func facts(_ b: UnsafeRawBufferPointer, fileSize: Int, key: String) -> Facts? {
        guard let l = layout(b, fileSize: fileSize), key.utf8.count == l.keyLength else { return nil }
        var key = key
        let same = key.withUTF8 { k in
            l.keyLength == 0 || memcmp(k.baseAddress!, b.baseAddress! + l.fixedSize, l.keyLength) == 0
        }
        guard same else { return nil }
        let (freshness, hasValidators) = Self.freshness(b)
        var at = l.fixedSize + l.keyLength
        func take(_ n: Int) -> String? {
            defer { at += n }
            return n == 0 ? nil : String(decoding: b[at..<at + n], as: UTF8.self)
        }
        let metadata = DiskEntryMetadata(
            etag: take(l.fieldLengths.0), lastModified: take(l.fieldLengths.1), contentType: take(l.fieldLengths.2),
            variant: take(l.fieldLengths.3))
        return Facts(
            headerSize: l.headerSize, payloadSize: l.payloadSize, crc: read32(b, 16),
            expiresAt: Double(bitPattern: read64(b, 32)), lastAccess: Double(bitPattern: read64(b, 40)),
            freshness: freshness, hasValidators: hasValidators, metadata: metadata)
    }

    private static func parsed(_ b: UnsafeRawBufferPointer, _ l: Layout, key: String, metadata: DiskEntryMetadata)
        -> Parsed
    {
        let info = DiskEntryInfo(
            key: key, size: l.payloadSize, expiresAt: Double(bitPattern: read64(b, 32)),
            lastAccess: Double(bitPattern: read64(b, 40)), metadata: metadata, freshness: freshness(b).0)
        return Parsed(info: info, headerSize: l.headerSize, crc: read32(b, 16), version: read16(b, 4))
    }

    static func append<T: FixedWidthInteger>(_ out: inout [UInt8], _ v: T) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }
    static func read16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self))
    }
    static func read32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    static func read64(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
}
