/// A ResearchKit result of any class taskproc knows, or an unknown class kept verbatim.
///
/// One case per modelled `ORKResult` subclass. Results of other classes (other active tasks, instruction and
/// video steps) decode to ``unknown(className:header:raw:)`` and the document gets a
/// ``ResearchKitWarning/Kind/unknownClass`` warning: decoding never fails because of an unknown class.
public enum ResearchKitResult: Sendable, Hashable, Codable {
    /// `ORKTaskResult`.
    case task(ResearchKit.TaskResult)
    /// `ORKStepResult`.
    case step(ResearchKit.StepResult)
    /// `ORKFileResult`.
    case file(ResearchKit.FileResult)
    /// `ORKTappingIntervalResult`.
    case tappingInterval(ResearchKit.TappingIntervalResult)
    /// `ORKdBHLToneAudiometryResult`.
    case dBHLToneAudiometry(ResearchKit.DBHLToneAudiometryResult)
    /// `ORKToneAudiometryResult` (legacy).
    case toneAudiometry(ResearchKit.ToneAudiometryResult)
    /// `ORKEnvironmentSPLMeterResult`.
    case environmentSPLMeter(ResearchKit.EnvironmentSPLMeterResult)
    /// `ORKTimedWalkResult`.
    case timedWalk(ResearchKit.TimedWalkResult)
    /// `ORKRangeOfMotionResult`.
    case rangeOfMotion(ResearchKit.RangeOfMotionResult)
    /// A survey answer: any `ORK…QuestionResult` (see ``ResearchKit/QuestionResult``).
    case question(ResearchKit.QuestionResult)
    /// `ORKConsentSignatureResult`.
    case consentSignature(ResearchKit.ConsentSignatureResult)
    /// `ORKFamilyHistoryResult`: relatives and the answers about each.
    case familyHistory(ResearchKit.FamilyHistoryResult)
    /// A class taskproc does not model. `header` holds whichever `ORKResult` keys were present and well formed
    /// (identifier empty otherwise); `raw` is the whole object as written.
    case unknown(className: String, header: ResearchKit.ResultHeader, raw: JSONObject)

    /// The `ORKResult` keys of the result.
    public var header: ResearchKit.ResultHeader {
        switch self {
        case .task(let r): r.header
        case .step(let r): r.header
        case .file(let r): r.header
        case .tappingInterval(let r): r.header
        case .dBHLToneAudiometry(let r): r.header
        case .toneAudiometry(let r): r.header
        case .environmentSPLMeter(let r): r.header
        case .timedWalk(let r): r.header
        case .rangeOfMotion(let r): r.header
        case .question(let r): r.header
        case .consentSignature(let r): r.header
        case .familyHistory(let r): r.header
        case .unknown(_, let header, _): header
        }
    }

    /// The Objective-C class name (`_class`).
    public var className: String { header.className }

    /// The result's identifier (step, task or recorder configuration identifier).
    public var identifier: String { header.identifier }

    /// The child results of a task or step result; empty for every other case.
    public var children: [ResearchKitResult] {
        switch self {
        case .task(let r): r.results
        case .step(let r): r.results
        default: []
        }
    }

    /// The task result, if this is one.
    public var task: ResearchKit.TaskResult? { if case .task(let r) = self { r } else { nil } }
    /// The step result, if this is one.
    public var step: ResearchKit.StepResult? { if case .step(let r) = self { r } else { nil } }
    /// The file result, if this is one.
    public var file: ResearchKit.FileResult? { if case .file(let r) = self { r } else { nil } }
    /// The tapping result, if this is one.
    public var tappingInterval: ResearchKit.TappingIntervalResult? {
        if case .tappingInterval(let r) = self { r } else { nil }
    }
    /// The dB HL audiometry result, if this is one.
    public var dBHLToneAudiometry: ResearchKit.DBHLToneAudiometryResult? {
        if case .dBHLToneAudiometry(let r) = self { r } else { nil }
    }
    /// The legacy audiometry result, if this is one.
    public var toneAudiometry: ResearchKit.ToneAudiometryResult? {
        if case .toneAudiometry(let r) = self { r } else { nil }
    }
    /// The SPL meter result, if this is one.
    public var environmentSPLMeter: ResearchKit.EnvironmentSPLMeterResult? {
        if case .environmentSPLMeter(let r) = self { r } else { nil }
    }
    /// The timed-walk result, if this is one.
    public var timedWalk: ResearchKit.TimedWalkResult? { if case .timedWalk(let r) = self { r } else { nil } }
    /// The question result, if this is one.
    public var question: ResearchKit.QuestionResult? { if case .question(let r) = self { r } else { nil } }
    /// The consent signature result, if this is one.
    public var consentSignature: ResearchKit.ConsentSignatureResult? {
        if case .consentSignature(let r) = self { r } else { nil }
    }
    /// The family history result, if this is one.
    public var familyHistory: ResearchKit.FamilyHistoryResult? {
        if case .familyHistory(let r) = self { r } else { nil }
    }
    /// The range-of-motion result, if this is one.
    public var rangeOfMotion: ResearchKit.RangeOfMotionResult? {
        if case .rangeOfMotion(let r) = self { r } else { nil }
    }
}
