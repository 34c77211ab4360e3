import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM, so `roadbook serve` stops its server and ends with status 0
/// instead of being ended by the signal. A second signal ends the process as the signal would.
public enum StopSignals {
    /// Returns when SIGINT or SIGTERM arrives; returns the signal's name.
    public static func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let once = Once()
            var sources: [any DispatchSourceSignal] = []
            for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                // The signal goes to the dispatch source only, not to its former handler.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    guard once.first() else {
                        signal(number, SIG_DFL)
                        raise(number)
                        return
                    }
                    continuation.resume(returning: name)
                }
                source.resume()
                sources.append(source)
            }
            Kept.sources = sources
        }
    }

    /// The dispatch sources live until the process ends.
    private enum Kept { nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = [] }

    private final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        func first() -> Bool { lock.withLock { defer { done = true }; return !done } }
    }
}
