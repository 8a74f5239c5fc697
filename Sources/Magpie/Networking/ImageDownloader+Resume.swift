import Logging

/// Resuming a cut body: what one download carries from attempt to attempt, and how the answer
/// to a range request is judged (``ResumableBody`` holds the rules).
extension ImageDownloader {
    /// What a download's attempts share.
    struct AttemptState: Sendable {
        /// Whether the caller's request may be resumed (it asks no range of its own).
        let resumable: Bool
        var redirects = 0
        var lastStatus = 0
        /// The body a cut attempt left, for the next one to continue.
        var resume: ResumableBody?
        /// Range requests answered with the continuation asked for, and the bytes they did not
        /// have to send again (each one's offset).
        var resumes = 0
        var resumedBytes = 0

        init(resumable: Bool) { self.resumable = resumable }

        /// Counts a continuation of `kept`.
        mutating func counted(_ kept: ResumableBody) {
            resumes += 1
            resumedBytes += kept.body.count
        }

        /// Keeps what a cut answer brought: a continuing `206` extends the body kept, an answer
        /// that can be resumed starts a new one, and anything else leaves nothing to resume.
        mutating func keep(_ partial: DataResponse, ranged: Bool, maxBodySize: Int) {
            guard resumable else { return }
            if ranged, partial.statusCode == 206, let kept = resume {
                resume = kept.continued(by: partial, maxBodySize: maxBodySize)
                if resume != nil { counted(kept) }
            } else {
                resume = ResumableBody(partial, maxBodySize: maxBodySize)
            }
        }
    }

    /// What to do with the answer to a range request.
    enum RangedAnswer {
        /// Go on with this response (the body completed into a `200`, or an answer to judge as any other).
        case use(DataResponse)
        /// The kept bytes were dropped: ask again without a range.
        case askWhole
    }

    /// Judges `response`, the answer to a request that asked for the rest of `state.resume`.
    func judgeContinuation(_ response: DataResponse, state: inout AttemptState, maxBodySize: Int) -> RangedAnswer {
        guard let kept = state.resume else { return .use(response) }
        if response.statusCode == 416 {
            // The range is past the end: the file is not the one the bytes came from.
            state.resume = nil
            logger.notice("a resumed download's range was refused: starting over", metadata: ["url": "\(kept.url)"])
            return .askWhole
        }
        switch kept.continuation(with: response, maxBodySize: maxBodySize) {
        case nil:
            // A 200 is the file whole (changed, or the origin ignores ranges); other answers
            // (a redirect, a 5xx) leave the bytes for a later attempt.
            if (200..<300).contains(response.statusCode) { state.resume = nil }
            return .use(response)
        case .completed(let whole):
            state.resume = nil
            state.counted(kept)
            return .use(whole)
        case .inconsistent:
            state.resume = nil
            logger.notice(
                "a resumed download's answer did not continue the body it had (range, length or validator): starting over",
                metadata: ["url": "\(kept.url)"])
            return .askWhole
        }
    }

    /// Removes the conditional fields (`If-None-Match`, `If-Modified-Since`).
    static func dropConditions(_ request: inout DataRequest) {
        request.headers.removeAll {
            HTTPHeaderField.namesMatch($0.name, "If-None-Match")
                || HTTPHeaderField.namesMatch($0.name, "If-Modified-Since")
        }
    }
}
