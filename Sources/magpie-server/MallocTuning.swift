#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator as a long-running image server wants it. By default its mmap threshold starts
/// at 128 KiB and rises to the size of the largest block freed (up to 32 MiB), so after the first
/// decode buffer is freed, every later one comes from the heap, whose top is returned to the
/// system only past the trim threshold (which rises with it): the peak stays resident. Fixed at
/// 128 KiB, buffers of a decode or a resize are mapped and unmapped whole. Measured on the service
/// benchmark's cold B (three rounds, peak RSS is noisy by a few MB): 61.1 and 64.0 MB in two runs
/// against 65.2 MB (`--fast`: 65.1 and 63.5 against 71.1), at the same rate or better (324–326
/// against 316 requests/s). `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` still win.
enum MallocTuning {
    /// `<malloc.h>`'s parameter numbers (glibc's ABI; Swift's Glibc module does not import the header).
    static let trimThreshold: Int32 = -1
    static let mmapThreshold: Int32 = -3

    static func apply(environment: [String: String]) {
        #if canImport(Glibc)
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
            if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(mmapThreshold, 128 << 10) }
            if environment["MALLOC_TRIM_THRESHOLD_"] == nil { _ = mallopt(trimThreshold, 128 << 10) }
        #endif
    }
}
