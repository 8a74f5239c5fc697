import MagpieServer
import NIOCore
import Vapor

extension Application {
    /// Magpie's image service on this application: `app.images.mount(service, at: "/img")`.
    public var images: Images { Images(application: self) }

    public struct Images: Sendable {
        let application: Application

        /// Routes GET and HEAD beneath `prefix` to `service` (see ``ImageServiceRoutes``), and stops
        /// the service's cache and downloader when the application shuts down.
        ///
        /// - Parameter idleTimeout: where the application's HTTP server closes no idle connection
        ///   (Vapor's default), it closes them after this (30 s, as `magpie-server`), so clients
        ///   that connect and send nothing cannot hold connections for ever; `nil` leaves the
        ///   server as it is configured. A server with an idle timeout of its own keeps it.
        public func mount(_ service: ImageService, at prefix: String, idleTimeout: TimeAmount? = .seconds(30))
            throws
        {
            try application.register(collection: ImageServiceRoutes(service, at: prefix))
            application.lifecycle.use(ShutdownHandler(service: service))
            if let idleTimeout, application.http.server.configuration.idleTimeout == nil {
                application.http.server.configuration.idleTimeout = idleTimeout
            }
        }
    }

    /// Stops the service's cache (its index written) and downloader with the application.
    struct ShutdownHandler: LifecycleHandler {
        let service: ImageService

        func shutdownAsync(_ application: Application) async {
            await service.manager.cache.shutdown()
            try? await service.manager.downloader.shutdown()
        }
    }
}
