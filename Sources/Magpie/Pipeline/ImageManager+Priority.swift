extension ImageManager {
    /// Raises a retrieval running now to `priority` (never lowers it), and so the download under
    /// it, which then goes ahead of those of lower priority still waiting for a slot: a prefetch
    /// a user now waits for (Nuke's settable `ImageTask.priority`). The retrieval is the one
    /// `source` and `options` name, as ``retrieveImage(with:options:progress:)``,
    /// ``retrieveData(with:options:progress:)`` or an ``ImagePrefetcher`` with those options
    /// runs it (a request's own priority is not part of what names it). A caller that joins the
    /// retrieval at a higher priority raises it the same way.
    /// - Returns: whether such a retrieval was running.
    @discardableResult
    public func raisePriority(of source: Source, options: ImageOptions? = nil, to priority: TaskPriority) -> Bool {
        let options = options ?? defaultOptions
        let key = cacheKey(for: source, options: options)
        var raised = flights.raise(FlightKey(key: key, options: options), to: priority)
        // The bytes' retrievals wait for their disk writes, and a prefetcher's have a key of their own.
        var bytes = options
        bytes.cache.waitForCache = true
        for flight in [Self.dataFlightKey(key, prefetching: false), Self.dataFlightKey(key, prefetching: true)] {
            raised = dataFlights.raise(FlightKey(key: flight, options: bytes), to: priority) || raised
        }
        return raised
    }

    /// The name of a retrieval of bytes for `key` among those running: a prefetcher's has its
    /// own, since it revalidates now what another caller would be served stale.
    static func dataFlightKey(_ key: String, prefetching: Bool) -> String {
        prefetching ? key + "\u{0}prefetch" : key
    }
}

extension ImagePrefetcher {
    /// Raises this prefetcher's retrieval of `source`, if it is running, to `priority` (see
    /// ``ImageManager/raisePriority(of:options:to:)``); false when it is not running (not
    /// started yet, or done).
    @discardableResult
    public func raisePriority(of source: Source, to priority: TaskPriority) -> Bool {
        manager.raisePriority(of: source, options: options, to: priority)
    }
}
