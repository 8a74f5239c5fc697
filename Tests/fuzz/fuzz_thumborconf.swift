// libFuzzer harness over the thumbor.conf reader (ThumborConfLexer, ThumborConfParser and the
// rest of ThumborConf*.swift), built by scripts/fuzz.sh with swiftc -sanitize=fuzzer,address from
// magpie-server's own source files. Whatever the bytes, reading traps on nothing, allocates within
// bounds and ends (an operator's file is trusted less than Python trusts it: no exponent, repeat or
// shift may run away); what it reads is what a second read gives, and every assignment's line is a
// line of the file.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumborConf(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let first = try? ThumborConfFile.parse(text) else { return 0 }
    let again = try? ThumborConfFile.parse(text)
    precondition(again == first, "reading is deterministic")
    let lines = text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    for a in first {
        precondition((1...lines).contains(a.line), "line \(a.line) of \(lines)")
        precondition(!a.name.isEmpty)
        _ = a.value.description
    }
    _ = ThumborConfFile.values(first)
    return 0
}
