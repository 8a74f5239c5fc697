internal import CMagpie

/// The C core's rights metadata (EXIF Copyright and Artist): the only Swift that calls it.
enum CoreRights {
    static func read(_ data: [UInt8]) -> (copyright: String, artist: String) {
        var r = magpie_rights()
        _ = data.withUnsafeBytes { magpie_read_rights($0.baseAddress, $0.count, &r) }
        return (text(r.copyright), text(r.artist))
    }

    static func write(_ copyright: String, _ artist: String, into encoded: [UInt8], width: Int, height: Int)
        throws(ImageCodecError) -> [UInt8]
    {
        var r = magpie_rights()
        fill(&r.copyright, copyright)
        fill(&r.artist, artist)
        var out: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = encoded.withUnsafeBytes {
            magpie_write_rights(
                $0.baseAddress, $0.count, &r, UInt32(clamping: max(0, width)), UInt32(clamping: max(0, height)), &out,
                &count)
        }
        defer { magpie_free(out) }
        try CoreBridge.checkEncoding(status)
        guard let out else { return encoded }
        return Array(UnsafeBufferPointer(start: out, count: count))
    }

    /// A 256-byte C array as a Swift string (its bytes are printable ASCII).
    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Printable ASCII of `value`, at most 255 bytes, into a 256-byte C array.
    private static func fill<T>(_ tuple: inout T, _ value: String) {
        let bytes = value.utf8.filter { (0x20..<0x7F).contains($0) }.prefix(255)
        withUnsafeMutableBytes(of: &tuple) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
    }
}
