import ActiveTasks
import Foundation
import SensorSignal
import StudyBatch
import StudyInputs
import StudyOutputs
import Synchronization

/// A one-line progress bar on standard error, redrawn at most 10 times a second.
///
/// It has two phases:
///
/// - while records are still being found: `found 1234 of ~9800 records… 456 done, 3 failed, 120 records/s ETA ~1:18`,
///   the total and the ETA estimated from a census of the inputs' files (``RecordCensus``; without it, before the
///   census is done: `found 1234 records… 456 done, 3 failed, 120 records/s`);
/// - once every record is found: `456/1234 [=====     ]  37% 120 records/s ETA 0:10, 3 failed`.
///
/// Drawn only when standard error is a terminal (``Terminal/standardErrorIsInteractive``); the failure count is
/// red unless `NO_COLOR` is set.
final class BatchProgressBar: Sendable {
    private struct State {
        var started = Date()
        var lastDraw = Date.distantPast
        var firstDone: Int?
        var drawn = false
        var discoveryComplete = false
    }
    private let state = Mutex(State())

    /// True when standard error is a terminal that understands carriage returns (not `TERM=dumb`).
    static var stderrIsTerminal: Bool { Terminal.standardErrorIsInteractive }

    /// Redraws the bar (throttled; always draws when discovery completes and at the last record).
    func update(_ progress: BatchRunner.ProgressState) {
        let line: String? = state.withLock { s in
            let now = Date()
            if s.firstDone == nil {
                s.firstDone = progress.done
                s.started = now
            }
            let phaseChanged = progress.discoveryComplete != s.discoveryComplete
            s.discoveryComplete = progress.discoveryComplete
            let last = progress.discoveryComplete && progress.done == progress.found
            guard phaseChanged || last || now.timeIntervalSince(s.lastDraw) >= 0.1 else { return nil }
            s.lastDraw = now
            s.drawn = true
            let elapsed = now.timeIntervalSince(s.started)
            let rate = elapsed > 0 ? Double(progress.done - (s.firstDone ?? 0)) / elapsed : 0
            return Self.line(progress, rate: rate)
        }
        if let line { try? FileHandle.standardError.write(contentsOf: Data(line.utf8)) }
    }

    /// The text of one redraw (carriage return and erase-line first), for a run at `rate` records per second.
    static func line(_ p: BatchRunner.ProgressState, rate: Double, color: Bool = Terminal.standardErrorHasColor)
        -> String
    {
        var failures = ""
        if p.failed > 0 {
            let text = "\(p.failed) failed"
            failures = color ? "\u{1B}[\(Terminal.Color.red.rawValue)m\(text)\u{1B}[0m" : text
        }
        let rateText = String(format: "%.0f records/s", rate)
        guard p.discoveryComplete else {
            guard let estimate = p.estimatedTotal else {
                return "\r\u{1B}[Kfound \(p.found) records… \(p.done) done" + (failures.isEmpty ? "" : ", " + failures)
                    + ", " + rateText
            }
            return "\r\u{1B}[Kfound \(p.found) of ~\(estimate) records… \(p.done) done"
                + (failures.isEmpty ? "" : ", " + failures) + ", " + rateText + " ETA ~"
                + eta(remaining: estimate - p.done, rate: rate)
        }
        let fraction = p.found > 0 ? Double(p.done) / Double(p.found) : 1
        let width = 30
        let filled = Int.clamped(fraction * Double(width), to: 0...width)
        let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
        return String(format: "\r\u{1B}[K%d/%d [%@] %3.0f%% ", p.done, p.found, bar, (fraction * 100).rounded(.down))
            + rateText + " ETA " + eta(remaining: p.found - p.done, rate: rate)
            + (failures.isEmpty ? "" : ", " + failures)
    }

    /// `m:ss` for `remaining` records at `rate` records per second, rounded up (0:00 only at the end); `--:--`
    /// before there is a rate.
    static func eta(remaining: Int, rate: Double) -> String {
        guard remaining > 0 else { return "0:00" }
        guard rate > 0 else { return "--:--" }
        let seconds = Int.clamped((Double(remaining) / rate).rounded(.up), to: 0...359_999)
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    /// Clears the bar's line so that a diagnostic can be printed on a line of its own (the next update redraws).
    func clearLine() {
        if state.withLock({ $0.drawn }) { try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8)) }
    }

    /// Ends the bar's line.
    func finish() {
        if state.withLock({ $0.drawn }) { try? FileHandle.standardError.write(contentsOf: Data("\n".utf8)) }
    }
}
