#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TCP client on 127.0.0.1 for tests that must behave as no HTTP library would: say
/// nothing, trickle a request head, or read exactly what the server sends.
public final class RawSocket: Sendable {
    public let fd: Int32

    /// Connects (the kernel completes it from the listen backlog even while the server is not
    /// accepting); `receiveTimeout` bounds every read.
    public init(port: Int, receiveTimeout seconds: Int = 20) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawSocketError(code: errno) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw RawSocketError(code: code)
        }
    }

    deinit { close(fd) }

    /// Sends all of `text`; `false` when the server has closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    public enum ReadResult: Equatable, Sendable {
        case bytes([UInt8])
        /// The server closed the connection (end of file or a reset).
        case closed
        /// Nothing arrived within the receive timeout.
        case timedOut
    }

    /// One read of up to `limit` bytes.
    public func read(limit: Int = 4096) -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: limit)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, 0) }
        if n > 0 { return .bytes(Array(buffer[0..<n])) }
        if n == 0 || errno == ECONNRESET { return .closed }
        return .timedOut
    }

    /// Reads until `marker` has arrived (returning everything read), or `nil` if the connection
    /// ends or times out first.
    public func read(until marker: String) -> String? {
        var got: [UInt8] = []
        while !String(decoding: got, as: UTF8.self).contains(marker) {
            guard case .bytes(let b) = read() else { return nil }
            got += b
        }
        return String(decoding: got, as: UTF8.self)
    }
}

/// A socket call that failed, with its `errno`.
public struct RawSocketError: Error, Equatable {
    public var code: Int32
}
