import Foundation
import StudyInputs

/// The re-analysis of one ResearchKit environment SPL-meter result (`ORKEnvironmentSPLMeterResult`).
///
/// The recorded samples are ResearchKit's own per-window levels, dB(A) SPL: A-weighting approximated by a
/// 6-band EQ, device-class calibration (`sensitivityOffset`), 1-s energy means every 1.1 s. They are
/// summarised as they are — never re-weighted.
public struct SPLMeterResult: Sendable, Codable, Hashable {
    /// Always `"splMeter"`.
    public var kind = "splMeter"
    /// The input file.
    public var file: String
    /// The step identifier.
    public var stepIdentifier: String
    /// Start and end of the step (ISO 8601 with the recorded UTC offset), when recorded.
    public var startDate: String?
    /// End of the step.
    public var endDate: String?
    /// The calibration offset ResearchKit used, dB (dBFS of 94 dB SPL).
    public var sensitivityOffset: Double
    /// Number of recorded window levels.
    public var sampleCount: Int
    /// Energy average of the samples `10·lg(mean(10^(Lᵢ/10)))`, dB(A) SPL; `nil` without samples.
    public var energyAverage: Double?
    /// Smallest sample, dB(A) SPL.
    public var minimum: Double?
    /// Largest sample, dB(A) SPL.
    public var maximum: Double?
    /// The pass threshold applied, dB(A) SPL.
    public var threshold: Double
    /// Consecutive samples below the threshold required to pass.
    public var requiredContiguousSamples: Int
    /// Where the rule came from: `"step"` (the step configuration), `"option"` (command line) or
    /// `"ResearchKit default"` (35 dB(A), 5 samples).
    public var ruleSource: String
    /// Whether some run of `requiredContiguousSamples` consecutive samples is below the threshold; `nil`
    /// without samples.
    public var passed: Bool?
    /// The longest run of consecutive samples below the threshold.
    public var longestRunBelow: Int
    /// The recorded samples, dB(A) SPL.
    public var samples: [Double]
    /// Caveats.
    public var warnings: [String]
}

/// Summarises ResearchKit environment SPL-meter results. Stateless; pure functions.
public enum SPLMeterProcessor {
    /// The caveat attached to every result.
    public static let approximationWarning =
        "these are ResearchKit's own levels: A-weighting approximated by a 6-band EQ (outside IEC 61672 class 1 "
        + "below 25 Hz and above 12.5 kHz), calibrated per device class (sensitivityOffset), 1 s means every 1.1 s; "
        + "taskproc summarises them but does not re-weight them"

    /// Summarises one result.
    /// - Parameters:
    ///   - result: the decoded result.
    ///   - stepIdentifier: its step.
    ///   - file: the input file, for the output.
    ///   - step: the step configuration, when known (threshold, required run).
    ///   - rule: overrides the step's rule (command-line options).
    public static func analyze(
        _ result: ResearchKit.EnvironmentSPLMeterResult, stepIdentifier: String, file: String,
        step: ResearchKit.EnvironmentSPLMeterStep? = nil, rule: SPLThresholdRule? = nil
    ) -> SPLMeterResult {
        var applied = SPLThresholdRule()
        var source = "ResearchKit default"
        if let step, step.thresholdValue != nil || step.requiredContiguousSamples != nil {
            applied.threshold = step.thresholdValue ?? applied.threshold
            applied.requiredContiguousSamples = step.requiredContiguousSamples ?? applied.requiredContiguousSamples
            source = "step"
        }
        if let rule {
            applied = rule
            source = "option"
        }
        let samples = result.recordedSPLMeterSamples
        var warnings = [approximationWarning]
        let finite = samples.filter(InputLimits.isUsableLevel)
        if finite.count < samples.count {
            warnings.append(
                "\(samples.count - finite.count) sample(s) not finite or outside \(ResultEncoding.number(InputLimits.levelRange.lowerBound))…"
                    + "\(ResultEncoding.number(InputLimits.levelRange.upperBound)) dB (InputLimits.levelRange) ignored in the averages"
            )
        }
        if samples.isEmpty { warnings.append("the result holds no samples (recordedSPLMeterSamples is empty)") }
        let energy =
            finite.isEmpty ? nil : 10 * log10(finite.reduce(0) { $0 + pow(10, $1 / 10) } / Double(finite.count))
        let values = samples.map { InputLimits.isUsableLevel($0) ? $0 : Double.infinity }
        return SPLMeterResult(
            file: file, stepIdentifier: stepIdentifier, startDate: result.header.startDate?.description,
            endDate: result.header.endDate?.description, sensitivityOffset: result.sensitivityOffset,
            sampleCount: samples.count, energyAverage: energy, minimum: finite.min(), maximum: finite.max(),
            threshold: applied.threshold, requiredContiguousSamples: applied.requiredContiguousSamples,
            ruleSource: source, passed: samples.isEmpty ? nil : applied.passes(values),
            longestRunBelow: applied.longestRunBelow(values), samples: samples, warnings: warnings)
    }

    /// Every SPL-meter result of a loaded input (and its children), in input order. The step configuration is
    /// taken from an `ORKEnvironmentSPLMeterStep` in the same input (a folder holding both files) when there
    /// is exactly one.
    /// - Parameters:
    ///   - input: the loaded input.
    ///   - rule: overrides the step's threshold rule.
    public static func analyze(_ input: LoadedInput, rule: SPLThresholdRule? = nil) -> [SPLMeterResult] {
        var steps: [ResearchKit.EnvironmentSPLMeterStep] = []
        func collectSteps(_ node: LoadedInput) {
            if case .environmentSPLMeterStep(let s)? = node.researchKit?.root { steps.append(s) }
            node.children.forEach(collectSteps)
        }
        collectSteps(input)
        let step = steps.count == 1 ? steps[0] : nil
        var results: [SPLMeterResult] = []
        func collect(_ node: LoadedInput) {
            for item in node.researchKit?.result?.environmentSPLMeterResults ?? [] {
                results.append(
                    analyze(
                        item.result, stepIdentifier: item.stepIdentifier, file: node.researchKit?.file ?? node.path,
                        step: step, rule: rule))
            }
            node.children.forEach(collect)
        }
        collect(input)
        return results
    }
}
