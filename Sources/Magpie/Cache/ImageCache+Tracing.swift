import Tracing

/// Cache reads in traces: a `magpie.cache.read` span per disk read (memory reads, a lookup under
/// a lock, have none), saying whether it found an entry; a no-op until a tracer is bootstrapped.
extension ImageCache {
    func tracedRead<T>(_ read: () async throws -> T?) async throws -> T? {
        try await withSpan("magpie.cache.read") { span in
            span.attributes["magpie.cache.layer"] = "disk"
            let found = try await read()
            span.attributes["magpie.cache.hit"] = found != nil
            return found
        }
    }
}
