import Foundation

/// Spaces requests to a service: each call to `waitForTurn()` returns no sooner than
/// `minimumInterval` seconds after the previous one was let through.
///
/// Share one limiter between every source that talks to the same server, so that two
/// sources cannot together exceed the server's limit. Turns are handed out in the order the
/// callers arrive; a caller's slot is reserved before it sleeps, so a second caller that
/// arrives meanwhile waits behind it rather than beside it.
public actor RateLimiter {
    /// Seconds on a clock that never goes backwards (the origin does not matter).
    public typealias Clock = @Sendable () -> TimeInterval
    /// Waits the given number of seconds.
    public typealias Sleep = @Sendable (TimeInterval) async throws -> Void

    /// The shortest time between two requests, in seconds; 0 lets every request through at once.
    public nonisolated let minimumInterval: TimeInterval
    private let now: Clock
    private let sleep: Sleep
    /// When the next request may go, on `now`'s clock; nil before the first request.
    private var nextSlot: TimeInterval?

    /// - Parameters:
    ///   - minimumInterval: seconds between requests (negative values count as 0).
    ///   - now: the clock; defaults to the system's monotonic uptime. Tests hand in a fake.
    ///   - sleep: how to wait; defaults to `Task.sleep`, which throws `CancellationError` when
    ///     the task is cancelled. Tests hand in one that advances their fake clock.
    public init(minimumInterval: TimeInterval,
                now: @escaping Clock = RateLimiter.monotonicSeconds,
                sleep: @escaping Sleep = RateLimiter.taskSleep) {
        self.minimumInterval = max(0, minimumInterval)
        self.now = now
        self.sleep = sleep
    }

    /// A limiter that never waits, for a server on this machine or the local network.
    public static func unlimited() -> RateLimiter { RateLimiter(minimumInterval: 0) }

    /// Returns when the caller may send its request. Cost: one clock reading, and at most one
    /// sleep of up to `minimumInterval` seconds per caller waiting ahead.
    /// - Throws: whatever `sleep` throws (`CancellationError` for the default when cancelled).
    public func waitForTurn() async throws {
        let current = now()
        let slot = max(current, nextSlot ?? current)
        // Reserve before sleeping: the actor admits other callers while this one is suspended.
        nextSlot = slot + minimumInterval
        let wait = slot - current
        if wait > 0 { try await sleep(wait) }
    }

    /// Seconds since boot on the monotonic clock.
    public static let monotonicSeconds: Clock = {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    /// `Task.sleep` for the given seconds.
    public static let taskSleep: Sleep = { seconds in
        try await Task.sleep(nanoseconds: UInt64((seconds * 1e9).rounded(.up)))
    }
}
