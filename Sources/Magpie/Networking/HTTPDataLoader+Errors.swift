import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPDataLoader {
    /// What the client's `error` means for `request`, as one ``ImageDownloadError``: timeouts,
    /// shutdown, URLs the client refused, and connections that could not be made, named by host
    /// and port with the reason in a few words (`connection refused`, `host unreachable`).
    static func failure(_ error: any Error, request: DataRequest) -> ImageDownloadError {
        if let error = error as? ImageDownloadError { return error }
        // A gzip or deflate body: inflated past the limit, cut before its stream ended, or corrupt.
        if let error = error as? NIOHTTPDecompression.DecompressionError {
            if error == .limit { return .bodyTooLarge(limit: request.maxBodySize, declared: nil) }
            return .undecodable("the body's content encoding does not inflate (\(error))")
        }
        if let error = error as? NIOHTTPDecompression.ExtraDecompressionError {
            if error == .truncatedData {
                return .connectionFailed("\(request.url.host ?? ""): the encoded body ended before its stream did")
            }
            return .undecodable("the body's content encoding does not inflate (\(error))")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .tlsHandshakeTimeout,
                .getConnectionFromPoolTimeout:
                return .timedOut(request.timeout)
            case .alreadyShutdown: return .shutDown
            case .invalidURL, .emptyHost, .emptyScheme: return .invalidURL(request.url.absoluteString)
            default: break
            }
        }
        let host = request.url.host ?? ""
        let port = request.url.port ?? (request.url.scheme?.lowercased() == "https" ? 443 : 80)
        if let code = connectErrno(error) {
            if code == ECONNREFUSED { return .connectionRefused(host: host, port: port) }
            let reason: String
            switch code {
            case ECONNRESET: reason = "connection reset"
            case EHOSTUNREACH: reason = "host unreachable"
            case ENETUNREACH: reason = "network unreachable"
            case ETIMEDOUT: reason = "connection timed out"
            default: reason = String(cString: strerror(code)).lowercased()
            }
            return .connectionFailed("\(host):\(port): \(reason)")
        }
        return .connectionFailed(String(describing: error))
    }

    /// The `errno` of a connect that failed, from the error the client passes on.
    private static func connectErrno(_ error: any Error) -> Int32? {
        if let io = error as? IOError { return io.errnoCode }
        if let many = error as? NIOConnectionError {
            for failure in many.connectionErrors {
                if let io = failure.error as? IOError { return io.errnoCode }
            }
        }
        return nil
    }
}
