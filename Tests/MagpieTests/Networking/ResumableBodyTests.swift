import Foundation
import Testing

@testable import Magpie

/// The rules of ``ResumableBody`` on their own: which cut answers are kept, what a `Content-Range`
/// says, and which continuations join the bytes kept.
@Suite struct ResumableBodyTests {
    let url = URL(string: "http://127.0.0.1:9/a.jpg")!

    func cut(_ headers: [(String, String)], body: [UInt8] = Array(repeating: 7, count: 100)) -> DataResponse {
        DataResponse(url: url, statusCode: 200, headers: headers.map { HTTPHeaderField($0.0, $0.1) }, body: body)
    }

    static let strong: [(String, String)] = [
        ("ETag", "\"abc\""), ("Accept-Ranges", "bytes"), ("Content-Length", "1000"),
    ]

    @Test(arguments: [
        ("bytes 0-0/1", true), ("bytes 5-9/10", true), ("BYTES 5-9/10", true), ("bytes 5-9/*", false),
        ("bytes 9-5/10", false), ("bytes 5-10/10", false), ("bytes */10", false), ("bytes 5-9/10/11", false),
        ("bytes  5-9/10", false), ("bytes -5-9/10", false), ("bytes 5-9/99999999999999999999", false),
        ("bytes 5 - 9/10", false), ("bytes=5-9/10", false), ("", false),
    ])
    func contentRangeIsReadStrictly(_ text: String, valid: Bool) {
        let fields = [HTTPHeaderField("Content-Range", text)]
        #expect((ResumableBody.contentRange(fields) != nil) == valid, "\(text)")
    }

    @Test func whatIsKept() throws {
        let kept = try #require(ResumableBody(cut(Self.strong), maxBodySize: 10_000))
        #expect(kept.rangeFields == [HTTPHeaderField("Range", "bytes=100-"), HTTPHeaderField("If-Range", "\"abc\"")])
        #expect(kept.total == 1000)
        // Not a 200; nothing received; the whole past the limit; no byte ranges; encoded; weak;
        // an unquoted tag; a declared length the bytes already reach.
        var partial = cut(Self.strong)
        partial.statusCode = 203
        #expect(ResumableBody(partial, maxBodySize: 10_000) == nil)
        #expect(ResumableBody(cut(Self.strong, body: []), maxBodySize: 10_000) == nil)
        #expect(ResumableBody(cut(Self.strong), maxBodySize: 999) == nil)
        #expect(ResumableBody(cut([("ETag", "\"abc\"")]), maxBodySize: 10_000) == nil)
        #expect(ResumableBody(cut(Self.strong + [("Content-Encoding", "gzip")]), maxBodySize: 10_000) == nil)
        #expect(ResumableBody(cut(Self.strong + [("Content-Encoding", "identity")]), maxBodySize: 10_000) != nil)
        #expect(ResumableBody(cut([("ETag", "W/\"abc\""), ("Accept-Ranges", "bytes")]), maxBodySize: 10_000) == nil)
        #expect(ResumableBody(cut([("ETag", "abc"), ("Accept-Ranges", "bytes")]), maxBodySize: 10_000) == nil)
        #expect(
            ResumableBody(
                cut([("ETag", "\"abc\""), ("Accept-Ranges", "bytes"), ("Content-Length", "100")]), maxBodySize: 10_000)
                == nil)
        // Accept-Ranges is a list, any case.
        #expect(
            ResumableBody(cut([("ETag", "\"abc\""), ("Accept-Ranges", "none, Bytes")]), maxBodySize: 10_000) != nil)
    }

    @Test func continuationsJoinOnlyTheSameVersionAtTheOffset() throws {
        let kept = try #require(ResumableBody(cut(Self.strong), maxBodySize: 10_000))
        func part(_ range: String, _ count: Int, etag: String? = "\"abc\"", at: URL? = nil) -> DataResponse {
            var fields = [HTTPHeaderField("Content-Range", range)]
            if let etag { fields.append(HTTPHeaderField("ETag", etag)) }
            return DataResponse(
                url: at ?? url, statusCode: 206, headers: fields, body: Array(repeating: 9, count: count))
        }
        let whole = kept.continuation(with: part("bytes 100-999/1000", 900), maxBodySize: 10_000)
        guard case .completed(let response) = whole else {
            Issue.record("a matching continuation was not taken: \(String(describing: whole))")
            return
        }
        #expect(
            response.statusCode == 200
                && response.body == Array(repeating: 7, count: 100) + Array(repeating: 9, count: 900))
        #expect(
            response.headers.value(for: "Content-Length") == "1000"
                && response.headers.value(for: "Content-Range") == nil)
        // A cut continuation extends the bytes kept.
        let longer = try #require(kept.continued(by: part("bytes 100-999/1000", 400), maxBodySize: 10_000))
        #expect(longer.body.count == 500 && longer.rangeFields.first?.value == "bytes=500-")
        for (bad, why) in [
            (part("bytes 100-999/1000", 900, etag: "\"abd\""), "another tag"),
            (part("bytes 100-999/1000", 900, etag: nil), "no tag"),
            (part("bytes 101-999/1000", 899), "another offset"),
            (part("bytes 100-1099/1100", 1000), "another length"),
            (part("bytes 100-999/1000", 901), "more than its range"),
            (part("bytes 100-999/1000", 900, at: URL(string: "http://127.0.0.2:9/a.jpg")!), "another URL"),
        ] {
            #expect(kept.continued(by: bad, maxBodySize: 10_000) == nil, "\(why)")
        }
        // A body that declared no length (chunked) learns it from the continuation.
        let chunked = try #require(
            ResumableBody(cut([("ETag", "\"abc\""), ("Accept-Ranges", "bytes")]), maxBodySize: 10_000))
        #expect(chunked.total == nil)
        guard
            case .completed(let learned) = chunked.continuation(
                with: part("bytes 100-999/1000", 900), maxBodySize: 10_000)
        else {
            Issue.record("a chunked body's continuation was not taken")
            return
        }
        #expect(learned.body.count == 1000)
        #expect(
            chunked.continued(by: part("bytes 100-99999/100000", 900), maxBodySize: 10_000) == nil, "past the limit")
        // A complete length past the limit is not continued.
        #expect(kept.continued(by: part("bytes 100-999/1000", 900), maxBodySize: 999) == nil)
        // Anything but a 206 is not a continuation.
        var ok = part("bytes 100-999/1000", 900)
        ok.statusCode = 200
        #expect(kept.continuation(with: ok, maxBodySize: 10_000) == nil)
    }

    @Test func aCallersOwnRangeIsNotResumed() {
        let plain = DataRequest(url: url)
        #expect(ResumableBody.mayResume(plain))
        #expect(!ResumableBody.mayResume(DataRequest(url: url, headers: [HTTPHeaderField("range", "bytes=0-99")])))
    }
}
