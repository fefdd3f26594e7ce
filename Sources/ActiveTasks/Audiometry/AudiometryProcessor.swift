import Foundation
import SensorSignal
import StudyInputs

/// Options of the tone-audiometry analysis.
public struct AudiometryAnalysisOptions: Sendable, Hashable, Codable {
    /// The release whose calibration tables and volume handling produced the data [current].
    public var researchKitVersion = ResearchKitVersion.current
    /// The staircase parameters used to re-derive thresholds [ResearchKit's defaults].
    public var parameters = DBHLStaircaseParameters()

    /// The defaults.
    public init() {}
}

/// Turns tone-audiometry inputs into ``AudiometryResult``s: per ear and frequency the recorded and re-derived
/// thresholds, presentation counts, dB SPL via the headphone's calibration, the volume-defect correction; per
/// ear the pure-tone averages; per test the WHO 2021 grade, unilateral flag and asymmetry rules.
///
/// Pure and stateless: no printing, no file access; safe from any task.
public enum AudiometryProcessor {
    /// Analyses every tone-audiometry result in `input` and its children: one ``AudiometryResult/dBHL(_:)`` per
    /// task result (or bare dB HL result) with dB HL steps, one ``AudiometryResult/legacy(_:)`` per legacy result
    /// or MyDataHelps row, in input order.
    public static func analyze(
        _ input: LoadedInput, options: AudiometryAnalysisOptions = AudiometryAnalysisOptions()
    ) -> [AudiometryResult] {
        var out: [AudiometryResult] = []
        if let root = input.researchKit?.result {
            out += analyze(root, source: input.path, options: options)
        }
        for (k, run) in input.toneAudiometry.enumerated() {
            out.append(
                .legacy(
                    legacy(
                        run.samples, outputVolume: run.outputVolume, stepIdentifier: "row \(k + 1)", source: input.path)))
        }
        for child in input.children { out += analyze(child, options: options) }
        return out
    }

    /// Analyses a ResearchKit result tree (a task result, a step result or a bare dB HL / legacy result).
    public static func analyze(
        _ root: ResearchKitResult, source: String?, options: AudiometryAnalysisOptions = AudiometryAnalysisOptions()
    ) -> [AudiometryResult] {
        var out: [AudiometryResult] = []
        let steps = root.dBHLToneAudiometryResults
        if !steps.isEmpty {
            var result = analyze(steps, source: source, options: options)
            if let task = root.task {
                result.taskIdentifier = task.identifier
                result.taskRunUUID = task.taskRunUUID?.uuidString
            }
            result.otherSteps = root.environmentSPLMeterResults.map {
                "\($0.stepIdentifier): ORKEnvironmentSPLMeterResult (\($0.result.recordedSPLMeterSamples.count) samples; "
                    + "background-noise check, not analysed here)"
            }
            out.append(.dBHL(result))
        }
        for item in root.toneAudiometryResults {
            out.append(
                .legacy(
                    legacy(
                        item.result.samples, outputVolume: item.result.outputVolume, stepIdentifier: item.stepIdentifier,
                        source: source)))
        }
        return out
    }

    /// Analyses the dB HL step results of one test (normally `dBHL1…` right and `dBHL2…` left).
    public static func analyze(
        _ steps: [ResearchKit.StepItem<ResearchKit.DBHLToneAudiometryResult>], source: String?,
        options: AudiometryAnalysisOptions = AudiometryAnalysisOptions()
    ) -> DBHLAudiometryResult {
        let ears = steps.map { ear($0.result, stepIdentifier: $0.stepIdentifier, options: options) }
        var issues: [String] = []
        let rights = ears.filter { $0.ear == .right }
        let lefts = ears.filter { $0.ear == .left }
        var bilateral: BilateralSummary?
        var corrected: BilateralSummary?
        if let r = rights.first, let l = lefts.first {
            if rights.count > 1 || lefts.count > 1 {
                issues.append(
                    "\(rights.count) right-ear and \(lefts.count) left-ear results: the bilateral summary uses the first of each")
            }
            bilateral = BilateralSummary(right: r.summary, left: l.summary, asymmetry: asymmetry(r, l, corrected: false))
            if r.volumeCorrectedSummary != nil || l.volumeCorrectedSummary != nil,
                r.volume?.offset != nil, l.volume?.offset != nil
            {
                corrected = BilateralSummary(
                    right: r.volumeCorrectedSummary ?? r.summary, left: l.volumeCorrectedSummary ?? l.summary,
                    asymmetry: asymmetry(r, l, corrected: true))
            }
        } else if ears.count > 1 {
            issues.append("all \(ears.count) results test the same ear: no bilateral summary")
        }
        return DBHLAudiometryResult(
            source: source, taskIdentifier: nil, taskRunUUID: nil, researchKitVersion: options.researchKitVersion,
            ears: ears, bilateral: bilateral, volumeCorrectedBilateral: corrected, otherSteps: [], issues: issues)
    }

    /// `result` without levels outside ``InputLimits/levelRange`` (or non-finite): such a threshold counts as none
    /// and such a unit is dropped, each named in `issues` (a threshold of 1e300 dB HL would overflow every sum).
    static func excludingUnusableLevels(
        _ result: ResearchKit.DBHLToneAudiometryResult, issues: inout [String]
    ) -> ResearchKit.DBHLToneAudiometryResult {
        var cleaned = result
        let bounds = InputLimits.levelRange
        let range = "\(ResultEncoding.number(bounds.lowerBound))…\(ResultEncoding.number(bounds.upperBound)) dB"
        for k in cleaned.samples.indices {
            let hz = ResultEncoding.number(cleaned.samples[k].frequency) + " Hz"
            if let t = cleaned.samples[k].calculatedThreshold, !InputLimits.isUsableLevel(t) {
                issues.append(
                    "\(hz): calculatedThreshold \(ResultEncoding.number(t)) dB HL is outside \(range) (InputLimits.levelRange); "
                        + "treated as no threshold")
                cleaned.samples[k].calculatedThreshold = nil
            }
            let units = cleaned.samples[k].units
            cleaned.samples[k].units = units.filter { InputLimits.isUsableLevel($0.dBHLValue) }
            if cleaned.samples[k].units.count < units.count {
                issues.append(
                    "\(hz): \(units.count - cleaned.samples[k].units.count) unit(s) with a dBHLValue outside \(range) "
                        + "(InputLimits.levelRange) excluded")
            }
        }
        return cleaned
    }

    static func asymmetry(_ r: EarAudiogram, _ l: EarAudiogram, corrected: Bool) -> [AsymmetryFinding] {
        let rs = corrected && r.volumeCorrectedSummary != nil ? r.volumeCorrectedSummary! : r.summary
        let ls = corrected && l.volumeCorrectedSummary != nil ? l.volumeCorrectedSummary! : l.summary
        return AsymmetryFinding.evaluate(
            right: r.thresholds(corrected: corrected && r.volumeCorrectedSummary != nil),
            left: l.thresholds(corrected: corrected && l.volumeCorrectedSummary != nil),
            rightNoResponse: r.noResponseFrequencies, leftNoResponse: l.noResponseFrequencies, pta3: (rs.pta3, ls.pta3))
    }

    /// Analyses one dB HL step result (one ear).
    public static func ear(
        _ result: ResearchKit.DBHLToneAudiometryResult, stepIdentifier: String? = nil,
        options: AudiometryAnalysisOptions = AudiometryAnalysisOptions()
    ) -> EarAudiogram {
        var issues: [String] = []
        let result = excludingUnusableLevels(result, issues: &issues)
        let channels = Set(result.samples.map(\.channel))
        let channel = result.samples.first?.channel ?? options.parameters.channel
        if channels.count > 1 { issues.append("the samples mix both ears; the ear is taken from the first sample") }
        if result.samples.isEmpty { issues.append("the result has no frequency samples") }

        var calibration: HeadphoneCalibration?
        var calibrationError: String?
        do throws(AudiometryCalibrationError) {
            calibration = try HeadphoneCalibration(headphoneType: result.headphoneType, version: options.researchKitVersion)
        } catch {
            calibrationError = error.description
        }
        let volume = calibration?.volumeHandling(outputVolume: result.outputVolume)
        let lookup = volume?.lookupVolume
        let offset = volume?.offset
        if let volume, volume.defect { issues.append(volume.note) }

        var frequencies: [FrequencyThreshold] = []
        var oneKilohertz: [Double?] = []
        var parameters = options.parameters
        parameters.channel = channel
        for (k, sample) in result.samples.enumerated() {
            var f = frequency(sample, order: k + 1, parameters: parameters)
            if let calibration {
                do throws(AudiometryCalibrationError) {
                    _ = try calibration.tableIndex(frequency: sample.frequency)
                    if let lookup {
                        f.clippingCeiling = try calibration.clippingCeiling(frequency: sample.frequency, lookupVolume: lookup)
                            .doubleValue
                    }
                    if let t = sample.calculatedThreshold {
                        f.thresholdSPL = try calibration.spl(frequency: sample.frequency, level: t).doubleValue
                        if let lookup {
                            f.thresholdDBFS = try calibration.attenuation(
                                frequency: sample.frequency, level: t, lookupVolume: lookup
                            ).doubleValue
                        }
                        if let offset {
                            f.volumeCorrectedThreshold = t + offset
                            f.volumeCorrectedThresholdSPL = f.thresholdSPL! + offset
                        }
                    }
                } catch {
                    f.issues.append(error.description + "; no dB SPL for this frequency")
                }
            }
            if sample.frequency == 1000 { oneKilohertz.append(sample.calculatedThreshold) }
            frequencies.append(f)
        }
        var ear = EarAudiogram(
            stepIdentifier: stepIdentifier ?? result.identifier, ear: Ear(channel), headphoneType: result.headphoneType,
            outputVolume: result.outputVolume,
            calibration: calibration.map {
                CalibrationInfo(
                    researchKitVersion: $0.version, tables: $0.tableSuffix, volumeCurve: $0.volumeCurve,
                    retspl: $0.usesGenericRETSPL ? "generic" : "device-specific")
            }, calibrationError: calibrationError, volume: volume, frequencies: frequencies,
            summary: EarSummary(thresholds: [:], oneKilohertz: []), volumeCorrectedSummary: nil, issues: issues)
        ear.summary = EarSummary(thresholds: ear.thresholds(), oneKilohertz: oneKilohertz)
        if let offset, offset != 0 {
            ear.volumeCorrectedSummary = EarSummary(
                thresholds: ear.thresholds(corrected: true), oneKilohertz: oneKilohertz.map { $0.map { $0 + offset } })
        }
        return ear
    }

    /// The counts, reaction times and re-derived threshold of one frequency sample (no calibration).
    public static func frequency(
        _ sample: ResearchKit.DBHLToneAudiometryFrequencySample, order: Int,
        parameters: DBHLStaircaseParameters = DBHLStaircaseParameters()
    ) -> FrequencyThreshold {
        var hits = 0
        var misses = 0
        var falseAlarms = 0
        var clipped = 0
        var reactionTimes: [Double] = []
        var highest: Double?
        for u in sample.units {
            if u.wasAborted {
                clipped += 1
                continue
            }
            highest = max(highest ?? u.dBHLValue, u.dBHLValue)
            if u.isFalseAlarm {
                falseAlarms += 1
            } else if u.wasTapped {
                hits += 1
                reactionTimes.append(u.userTapTimeStamp - u.toneOnset)
            } else {
                misses += 1
            }
        }
        let replay = ThresholdRederivation.rederive(sample, parameters: parameters)
        var issues: [String] = []
        if sample.calculatedThreshold == nil {
            issues.append(
                "no threshold: ResearchKit wrote the sentinel DBL_MAX (1.7976931348623157e308) after "
                    + "\(sample.units.count) presentations")
        }
        let differ = replay.threshold != sample.calculatedThreshold
        if differ {
            issues.append(
                "the threshold re-derived from the units (\(replay.threshold.map { ResultEncoding.number($0) + " dB HL" } ?? "none")) "
                    + "differs from calculatedThreshold (\(sample.calculatedThreshold.map { ResultEncoding.number($0) + " dB HL" } ?? "none"))")
        }
        if let d = replay.divergence { issues.append("units leave ResearchKit's staircase: " + d) }
        return FrequencyThreshold(
            frequency: sample.frequency, testOrder: order, calculatedThreshold: sample.calculatedThreshold,
            noThreshold: sample.calculatedThreshold == nil, rederivedThreshold: replay.threshold, thresholdsDiffer: differ,
            rederivationDivergence: replay.divergence, presentations: sample.units.count, hits: hits, misses: misses,
            falseAlarms: falseAlarms, clippedPresentations: clipped,
            medianReactionTime: reactionTimes.isEmpty ? nil : RStatistics.median(reactionTimes),
            highestLevelPresented: highest, thresholdSPL: nil, thresholdDBFS: nil, clippingCeiling: nil,
            volumeCorrectedThreshold: nil, volumeCorrectedThresholdSPL: nil, issues: issues)
    }

    /// Analyses legacy tone-audiometry presentations: amplitudes in dBFS, never dB HL.
    public static func legacy(
        _ samples: [ToneAudiometrySample], outputVolume: Double?, stepIdentifier: String?, source: String?
    ) -> LegacyToneAudiometryAnalysis {
        var issues = [
            "legacy ORKToneAudiometry: levels are uncalibrated digital amplitudes in dBFS (re full scale); "
                + "no hearing-level calibration exists for this task"
        ]
        if samples.isEmpty { issues.append("the result has no presentations") }
        let presentations = samples.map { s in
            let ear: Ear? = s.channel == 0 ? .left : s.channel == 1 ? .right : nil
            let response = s.channelSelected == 0 ? "left" : s.channelSelected == 1 ? "right" : "none"
            return LegacyTonePresentation(
                frequency: s.frequency, ear: ear, response: response,
                correctEar: s.channelSelected < 0 ? nil : s.channelSelected == s.channel, amplitude: s.amplitude,
                amplitudeDBFS: s.amplitude > 0 ? 20 * log10(s.amplitude) : nil)
        }
        return LegacyToneAudiometryAnalysis(
            source: source, stepIdentifier: stepIdentifier, outputVolume: outputVolume, presentations: presentations,
            issues: issues)
    }
}
