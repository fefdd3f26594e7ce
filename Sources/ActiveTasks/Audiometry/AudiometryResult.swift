import StudyInputs

/// The analysis of one frequency of one ear of a dB HL test.
///
/// Levels are dB HL unless the name says SPL (dB SPL re 20 µPa, as ResearchKit's calibration intends) or dBFS
/// (digital peak level re full scale); times are seconds.
public struct FrequencyThreshold: Sendable, Hashable, Encodable {
    /// Tone frequency, Hz.
    public var frequency: Double
    /// 1-based position of this frequency in the test (the default list tests 1000 Hz at positions 1 and 6).
    public var testOrder: Int
    /// The threshold ResearchKit recorded (`calculatedThreshold`), dB HL; nil when it wrote the no-threshold
    /// sentinel `DBL_MAX`.
    public var calculatedThreshold: Double?
    /// True when ResearchKit found no threshold (sentinel `DBL_MAX`, 1.7976931348623157e308).
    public var noThreshold: Bool
    /// The threshold re-derived from the units (``ThresholdRederivation``), dB HL.
    public var rederivedThreshold: Double?
    /// True when ``rederivedThreshold`` ≠ ``calculatedThreshold`` (either one nil counts as a value).
    public var thresholdsDiffer: Bool
    /// Where the units leave ResearchKit's staircase; nil when they follow it.
    public var rederivationDivergence: String?
    /// Number of presentations (units), including false alarms and clipped ones.
    public var presentations: Int
    /// Presentations tapped after tone onset.
    public var hits: Int
    /// Presentations that timed out.
    public var misses: Int
    /// Taps before tone onset (`userTapTimeStamp < startOfUnitTimeStamp + preStimulusDelay`).
    public var falseAlarms: Int
    /// Presentations refused because the tone would clip (tap and timeout both 0).
    public var clippedPresentations: Int
    /// Median of tap − tone onset over the hits, s.
    public var medianReactionTime: Double?
    /// Highest level actually played (clipped presentations excluded), dB HL.
    public var highestLevelPresented: Double?
    /// The threshold as sound pressure: RETSPL(f) + threshold, dB SPL (the nominal level ResearchKit aimed for).
    public var thresholdSPL: Double?
    /// Digital peak level of the threshold tone, dBFS: (R + HL) − (S + V(lookup volume) + 30).
    public var thresholdDBFS: Double?
    /// Level from which ResearchKit refuses tones as clipping at this frequency, dB HL (at the lookup volume).
    public var clippingCeiling: Double?
    /// The threshold actually delivered: ``calculatedThreshold`` + the volume offset, dB HL.
    public var volumeCorrectedThreshold: Double?
    /// ``volumeCorrectedThreshold`` as sound pressure, dB SPL.
    public var volumeCorrectedThresholdSPL: Double?
    /// Problems with this frequency (no threshold, not in the tables, divergence), one sentence each.
    public var issues: [String]

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(frequency, forKey: .frequency)
        try c.encode(testOrder, forKey: .testOrder)
        try c.encodeNullable(calculatedThreshold, forKey: .calculatedThreshold)
        try c.encode(noThreshold, forKey: .noThreshold)
        try c.encodeNullable(rederivedThreshold, forKey: .rederivedThreshold)
        try c.encode(thresholdsDiffer, forKey: .thresholdsDiffer)
        try c.encodeNullable(rederivationDivergence, forKey: .rederivationDivergence)
        try c.encode(presentations, forKey: .presentations)
        try c.encode(hits, forKey: .hits)
        try c.encode(misses, forKey: .misses)
        try c.encode(falseAlarms, forKey: .falseAlarms)
        try c.encode(clippedPresentations, forKey: .clippedPresentations)
        try c.encodeNullable(medianReactionTime, forKey: .medianReactionTime)
        try c.encodeNullable(highestLevelPresented, forKey: .highestLevelPresented)
        try c.encodeNullable(thresholdSPL, forKey: .thresholdSPL)
        try c.encodeNullable(thresholdDBFS, forKey: .thresholdDBFS)
        try c.encodeNullable(clippingCeiling, forKey: .clippingCeiling)
        try c.encodeNullable(volumeCorrectedThreshold, forKey: .volumeCorrectedThreshold)
        try c.encodeNullable(volumeCorrectedThresholdSPL, forKey: .volumeCorrectedThresholdSPL)
        try c.encode(issues, forKey: .issues)
    }

    enum Key: String, CodingKey {
        case frequency, testOrder, calculatedThreshold, noThreshold, rederivedThreshold, thresholdsDiffer
        case rederivationDivergence, presentations, hits, misses, falseAlarms, clippedPresentations
        case medianReactionTime, highestLevelPresented, thresholdSPL, thresholdDBFS, clippingCeiling
        case volumeCorrectedThreshold, volumeCorrectedThresholdSPL, issues
    }
}

/// The calibration used to convert one ear's levels.
public struct CalibrationInfo: Sendable, Hashable, Encodable {
    /// The ResearchKit release whose tables were used.
    public var researchKitVersion: ResearchKitVersion
    /// `retspl_`/`frequency_dBSPL_` suffix.
    public var tables: String
    /// `volume_curve_` name.
    public var volumeCurve: String
    /// `generic` (the single pre-3.2 table) or `device-specific` (3.2.0 and later).
    public var retspl: String
}

/// One ear of a dB HL test: one `ORKdBHLToneAudiometryResult`.
public struct EarAudiogram: Sendable, Hashable, Encodable {
    /// The step identifier, such as `dBHL1.tone.audiometry`.
    public var stepIdentifier: String
    /// The ear tested (from the samples' `channel`).
    public var ear: Ear
    /// `headphoneType` as recorded.
    public var headphoneType: String?
    /// `outputVolume` as recorded, 0…1.
    public var outputVolume: Double
    /// The calibration used; nil when none applies (see ``calibrationError``).
    public var calibration: CalibrationInfo?
    /// Why levels could not be converted to dB SPL (unknown headphone type, …).
    public var calibrationError: String?
    /// Volume handling and the volume defect; nil without calibration.
    public var volume: VolumeHandling?
    /// One entry per frequency sample, in test order.
    public var frequencies: [FrequencyThreshold]
    /// Averages from the recorded thresholds (the lower of two 1 kHz thresholds).
    public var summary: EarSummary
    /// The same averages from the volume-corrected thresholds; nil when the correction is 0 or unknown.
    public var volumeCorrectedSummary: EarSummary?
    /// Problems with the ear as a whole.
    public var issues: [String]

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(stepIdentifier, forKey: .stepIdentifier)
        try c.encode(ear, forKey: .ear)
        try c.encodeNullable(headphoneType, forKey: .headphoneType)
        try c.encode(outputVolume, forKey: .outputVolume)
        try c.encodeNullable(calibration, forKey: .calibration)
        try c.encodeNullable(calibrationError, forKey: .calibrationError)
        try c.encodeNullable(volume, forKey: .volume)
        try c.encode(frequencies, forKey: .frequencies)
        try c.encode(summary, forKey: .summary)
        try c.encodeNullable(volumeCorrectedSummary, forKey: .volumeCorrectedSummary)
        try c.encode(issues, forKey: .issues)
    }

    enum Key: String, CodingKey {
        case stepIdentifier, ear, headphoneType, outputVolume, calibration, calibrationError, volume, frequencies
        case summary, volumeCorrectedSummary, issues
    }

    /// One threshold per frequency for summaries and plots: the recorded one, the lower of two when a
    /// frequency was tested twice; `corrected` adds the volume offset.
    public func thresholds(corrected: Bool = false) -> [Double: Double] {
        var out: [Double: Double] = [:]
        for f in frequencies {
            guard let t = corrected ? f.volumeCorrectedThreshold : f.calculatedThreshold else { continue }
            out[f.frequency] = min(out[f.frequency] ?? t, t)
        }
        return out
    }

    /// Frequencies tested without any threshold, Hz.
    public var noResponseFrequencies: Set<Double> {
        let with = Set(thresholds().keys)
        return Set(frequencies.map(\.frequency)).subtracting(with)
    }
}

/// The analysis of a dB HL test: one ear (a single step result) or a whole task (both ears; the SPL-meter
/// step is listed in ``otherSteps`` and not analysed here).
public struct DBHLAudiometryResult: Sendable, Hashable, Encodable {
    /// The input file.
    public var source: String?
    /// The task identifier, for task results.
    public var taskIdentifier: String?
    /// The task run UUID, for task results.
    public var taskRunUUID: String?
    /// The release whose calibration was used (`--researchkit-version`).
    public var researchKitVersion: ResearchKitVersion
    /// One entry per dB HL step result, in document order.
    public var ears: [EarAudiogram]
    /// WHO grade, unilateral flag and asymmetry, from the recorded thresholds; nil unless there is one right and
    /// one left ear.
    public var bilateral: BilateralSummary?
    /// The same from the volume-corrected thresholds; nil when no ear needs a correction.
    public var volumeCorrectedBilateral: BilateralSummary?
    /// Other results of the task, not analysed here (e.g. `splMeter: ORKEnvironmentSPLMeterResult`).
    public var otherSteps: [String]
    /// Problems with the test as a whole.
    public var issues: [String]

    /// Explicit nulls, so every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("dBHLToneAudiometry", forKey: .kind)
        try c.encodeNullable(source, forKey: .source)
        try c.encodeNullable(taskIdentifier, forKey: .taskIdentifier)
        try c.encodeNullable(taskRunUUID, forKey: .taskRunUUID)
        try c.encode(researchKitVersion, forKey: .researchKitVersion)
        try c.encode(ears, forKey: .ears)
        try c.encodeNullable(bilateral, forKey: .bilateral)
        try c.encodeNullable(volumeCorrectedBilateral, forKey: .volumeCorrectedBilateral)
        try c.encode(otherSteps, forKey: .otherSteps)
        try c.encode(issues, forKey: .issues)
    }

    enum Key: String, CodingKey {
        case kind, source, taskIdentifier, taskRunUUID, researchKitVersion, ears, bilateral, volumeCorrectedBilateral
        case otherSteps, issues
    }
}

/// One presentation of the legacy (pre-dB HL) tone audiometry task. Its level is a digital amplitude, reported
/// in dBFS; it is **not** calibrated and never a dB HL value.
public struct LegacyTonePresentation: Sendable, Hashable, Encodable {
    /// Tone frequency, Hz.
    public var frequency: Double
    /// The ear the tone was played to.
    public var ear: Ear?
    /// The button pressed: `left`, `right` or `none` (no press before the timeout).
    public var response: String
    /// Whether the pressed button matched the ear; nil without a press.
    public var correctEar: Bool?
    /// Linear peak amplitude at the press or timeout, 0…1 of full scale.
    public var amplitude: Double
    /// 20·log10(amplitude), dBFS (digital level re full scale; not dB HL); nil for amplitude ≤ 0.
    public var amplitudeDBFS: Double?

    /// Explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(frequency, forKey: .frequency)
        try c.encodeNullable(ear, forKey: .ear)
        try c.encode(response, forKey: .response)
        try c.encodeNullable(correctEar, forKey: .correctEar)
        try c.encode(amplitude, forKey: .amplitude)
        try c.encodeNullable(amplitudeDBFS, forKey: .amplitudeDBFS)
    }

    enum Key: String, CodingKey { case frequency, ear, response, correctEar, amplitude, amplitudeDBFS }
}

/// The analysis of a legacy `ORKToneAudiometryResult` (or a MyDataHelps tone-audiometry row).
public struct LegacyToneAudiometryAnalysis: Sendable, Hashable, Encodable {
    /// The input file.
    public var source: String?
    /// The step identifier, when known.
    public var stepIdentifier: String?
    /// `outputVolume`, 0…1, when known.
    public var outputVolume: Double?
    /// The unit of every level here: always `dBFS`.
    public var levelUnit: String { "dBFS" }
    /// One entry per presentation, in recorded order.
    public var presentations: [LegacyTonePresentation]
    /// Problems and caveats.
    public var issues: [String]

    /// Explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("toneAudiometry", forKey: .kind)
        try c.encodeNullable(source, forKey: .source)
        try c.encodeNullable(stepIdentifier, forKey: .stepIdentifier)
        try c.encodeNullable(outputVolume, forKey: .outputVolume)
        try c.encode(levelUnit, forKey: .levelUnit)
        try c.encode(presentations, forKey: .presentations)
        try c.encode(issues, forKey: .issues)
    }

    enum Key: String, CodingKey { case kind, source, stepIdentifier, outputVolume, levelUnit, presentations, issues }
}

/// The result of analysing a tone-audiometry input: a dB HL test or a legacy one.
public enum AudiometryResult: Sendable, Hashable, Encodable {
    /// A dB HL test (one ear or a whole task).
    case dBHL(DBHLAudiometryResult)
    /// A legacy tone-audiometry result (levels in dBFS).
    case legacy(LegacyToneAudiometryAnalysis)

    /// Encodes the payload (each carries a `kind` key).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .dBHL(let r): try r.encode(to: encoder)
        case .legacy(let r): try r.encode(to: encoder)
        }
    }

    /// The dB HL payload, if any.
    public var dBHL: DBHLAudiometryResult? { if case .dBHL(let r) = self { r } else { nil } }
    /// The legacy payload, if any.
    public var legacy: LegacyToneAudiometryAnalysis? { if case .legacy(let r) = self { r } else { nil } }
}
