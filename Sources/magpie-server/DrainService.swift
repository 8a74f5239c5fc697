import Logging
import MagpieServer
import ServiceLifecycle

/// Runs beside the HTTP server and is the first to hear of a graceful shutdown (SIGTERM): it
/// turns `/health` to 503 `draining` and waits `delay` while the server still accepts, so a
/// balancer that checks health stops sending before the listener closes; then the server stops
/// accepting and finishes what it has.
struct DrainService: Service {
    let service: ImageService
    let delay: Duration
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        service.beginDraining()
        logger.notice("draining: /health answers 503", metadata: ["delay": "\(delay)"])
        try? await Task.sleep(for: delay)
    }
}
