import Foundation
import SensorSignal
import StudyInputs

/// A simulated participant in a dB HL test: decides, per presentation, whether to tap early (a false alarm) and
/// whether the tone is heard.
public protocol AudiometryListener {
    /// Whether the participant taps during the silent gap before this tone (a false alarm).
    mutating func falseAlarm(before stimulus: DBHLStaircase.Stimulus) -> Bool
    /// Whether the participant hears a tone of `stimulus.frequency` actually presented at `deliveredLevel` dB HL
    /// (the nominal level plus any volume-defect offset).
    mutating func hears(_ stimulus: DBHLStaircase.Stimulus, deliveredLevel: Double) -> Bool
}

/// A true audiogram: the hearing threshold at each frequency, dB HL; nil = no response at any level.
public struct TrueAudiogram: Sendable, Hashable {
    /// Threshold per frequency (Hz), dB HL; a nil value means the participant never hears that frequency.
    public var thresholds: [Double: Double?]

    /// Creates an audiogram.
    public init(thresholds: [Double: Double?]) { self.thresholds = thresholds }

    /// The threshold at `frequency`, dB HL: `.some(nil)` for "never hears", nil when the frequency is absent.
    public func threshold(at frequency: Double) -> Double?? { thresholds[frequency] }
}

/// The ideal listener of ResearchKit's conformance test: hears a tone iff its level ≥ the true threshold, never
/// taps early. Frequencies missing from the audiogram are never heard.
public struct DeterministicListener: AudiometryListener, Sendable {
    /// The true thresholds.
    public var audiogram: TrueAudiogram

    /// Creates the listener.
    public init(audiogram: TrueAudiogram) { self.audiogram = audiogram }

    /// Never.
    public mutating func falseAlarm(before stimulus: DBHLStaircase.Stimulus) -> Bool { false }

    /// `deliveredLevel ≥ threshold`.
    public mutating func hears(_ stimulus: DBHLStaircase.Stimulus, deliveredLevel: Double) -> Bool {
        guard let t = audiogram.threshold(at: stimulus.frequency), let t else { return false }
        return deliveredLevel >= t
    }
}

/// A noisy listener: detection follows a logistic psychometric function centred on the true threshold,
///
///     P(heard | L) = 1 / (1 + exp(−slope · (L − threshold)))        (L, threshold in dB HL; slope in 1/dB)
///
/// so P = 0.5 at threshold (the ANSI S3.21 "50 % of presentations" definition), and with probability
/// `falseAlarmRate` per presentation the participant taps before tone onset. Seeded (SplitMix64): equal seeds
/// give equal runs.
public struct PsychometricListener: AudiometryListener, Sendable {
    /// The true thresholds.
    public var audiogram: TrueAudiogram
    /// Logistic slope, 1/dB (0.5 ⇒ 10 %→90 % over 8.8 dB).
    public var slope: Double
    /// Probability of a tap before onset per presentation, 0…1.
    public var falseAlarmRate: Double
    private var rng: SplitMix64

    /// Creates the listener.
    public init(audiogram: TrueAudiogram, slope: Double = 0.5, falseAlarmRate: Double = 0, seed: UInt64 = 1) {
        self.audiogram = audiogram
        self.slope = slope
        self.falseAlarmRate = falseAlarmRate
        rng = SplitMix64(seed: seed)
    }

    /// A uniform draw in [0, 1).
    private mutating func uniform() -> Double { Double(rng.next() >> 11) / 9_007_199_254_740_992 }

    /// True with probability `falseAlarmRate`.
    public mutating func falseAlarm(before stimulus: DBHLStaircase.Stimulus) -> Bool {
        uniform() < falseAlarmRate
    }

    /// True with the logistic probability at the delivered level.
    public mutating func hears(_ stimulus: DBHLStaircase.Stimulus, deliveredLevel: Double) -> Bool {
        let u = uniform()
        guard let t = audiogram.threshold(at: stimulus.frequency), let t else { return false }
        return u < 1 / (1 + exp(-slope * (deliveredLevel - t)))
    }
}
