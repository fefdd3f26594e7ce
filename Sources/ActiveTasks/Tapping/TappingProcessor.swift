import Foundation
import StudyInputs
internal import SensorSignal

/// Turns two-finger tapping recordings of any dialect into ``TappingResult``s: the Sage Bionetworks features
/// (``TappingFeatureExtractor``) plus ResearchKit-native extras and the step's accelerometer summary.
///
/// Pure: input in, results out, nothing printed. Stateless; every function is safe to call from any task.
public enum TappingProcessor {
    /// Analyses one recording.
    ///
    /// - Parameters:
    ///   - recording: The taps (any dialect).
    ///   - variant: The R implementation the features reproduce.
    ///   - depressThreshold: The x jump between depress events, points (R default 20).
    ///   - accelerometer: The step's accelerometer log and its file, if any.
    ///   - source: The file name to report, if known.
    /// - Returns: The result; too few or invalid taps give NA features and an `error`, never a crash.
    public static func analyze(
        _ recording: TappingRecording, variant: TappingVariant = .mhealthtools, depressThreshold: Double = 20,
        accelerometer: (file: String, log: CleanedLog<AccelerometerLog>)? = nil, source: String? = nil
    ) -> TappingResult {
        // Taps with a non-finite or absurd time, location or duration are excluded and counted (never used: a
        // span of ±1e308 s overflows to ∞).
        var usable = recording
        usable.samples = recording.samples.filter {
            InputLimits.isUsable($0.timestamp) && InputLimits.isUsable($0.location.x)
                && InputLimits.isUsable($0.location.y) && $0.duration.map(InputLimits.isUsable) ?? true
        }
        var result = TappingResult(
            stepIdentifier: recording.stepIdentifier, source: source,
            features: TappingFeatureExtractor.features(
                of: usable.samples, variant: variant, depressThreshold: depressThreshold),
            extras: TappingExtras(recording: usable),
            accelerometer: accelerometer.map { summarize($0.log, file: $0.file) })
        result.taps = usable.samples
        let excluded = recording.samples.count - usable.samples.count
        if excluded > 0 {
            result.warnings.append(
                "\(excluded) tap(s) excluded: a time, location or duration that is not finite or beyond "
                    + "±\(ResultEncoding.number(InputLimits.maximumMagnitude)) (InputLimits.maximumMagnitude)")
        }
        return result
    }

    /// Analyses every tapping recording of a loaded input and its children, in input order: one result per
    /// recording (per `tapping.left`/`tapping.right` step of a ResearchKit task, per MyDataHelps row, per mPower
    /// or mhealthtools file).
    ///
    /// An accelerometer log is attached to a recording when it belongs to the same input (task result, task
    /// folder or file) and has the same step identifier, and it is the only accelerometer log of that step.
    ///
    /// - Parameters:
    ///   - input: What ``InputLoader`` read.
    ///   - variant: The R implementation the features reproduce.
    ///   - depressThreshold: The x jump between depress events, points.
    /// - Returns: The results; empty when the input holds no tapping recording.
    public static func analyze(
        _ input: LoadedInput, variant: TappingVariant = .mhealthtools, depressThreshold: Double = 20
    ) -> [TappingResult] {
        var results: [TappingResult] = []
        collect(input, variant: variant, depressThreshold: depressThreshold, into: &results)
        return results
    }

    private static func collect(
        _ node: LoadedInput, variant: TappingVariant, depressThreshold: Double, into results: inout [TappingResult]
    ) {
        for recording in node.tapping {
            var accelerometer: (file: String, log: CleanedLog<AccelerometerLog>)?
            if let step = recording.stepIdentifier {
                let logs = node.recordings.compactMap { r -> (file: String, log: CleanedLog<AccelerometerLog>)? in
                    guard r.stepIdentifier == step, case .accelerometer(let log) = r.data else { return nil }
                    return (r.file, log)
                }
                if logs.count == 1 { accelerometer = logs[0] }
            }
            var source = node.researchKit?.file ?? node.path
            if let key = recording.recordKey { source += "#" + key }
            results.append(
                analyze(
                    recording, variant: variant, depressThreshold: depressThreshold, accelerometer: accelerometer,
                    source: source))
        }
        for child in node.children {
            collect(child, variant: variant, depressThreshold: depressThreshold, into: &results)
        }
    }

    /// The accelerometer summary: count, span, rate and |a| statistics in g.
    static func summarize(_ cleaned: CleanedLog<AccelerometerLog>, file: String) -> TappingAccelerometerSummary {
        let log = cleaned.log
        let n = log.timestamp.count
        let span = n >= 2 ? log.timestamp[n - 1] - log.timestamp[0] : 0
        let duration = InputLimits.isUsable(span) ? span : 0
        var magnitudes = [Double](repeating: 0, count: n)
        let scale = log.unit.toG
        for i in 0..<n {
            let x = log.acceleration.x[i] * scale, y = log.acceleration.y[i] * scale, z = log.acceleration.z[i] * scale
            magnitudes[i] = (x * x + y * y + z * z).squareRoot()
        }
        let finite = magnitudes.filter(InputLimits.isUsable)
        let d = TappingExtras.describe(finite)
        return TappingAccelerometerSummary(
            file: file, samples: n, duration: duration,
            samplingRate: cleaned.report.sampling?.medianRate, magnitudeMean: d.mean, magnitudeSD: d.sd,
            magnitudeRange: d.max.flatMap { max in d.min.map { max - $0 } })
    }
}
