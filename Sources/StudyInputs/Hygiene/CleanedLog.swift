public import SensorSignal

/// A recorder log after timestamp hygiene, with the report of what was found and every change made.
///
/// Produced by ``AccelerometerLog/cleaned(options:)`` and ``DeviceMotionLog/cleaned(options:)``: the log's columns
/// are put in time order (sorted, or kept in file order and re-stamped per recorder batch), de-duplicated and
/// stripped of rows without a finite time, all in lockstep, and nothing else
/// is changed. ``report`` lists each repair (``QualityReport/repairs``) and each finding left in place
/// (``QualityReport/warnings``).
public struct CleanedLog<Log: Sendable & Hashable>: Sendable, Hashable {
    /// The cleaned log: timestamps finite and strictly increasing, every column in the same row order.
    public var log: Log
    /// What was measured (rate, jitter, gaps, units) and what was repaired.
    public var report: QualityReport

    /// Pairs a cleaned log with its report.
    ///
    /// - Parameters:
    ///   - log: The cleaned log.
    ///   - report: Its quality report.
    public init(log: Log, report: QualityReport) {
        self.log = log
        self.report = report
    }
}

extension QualityReport {
    /// Records `detection` and warns when it contradicts the unit the log declares, or cannot confirm it.
    ///
    /// The data is never rescaled: a wrong label is for the caller to fix, explicitly.
    mutating func noteUnits(_ detection: UnitDetection, declared: AccelerationUnit, label: String) {
        units = detection
        switch detection.unit {
        case .unknown:
            warnings.append(
                "\(label) could not be confirmed as \(declared.rawValue): \(detection.summary); data left unchanged")
        case let detected where detected.rawValue != declared.rawValue:
            warnings.append(
                "\(label) is labelled \(declared.rawValue) but \(detection.summary); data left unchanged "
                    + "(relabel or convert explicitly if the label is wrong)")
        default:
            break
        }
    }
}

extension CleanedLog where Log == AccelerometerLog {
    /// The unit the analyses read the acceleration in: the log's label, unless the median |a| (``QualityReport/units``)
    /// says the other unit, which then wins (and the caller says so in a warning).
    public var analysedUnit: AccelerationUnit {
        if log.unitIsStated { return log.unit }
        if let detected = report.units?.unit, detected != .unknown, detected.rawValue != log.unit.rawValue {
            return detected == .g ? .g : .metersPerSecondSquared
        }
        return log.unit
    }
}
