/// Any object a ResearchKit JSON file can hold at its root: a result (the usual case), a step configuration,
/// a recorder configuration, or one of the model objects nested in results (device, samples, units), which
/// ResearchKit's own sample files serialise on their own.
///
/// A root whose `_class` taskproc does not know decodes to ``result(_:)`` with
/// ``ResearchKitResult/unknown(className:header:raw:)``.
public enum ResearchKitObject: Sendable, Hashable, Codable {
    /// Any `ORKResult` subclass, known or unknown.
    case result(ResearchKitResult)
    /// `ORKDevice`.
    case device(ResearchKit.Device)
    /// `ORKTappingSample`.
    case tappingSample(TapSample)
    /// `ORKToneAudiometrySample` (legacy).
    case toneAudiometrySample(ToneAudiometrySample)
    /// `ORKdBHLToneAudiometryFrequencySample`.
    case dBHLToneAudiometryFrequencySample(ResearchKit.DBHLToneAudiometryFrequencySample)
    /// `ORKdBHLToneAudiometryUnit`.
    case dBHLToneAudiometryUnit(ResearchKit.DBHLToneAudiometryUnit)
    /// `ORKActiveStep` (a plain active step).
    case activeStep(ResearchKit.ActiveStep)
    /// `ORKTappingIntervalStep`.
    case tappingIntervalStep(ResearchKit.TappingIntervalStep)
    /// `ORKWalkingTaskStep`.
    case walkingTaskStep(ResearchKit.WalkingTaskStep)
    /// `ORKTimedWalkStep`.
    case timedWalkStep(ResearchKit.TimedWalkStep)
    /// `ORKdBHLToneAudiometryStep`.
    case dBHLToneAudiometryStep(ResearchKit.DBHLToneAudiometryStep)
    /// `ORKEnvironmentSPLMeterStep`.
    case environmentSPLMeterStep(ResearchKit.EnvironmentSPLMeterStep)
    /// Any `ORK…RecorderConfiguration` (or other `ORK…Configuration` of a recorder).
    case recorderConfiguration(ResearchKit.RecorderConfiguration)

    /// The Objective-C class name (`_class`) the object was decoded from.
    public var className: String {
        switch self {
        case .result(let r): r.className
        case .device: "ORKDevice"
        case .tappingSample: "ORKTappingSample"
        case .toneAudiometrySample: "ORKToneAudiometrySample"
        case .dBHLToneAudiometryFrequencySample: "ORKdBHLToneAudiometryFrequencySample"
        case .dBHLToneAudiometryUnit: "ORKdBHLToneAudiometryUnit"
        case .activeStep(let s): s.className
        case .tappingIntervalStep(let s): s.activeStep.className
        case .walkingTaskStep(let s): s.activeStep.className
        case .timedWalkStep(let s): s.activeStep.className
        case .dBHLToneAudiometryStep(let s): s.activeStep.className
        case .environmentSPLMeterStep(let s): s.activeStep.className
        case .recorderConfiguration(let c): c.className
        }
    }
}
