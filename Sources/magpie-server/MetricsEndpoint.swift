import Magpie
import MagpieServer
import Prometheus

#if canImport(Glibc)
    import Glibc
#endif

/// `/metrics` in Prometheus' text format: what the service records through swift-metrics, and,
/// sampled when scraped, the pipeline's and the downloader's counts and the process's memory.
struct MetricsEndpoint: Sendable {
    let registry: PrometheusCollectorRegistry
    let service: ImageService

    func render() -> [UInt8] {
        let m = service.manager.statistics
        let d = service.manager.downloader.statistics
        let samples: [(String, String, Int)] = [
            ("magpie_origin_downloads", "Downloads started (retries and redirects inside one).", d.downloads),
            ("magpie_origin_requests", "Requests sent to origins.", d.requests),
            ("magpie_origin_failures", "Downloads that failed.", d.failures),
            ("magpie_origin_bytes", "Body bytes received from origins.", d.bytes),
            ("magpie_origin_resumed_bytes", "Bytes of cut bodies that range requests continued.", d.resumedBytes),
            ("magpie_origin_not_modified", "Conditional requests answered 304.", d.notModified),
            ("magpie_coalesced_downloads", "Callers served by a download another started.", d.coalesced),
            ("magpie_coalesced_retrievals", "Callers served by a retrieval another started.", m.coalesced),
            ("magpie_cache_memory_hits", "Retrievals answered by the memory cache.", m.memoryHits),
            ("magpie_cache_disk_hits", "Retrievals answered by a disk entry.", m.diskHits + m.originalHits),
            ("magpie_processed", "Decodes and resizes run.", m.processed),
            ("magpie_downloads_in_flight", "Downloads running now.", service.manager.downloader.downloadsInFlight),
            ("magpie_process_resident_bytes", "Resident memory of the process.", Self.residentBytes()),
        ]
        for (name, help, value) in samples {
            let descriptor = MetricNameDescriptor(
                namespace: "magpie", metricName: String(name.dropFirst("magpie_".count)), unitName: "", helpText: help)
            registry.makeGauge(descriptor: descriptor).set(Double(value))
        }
        return registry.emitToBuffer()
    }

    /// From `/proc/self/statm` (pages × page size); 0 where it cannot be read.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return 0 }
        let fields = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
