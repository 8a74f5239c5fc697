// libFuzzer harness over the resume rules (ResumableBody), built by scripts/fuzz.sh with swiftc
// -sanitize=fuzzer,address from the module's own source files.
// Input: the cut answer's head lines ("Name: value"), a blank line, the continuation's head lines,
// a blank line, then two bytes giving the lengths of the cut body and the continuation's body.
// Whatever the bytes, nothing traps; a `Content-Range` read back is ordered and reads again the
// same; bytes are kept only below the limit and the declared length; a continuation joins only at
// the offset, within its range, the limit and the complete length; a completed body is exactly
// the complete length, starting with the bytes kept.
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

private let url = URL(string: "http://origin.example/a.jpg")!
private let limit = 4096

private func fields(_ lines: [Substring]) -> [HTTPHeaderField] {
    lines.compactMap { line in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return HTTPHeaderField(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResume(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lengths = bytes.suffix(2)
    let text = String(decoding: bytes.dropLast(min(2, bytes.count)), as: UTF8.self)
    let blocks = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
    let head = fields(blocks[0].split(separator: "\n"))
    let next = fields(blocks.count > 1 ? blocks[1].split(separator: "\n") : [])
    let cutLength = Int(lengths.first ?? 0) * 16
    let partLength = Int(lengths.last ?? 0) * 16

    if let range = ResumableBody.contentRange(next) {
        precondition(range.first <= range.last && range.last < range.complete, "unordered range")
        let again = ResumableBody.contentRange([
            HTTPHeaderField("Content-Range", "bytes \(range.first)-\(range.last)/\(range.complete)")
        ])
        precondition(again.map { [$0.first, $0.last, $0.complete] } == [range.first, range.last, range.complete])
    }
    let cut = DataResponse(url: url, statusCode: 200, headers: head, body: Array(repeating: 1, count: cutLength))
    guard let kept = ResumableBody(cut, maxBodySize: limit) else { return 0 }
    precondition(kept.body.count < limit && kept.total.map { $0 > kept.body.count && $0 <= limit } ?? true)
    precondition(kept.rangeFields[0].value == "bytes=\(cutLength)-")
    precondition(ResponseValidators.isSendable(kept.validator) && !kept.validator.hasPrefix("W/"))
    let part = DataResponse(url: url, statusCode: 206, headers: next, body: Array(repeating: 2, count: partLength))
    if let longer = kept.continued(by: part, maxBodySize: limit) {
        precondition(longer.body.count == cutLength + partLength && longer.body.count <= limit, "joined past the limit")
        precondition(longer.body.prefix(cutLength).allSatisfy { $0 == 1 }, "the bytes kept changed")
        precondition(longer.total.map { longer.body.count <= $0 } == true, "past the complete length")
        precondition(kept.total == nil || kept.total == longer.total, "another complete length")
    }
    if case .completed(let whole) = kept.continuation(with: part, maxBodySize: limit) {
        precondition(whole.statusCode == 200 && whole.body.count == kept.continued(by: part, maxBodySize: limit)?.total)
        precondition(
            whole.body.prefix(cutLength).allSatisfy { $0 == 1 }
                && whole.body.dropFirst(cutLength).allSatisfy { $0 == 2 })
        precondition(whole.headers.value(for: "Content-Length") == String(whole.body.count))
        precondition(whole.headers.value(for: "Content-Range") == nil)
    }
    return 0
}
