import Foundation
import SensorSignal

/// The quality flags of one result: the `flag_*` columns of every batch CSV row, so that a study can filter on
/// quality instead of reading free-text warnings (thresholds per kind in `docs/batch.md`).
///
/// Each flag is `true`, `false`, or nil (blank in the CSV) when the kind does not judge it.
public struct QualityFlags: Sendable, Hashable {
    /// Shorter than the analysis needs (`flag_short`).
    public var short: Bool?
    /// Sampled too slowly or too irregularly (`flag_rate`).
    public var rate: Bool?
    /// Nothing of what the task measures happened (`flag_still`).
    public var still: Bool?
    /// The input had to be repaired (reordered, restamped, duplicates dropped: `flag_repaired`).
    public var repaired: Bool?
    /// A headline measure lies outside its physiologically plausible range (`flag_implausible`).
    public var implausible: Bool?

    /// No flag judged.
    public init(
        short: Bool? = nil, rate: Bool? = nil, still: Bool? = nil, repaired: Bool? = nil, implausible: Bool? = nil
    ) {
        self.short = short
        self.rate = rate
        self.still = still
        self.repaired = repaired
        self.implausible = implausible
    }

    /// The CSV columns, in order.
    public static let columns = ["flag_short", "flag_rate", "flag_still", "flag_repaired", "flag_implausible"]

    /// The cells of ``columns``: `true`, `false`, or blank when not judged.
    public var cells: [String] {
        [short, rate, still, repaired, implausible].map { $0.map { $0 ? "true" : "false" } ?? "" }
    }

    /// Whether a sampled recording is sampled too slowly or too irregularly: below `minimumRate` (Hz), or more
    /// than 1 % of its intervals outliers (``QualityReport/Sampling/intervalOutliers``); nil when neither is known.
    public static func rateFlag(rate: Double?, hygiene: QualityReport?, minimumRate: Double) -> Bool? {
        let outliers = hygiene?.sampling.map { sampling -> Bool in
            let intervals = max((hygiene?.outputCount ?? 0) - 1, 1)
            return Double(sampling.intervalOutliers) > 0.01 * Double(intervals)
        }
        guard let rate, rate.isFinite else { return outliers }
        return rate < minimumRate || (outliers ?? false)
    }

    /// Whether `value` lies outside `range` (nil when there is no value).
    public static func outside(_ value: Double?, _ range: ClosedRange<Double>) -> Bool? {
        guard let value, value.isFinite else { return nil }
        return !range.contains(value)
    }
}

extension TaskAnalysis {
    /// The flags of `result` when it is this analysis's result type; no flag otherwise.
    public static func qualityFlags(ofAny result: any RenderableResult) -> QualityFlags {
        guard let typed = result as? Result else { return QualityFlags() }
        return qualityFlags(of: typed)
    }
}
