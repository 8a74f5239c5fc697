import MagpieServer
import Vapor

extension Application {
    /// Magpie's image service on this application: `app.images.mount(service, at: "/img")`.
    public var images: Images { Images(application: self) }

    public struct Images: Sendable {
        let application: Application

        /// Routes GET and HEAD beneath `prefix` to `service` (see ``ImageServiceRoutes``), and stops
        /// the service's cache and downloader when the application shuts down.
        public func mount(_ service: ImageService, at prefix: String) throws {
            try application.register(collection: ImageServiceRoutes(service, at: prefix))
            application.lifecycle.use(ShutdownHandler(service: service))
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
