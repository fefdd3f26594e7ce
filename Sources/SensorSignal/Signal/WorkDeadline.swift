import Dispatch

/// A time limit on the work of one task (one batch record), checked where the work has no natural bound: the
/// blocks of an audio stream, whose length a small file does not bound (a 487 KB FLAC of silence decodes to hours).
///
/// The limit is task-local: ``withLimit(seconds:_:)`` sets it for everything its body calls, and ``check()`` throws
/// ``Exceeded`` once it has passed. Code with no limit set pays one task-local read per check.
public enum WorkDeadline {
    /// The deadline (`DispatchTime` uptime, nanoseconds) and the limit it came from (seconds); nil for none.
    @TaskLocal public static var current: (deadline: UInt64, seconds: Double)?

    /// The limit passed: the work stops with this error, which names the limit.
    public struct Exceeded: Error, Sendable, CustomStringConvertible {
        /// The limit, seconds.
        public var seconds: Double
        /// `analysis stopped after 600 s: over the time limit of one record (--record-timeout)`.
        public var description: String {
            let shown =
                seconds >= 10
                ? String(Int.clamped(seconds.rounded(), to: 0...Int.max))
                : String(Double(Int.clamped(seconds * 1000, to: 0...10_000)) / 1000)
            return "analysis stopped after \(shown) s: over the time limit of one record (--record-timeout)"
        }
    }

    /// Runs `body` with a limit of `seconds` (none when nil or not positive).
    public static func withLimit<T>(seconds: Double?, _ body: () throws -> T) rethrows -> T {
        guard let seconds, seconds > 0, seconds.isFinite else { return try body() }
        let nanoseconds = UInt64(clamping: Int.clamped(seconds * 1e9, to: 0...(Int.max / 2)))
        let deadline = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        return try $current.withValue((deadline, seconds)) { try body() }
    }

    /// Throws ``Exceeded`` when the current limit has passed.
    public static func check() throws(Exceeded) {
        guard let current else { return }
        if DispatchTime.now().uptimeNanoseconds > current.deadline { throw Exceeded(seconds: current.seconds) }
    }
}
