import StudyInputs

/// The parameters of ResearchKit's dB HL staircase (`ORKdBHLToneAudiometryStep`), with ResearchKit's defaults.
///
/// Source: `researchkit-formats.md` §4.1 (`ORKdBHLToneAudiometryStep.m`). Levels are dB HL, step sizes dB,
/// durations seconds, frequencies Hz.
public struct DBHLStaircaseParameters: Sendable, Hashable, Codable {
    /// Starting level of every frequency, dB HL [30].
    public var initialLevel: Double = 30
    /// Level decrease after a genuine hit, dB [10].
    public var stepDown: Double = 10
    /// Level increase after a miss once the miss list is used up or abandoned, dB [5].
    public var stepUp: Double = 5
    /// Level increases after the first, second and third miss at a frequency, dB [20, 10, 10].
    public var missSteps: [Double] = [20, 10, 10]
    /// Lowest level presented (the floor), dB HL [−10].
    public var floor: Double = -10
    /// Maximum presentations (units) per frequency [20] (`maxNumberOfTransitionsPerFrequency`).
    public var maxPresentationsPerFrequency: Int = 20
    /// Frequencies tested, in order, Hz [1000, 2000, 3000, 4000, 8000, 1000, 500, 250].
    public var frequencies: [Double] = [1000, 2000, 3000, 4000, 8000, 1000, 500, 250]
    /// The ear tested [right, as in the predefined task's first test step].
    public var channel: ResearchKit.AudioChannel = .right
    /// Tone duration, s [1].
    public var toneDuration: Double = 1
    /// Upper bound of the random pre-stimulus delay, s [2] (see ``DBHLToneAudiometrySimulator`` for the draw).
    public var maxRandomPreStimulusDelay: Double = 2
    /// Response window after the tone, s [1].
    public var postStimulusDelay: Double = 1

    /// ResearchKit's defaults.
    public init() {}

    /// Longest tone, pre-stimulus delay bound or response window, s: 60 (ResearchKit uses 1–2 s).
    ///
    /// With the other bounds it keeps a simulated test under 10⁸ s, so its dates stay four-digit years.
    public static let maximumDuration = 60.0
    /// Most presentations per frequency: 1000 (ResearchKit's default is 20).
    public static let maximumPresentations = 1000
    /// Most frequencies in the list: 100 (ResearchKit tests 8).
    public static let maximumFrequencies = 100
    /// Highest frequency, Hz: 100 000 (audiometry ends at 16 kHz).
    public static let maximumFrequency = 100_000.0
    /// Largest magnitude of a level (initial level, floor) or step size, dB: 200.
    public static let maximumLevel = 200.0

    /// ResearchKit's defaults overridden by every parameter `step` sets.
    public init(step: ResearchKit.DBHLToneAudiometryStep) {
        if let v = step.initialdBHLValue { initialLevel = v }
        if let v = step.dBHLStepDownSize { stepDown = v }
        if let v = step.dBHLStepUpSize { stepUp = v }
        if let v = step.dBHLStepUpSizeFirstMiss { missSteps[0] = v }
        if let v = step.dBHLStepUpSizeSecondMiss { missSteps[1] = v }
        if let v = step.dBHLStepUpSizeThirdMiss { missSteps[2] = v }
        if let v = step.dBHLMinimumThreshold { floor = v }
        if let v = step.maxNumberOfTransitionsPerFrequency { maxPresentationsPerFrequency = v }
        if let v = step.frequencyList, !v.isEmpty { frequencies = v }
        if let v = step.earPreference, let c = ResearchKit.AudioChannel(rawValue: v) { channel = c }
        if let v = step.toneDuration { toneDuration = v }
        if let v = step.maxRandomPreStimulusDelay { maxRandomPreStimulusDelay = v }
        if let v = step.postStimulusDelay { postStimulusDelay = v }
    }

    /// The first problem that makes the parameters unusable, or nil.
    ///
    /// ResearchKit's validation (§4.1): a non-empty frequency list, positive step sizes and presentation limit,
    /// tone duration ≥ 1 s; taskproc also requires at least one miss step and finite numbers.
    public var problem: String? {
        let durations = Self.maximumDuration
        let levels = Self.maximumLevel
        if frequencies.isEmpty { return "the frequency list is empty" }
        if frequencies.count > Self.maximumFrequencies {
            return "frequencies: \(frequencies.count) frequencies out of range (max \(Self.maximumFrequencies))"
        }
        if let f = frequencies.first(where: { !$0.isFinite || $0 <= 0 }) { return "frequency \(f) Hz is not positive" }
        if let f = frequencies.first(where: { $0 > Self.maximumFrequency }) {
            return "frequency: \(f) Hz out of range (max \(Int(Self.maximumFrequency)) Hz)"
        }
        if !(stepDown > 0) { return "the step-down size must be positive, got \(stepDown) dB" }
        if !(stepUp > 0) { return "the step-up size must be positive, got \(stepUp) dB" }
        if missSteps.isEmpty { return "the miss list must have at least one step" }
        if let m = missSteps.first(where: { !$0.isFinite }) { return "miss step \(m) dB is not finite" }
        if !initialLevel.isFinite || !floor.isFinite { return "the initial level and the floor must be finite" }
        for (name, value) in [
            ("initial level", initialLevel), ("floor", floor), ("step-down size", stepDown),
            ("step-up size", stepUp),
        ] + missSteps.map({ ("miss step", $0) })
        where !(abs(value) <= levels) {
            return "\(name): \(value) dB out of range (max ±\(Int(levels)) dB)"
        }
        if maxPresentationsPerFrequency <= 0 {
            return "the maximum presentations per frequency must be positive, got \(maxPresentationsPerFrequency)"
        }
        if maxPresentationsPerFrequency > Self.maximumPresentations {
            return
                "maximum presentations: \(maxPresentationsPerFrequency) out of range (max \(Self.maximumPresentations))"
        }
        if !(toneDuration >= 1) { return "the tone duration must be at least 1 s, got \(toneDuration) s" }
        if !(maxRandomPreStimulusDelay >= 0) || !(postStimulusDelay >= 0) {
            return "the pre- and post-stimulus delays must not be negative"
        }
        for (name, value) in [
            ("tone duration", toneDuration), ("pre-stimulus delay", maxRandomPreStimulusDelay),
            ("post-stimulus delay", postStimulusDelay),
        ]
        where !(value <= durations) {
            return "\(name): \(value) s out of range (max \(Int(durations)) s)"
        }
        return nil
    }
}
