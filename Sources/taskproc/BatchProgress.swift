import Foundation
import SensorSignal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-line progress bar on standard error: records done/total, rate and ETA, redrawn at most 10 times a second.
final class BatchProgressBar: Sendable {
    private struct State {
        var started = Date()
        var lastDraw = Date.distantPast
        var firstDone: Int?
        var drawn = false
    }
    private let state = Mutex(State())

    /// True when standard error is a terminal that understands carriage returns (not `TERM=dumb`).
    static var stderrIsTerminal: Bool {
        isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Redraws the bar (throttled; always draws the last record).
    func update(done: Int, total: Int) {
        let line: String? = state.withLock { s in
            let now = Date()
            if s.firstDone == nil {
                s.firstDone = done
                s.started = now
            }
            guard done == total || now.timeIntervalSince(s.lastDraw) >= 0.1 else { return nil }
            s.lastDraw = now
            s.drawn = true
            let elapsed = now.timeIntervalSince(s.started)
            let rate = elapsed > 0 ? Double(done - (s.firstDone ?? 0)) / elapsed : 0
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            var eta = "--:--"
            if rate > 0 {
                let seconds = Int.clamped(Double(total - done) / rate, to: 0...359_999)
                eta = String(format: "%d:%02d", seconds / 60, seconds % 60)
            }
            return String(
                format: "\r\u{1B}[K%d/%d [%@] %3.0f%% %.0f records/s ETA %@", done, total, bar, fraction * 100, rate,
                eta)
        }
        if let line { try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }
    }

    /// Ends the bar's line.
    func finish() {
        if state.withLock({ $0.drawn }) { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
    }
}
