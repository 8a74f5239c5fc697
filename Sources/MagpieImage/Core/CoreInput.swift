internal import CMagpie

/// Where the C core reads from: borrowed bytes in memory, or a file it reads itself.
struct CoreInput {
    let memory: UnsafeRawBufferPointer?
    let path: String?

    init(memory: UnsafeRawBufferPointer) {
        self.memory = memory
        self.path = nil
    }

    init(path: String) {
        self.memory = nil
        self.path = path
    }

    func probe() throws(ImageCodecError) -> magpie_info {
        var info = magpie_info()
        let status: Int32
        if let path {
            status = magpie_probe_file(path, &info)
        } else {
            status = magpie_probe(memory?.baseAddress, memory?.count ?? 0, &info)
        }
        try CoreBridge.checkDecoding(status, detail: status == MAGPIE_EIO.rawValue ? fileDetail() : nil)
        return info
    }

    /// The format from the first bytes alone (a GIF's probe walks the whole file).
    func sniff() throws(ImageCodecError) -> magpie_format {
        guard let path else { return magpie_sniff(memory?.baseAddress, memory?.count ?? 0) }
        var format = MAGPIE_FORMAT_UNKNOWN
        let status = magpie_sniff_file(path, &format)
        try CoreBridge.checkDecoding(status, detail: status == MAGPIE_EIO.rawValue ? fileDetail() : nil)
        return format
    }

    func outputSize(_ o: inout magpie_decode_options, _ w: inout UInt32, _ h: inout UInt32) -> Int32 {
        if let path { return magpie_output_size_file(path, &o, &w, &h) }
        return magpie_output_size(memory?.baseAddress, memory?.count ?? 0, &o, &w, &h)
    }

    func decodeInto(
        _ o: inout magpie_decode_options, _ pixels: UnsafeMutablePointer<UInt8>?, _ stride: Int, _ size: Int
    )
        -> Int32
    {
        DecodeMemoryBudget.ensureConfigured()
        let status =
            if let path {
                magpie_decode_file_into(path, &o, pixels, stride, size)
            } else {
                magpie_decode_into(memory?.baseAddress, memory?.count ?? 0, &o, pixels, stride, size)
            }
        DecodeMemoryBudget.finished(status)
        return status
    }

    func decode(_ o: inout magpie_decode_options, _ out: inout UnsafeMutablePointer<magpie_image>?) -> Int32 {
        DecodeMemoryBudget.ensureConfigured()
        let status =
            if let path { magpie_decode_file(path, &o, &out) } else {
                magpie_decode(memory?.baseAddress, memory?.count ?? 0, &o, &out)
            }
        DecodeMemoryBudget.finished(status)
        return status
    }

    /// Opens a decoder handle over the bytes or the file (the header parsed once).
    func openDecoder(_ o: inout magpie_decode_options, _ out: inout OpaquePointer?) -> Int32 {
        if let path { return magpie_decoder_open_file(path, &o, &out) }
        return magpie_decoder_open(memory?.baseAddress, memory?.count ?? 0, &o, &out)
    }

    /// The system's reason a file could not be read (asked again through a decode's detail).
    private func fileDetail() -> String? {
        guard let path else { return nil }
        var detail = [CChar](repeating: 0, count: 256)
        var w: UInt32 = 0
        var h: UInt32 = 0
        detail.withUnsafeMutableBufferPointer { buffer in
            var o = magpie_decode_options()
            magpie_decode_options_init(&o)
            o.error_detail = buffer.baseAddress
            o.error_detail_size = buffer.count
            _ = magpie_output_size_file(path, &o, &w, &h)
        }
        return CoreBridge.string(detail)
    }
}
