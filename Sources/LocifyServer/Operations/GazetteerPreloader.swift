import LocifyCore
import Vapor

/// Loads the bundled gazetteer and address formats on the thread pool once the server has booted:
/// start-up does not wait for them, and neither does the first request that geocodes.
struct GazetteerPreloader: LifecycleHandler {
    func didBoot(_ application: Application) throws {
        let logger = application.logger
        application.threadPool.submit { state in
            guard state == .active else { return }
            let started = DispatchTime.now().uptimeNanoseconds
            let places = Gazetteer.bundled.places.count
            _ = AddressFormats.bundled
            let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            logger.debug("Gazetteer ready: \(places) places in \(milliseconds) ms")
        }
    }
}
