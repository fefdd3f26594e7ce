import Foundation
import SensorSignal
import StudyInputs

/// Settings of a simulated dB HL test: the staircase, the transducer, the phone's volume and the clock.
public struct DBHLSimulationOptions: Sendable, Hashable {
    /// Staircase parameters [ResearchKit's defaults].
    public var parameters = DBHLStaircaseParameters()
    /// Headphone type written to the result and used for clipping [`AIRPODSV1`, as in the predefined task];
    /// nil = an ideal transducer (no clipping, volume ignored) and no `headphoneType` in the result.
    public var headphoneType: String? = "AIRPODSV1"
    /// The release whose calibration decides clipping and volume handling [current].
    public var researchKitVersion = ResearchKitVersion.current
    /// Whether tones at or above the clipping ceiling are refused, as on a device [true].
    public var clipping = true
    /// System output volume 0…1 [1]; below 1 the volume defect of ResearchKit ≥ 3.1 lowers the delivered level.
    public var outputVolume = 1.0
    /// Seed of the clock (pre-stimulus delays, reaction times, false-alarm tap times) [1].
    public var timingSeed: UInt64 = 1
    /// Median reaction time to a heard tone, s [0.45]; reaction times are log-normal with σ = 0.25.
    public var reactionTimeMedian = 0.45
    /// Step identifier written to the result [`dBHL1.tone.audiometry`].
    public var identifier = "dBHL1.tone.audiometry"
    /// Wall-clock start of the step [2024-05-02T10:20:00+0200].
    public var startDate = ResultDate("2024-05-02T10:20:00+0200")!

    /// ResearchKit's defaults.
    public init() {}
}

/// Runs ResearchKit's dB HL step offline: the staircase of ``DBHLStaircase``, driven by an
/// ``AudiometryListener``, with ResearchKit's trial timing (`researchkit-formats.md` §4.2) and clipping (§4.3.5).
///
/// Per trial: pre-stimulus delay = 1 + R1 + R2 s (R1 uniform integer in [0, ⌊max − 1⌋ − 1], R2 ∈ {0, 0.1, …, 0.9});
/// a false alarm taps at a random time inside that gap; a clipped tone ends the trial at onset with neither a
/// tap nor a timeout; a heard tone is tapped a log-normal reaction time after onset (capped inside the
/// response window); a missed one times out at onset + tone duration + post-stimulus delay. Times are
/// rounded to 1 ms.
public enum DBHLToneAudiometrySimulator {
    /// The outcome of one simulated step.
    public struct Simulation: Sendable, Hashable {
        /// The result ResearchKit would have recorded.
        public var result: ResearchKit.DBHLToneAudiometryResult
        /// Step runtime at the end of the test, s.
        public var duration: Double
        /// Number of presentations (units).
        public var presentations: Int
    }

    /// Simulates one step.
    /// - Precondition: `options.parameters.problem == nil` (validate user input first, as the CLI does).
    /// - Throws: ``AudiometryCalibrationError`` when clipping is on and the headphone type or a frequency has no
    ///   table, or the volume is not in 0…1.
    public static func simulate(
        listener: inout some AudiometryListener, options: DBHLSimulationOptions = DBHLSimulationOptions()
    ) throws(AudiometryCalibrationError) -> Simulation {
        let p = options.parameters
        var calibration: HeadphoneCalibration?
        var lookupVolume = 1.0
        var offset = 0.0
        if let type = options.headphoneType, options.clipping || options.outputVolume != 1 {
            let c = try HeadphoneCalibration(headphoneType: type, version: options.researchKitVersion)
            lookupVolume = try c.lookupVolume(outputVolume: options.outputVolume)
            let handling = c.volumeHandling(outputVolume: options.outputVolume)
            guard let o = handling.offset else { throw .volumeBelowCurve(outputVolume: options.outputVolume) }
            offset = o
            if options.clipping {
                for f in p.frequencies { _ = try c.tableIndex(frequency: f) }
                calibration = c
            }
        }
        var rng = SplitMix64(seed: options.timingSeed)
        func uniform() -> Double { Double(rng.next() >> 11) / 9_007_199_254_740_992 }
        func ms(_ t: Double) -> Double { (t * 1000).rounded() / 1000 }
        let r1Range = max(0, Int((p.maxRandomPreStimulusDelay - 1).rounded(.towardZero)))
        let window = p.toneDuration + p.postStimulusDelay

        var engine = DBHLStaircase(parameters: p)
        var t = 0.0
        while !engine.isFinished {
            let s = engine.nextStimulus
            // arc4random_uniform(n) is 0 for n < 2.
            let r1 = r1Range < 2 ? 0 : Int(uniform() * Double(r1Range))
            let r2 = Double(Int(uniform() * 10)) / 10
            let pre = 1 + Double(r1) + r2
            engine.registerPreStimulusDelay(pre)
            if listener.falseAlarm(before: s) {
                t = ms(t + pre * (0.1 + 0.8 * uniform()))
                engine.registerResponse(heard: true, at: t)
                continue
            }
            let onset = ms(t + pre)
            engine.registerStimulusPlayback()
            if let calibration, try calibration.clips(frequency: s.frequency, level: s.level, lookupVolume: lookupVolume) {
                t = onset
                engine.signalClipped(at: t)
                continue
            }
            if listener.hears(s, deliveredLevel: s.level + offset) {
                // Log-normal reaction time (Box–Muller normal), inside the response window.
                let z = (-2 * log(1 - uniform())).squareRoot() * cos(2 * .pi * uniform())
                let rt = min(max(options.reactionTimeMedian * exp(0.25 * z), 0.15), window - 0.05)
                t = ms(onset + rt)
                engine.registerResponse(heard: true, at: t)
            } else {
                t = ms(onset + window)
                engine.registerResponse(heard: false, at: t)
            }
        }
        let start = options.startDate
        let end = ResultDate(
            date: Date(timeIntervalSince1970: (start.timeIntervalSince1970 + t).rounded(.up)), utcOffset: start.utcOffset)
        let result = ResearchKit.DBHLToneAudiometryResult(
            header: ResearchKit.ResultHeader(
                className: "ORKdBHLToneAudiometryResult", identifier: options.identifier, startDate: start, endDate: end),
            outputVolume: options.outputVolume, tonePlaybackDuration: p.toneDuration,
            postStimulusDelay: p.postStimulusDelay, headphoneType: options.headphoneType, samples: engine.samples)
        return Simulation(result: result, duration: t, presentations: engine.samples.reduce(0) { $0 + $1.units.count })
    }
}
