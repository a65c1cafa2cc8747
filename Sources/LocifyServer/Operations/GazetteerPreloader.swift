import Foundation
import LocifyCore
import Vapor

/// Prepares the offline geocoder (gazetteer, address formats, subdivision names) at low priority once the
/// server has booted: start-up does not wait for it, neither does the first request that geocodes, and
/// database work (on `threadPool`) never queues behind it. On a thread of its own rather than the CPU
/// pool, whose threads a shutdown waits for: a server stopped while it loads (over 20 s on a busy 2-core
/// machine) stops at once, leaving the load unfinished.
struct GazetteerPreloader: LifecycleHandler {
    func didBoot(_ application: Application) throws {
        let logger = application.logger
        Thread.detachNewThread {
            NIOThreadPool.yieldToRequests()
            let started = DispatchTime.now().uptimeNanoseconds
            let places = BundledGeocoder.prepare()
            #if os(Linux)
                // Loading read a 14 MB file and built its indexes through temporary arrays; glibc keeps
                // the freed pages for later unless asked to hand them back (5 MB of an idle 81 MB,
                // Benchmarks/idle-memory.sh).
                _ = releaseFreedMemory(0)
            #endif
            let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            logger.info("Gazetteer ready: \(places) places in \(milliseconds) ms")
        }
    }
}

#if os(Linux)
    /// glibc's `malloc_trim`, which the Glibc module does not export.
    @_silgen_name("malloc_trim")
    private func releaseFreedMemory(_ padding: Int) -> Int32
#endif
