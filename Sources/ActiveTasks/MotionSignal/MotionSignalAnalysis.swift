import SensorSignal
import StudyInputs

extension TaskKind {
    /// Tremor steps (``MotionTask/tremor``): summarised as a motion signal, never analysed for steps.
    public static let tremor = TaskKind("tremor")
    /// Balance and rest steps, standing or sitting still (``MotionTask/balance``, ``MotionTask/rest``):
    /// summarised as a motion signal, never analysed for steps.
    public static let balance = TaskKind("balance")
}

/// The analysis of tremor, balance and rest recordings in the registry: a signal-quality summary, never steps.
///
/// A recording whose task is not walking (``MotionTask``) is not analysed for steps: a still or trembling phone has
/// no gait to count, and counting anyway gave tremor recordings dozens of "steps". It gets the signal summary of
/// ``MotionSignalResult`` instead, with a warning that says why. Tremor features belong to a tremor analysis.
enum MotionSignalAnalysis: TaskAnalysis {
    /// Tremor steps, and balance and rest steps.
    public static let kinds: [TaskKind] = [.tremor, .balance]

    /// Tremor when a motion recording is of a tremor step, balance when one is of a balance, rest or other step
    /// (``LoadedRecording/motionTask``), whatever else the input holds.
    public static func claims(_ input: LoadedInput) -> [TaskKind] {
        let tasks = Set(input.recordings.filter(\.isMotion).compactMap(\.motionTask))
        return kinds.filter { kind in tasks.contains { kind == taskKind(of: $0) } }
    }

    /// The kind of a motion task's recordings: tremor, else balance (balance, rest and other steps: `balance.csv` in
    /// batch).
    public static func taskKind(of task: MotionTask) -> TaskKind { task == .tremor ? .tremor : .balance }
    /// Every result carries `kind` `motionSignal`.
    public static let resultKinds = ["motionSignal"]
    /// Why a tremor, balance or rest input gave no result.
    public static let nothingToAnalyse =
        "no tremor, balance or rest recording (accelerometer or device motion) to summarise"

    /// One result per tremor, balance or rest recording (see ``MotionSignalResult/results(for:)``).
    public static func analyze(_ input: LoadedInput, options: AnalysisOptions) -> [MotionSignalResult] {
        MotionSignalResult.results(for: input, imfFeatures: options.featureSet == .mhealthtools)
    }
}

extension MotionSignalAnalysis {
    /// The report's headlines of a motion-signal result (`docs/report.md`).
    public static let headlines: [ReportHeadline] = [
        .init(key: "task", label: "task", unit: ""),
        .init(key: "duration", label: "duration", unit: "s"),
        .init(key: "samplingRate", label: "sampling rate", unit: "Hz"),
        .init(key: "magnitudeSD", label: "|a| SD", unit: "g"),
    ]

}

extension MotionSignalAnalysis {
    /// Shortest tremor or balance recording summarised without `flag_short`, s (ResearchKit's steps last 10–30 s).
    public static let minimumFlagDuration = 5.0
    /// Lowest sampling rate without `flag_rate`, Hz: the tremor band reaches 12 Hz.
    public static let minimumFlagRate = 25.0
    /// Plausible mean |a| of a recording in g: a held phone measures gravity, 1 g.
    public static let plausibleMagnitude: ClosedRange<Double> = 0.5...1.5

    /// Tremor and balance flags: `short` under ``minimumFlagDuration``, `rate` under ``minimumFlagRate`` or > 1 %
    /// irregular intervals, `repaired` when the samples were repaired, `implausible` when the mean |a| in g lies
    /// outside ``plausibleMagnitude`` (wrong units, or gravity missing); `still` is not judged (the tasks ask the
    /// participant to hold still).
    public static func qualityFlags(of result: MotionSignalResult) -> QualityFlags {
        QualityFlags(
            short: result.duration < minimumFlagDuration,
            rate: QualityFlags.rateFlag(
                rate: result.samplingRate, hygiene: result.quality.hygiene, minimumRate: minimumFlagRate),
            repaired: result.quality.hygiene.wasRepaired,
            implausible: result.quality.accelerationUnit == "g"
                ? QualityFlags.outside(result.magnitudeMean, plausibleMagnitude) : nil)
    }
}

extension MotionSignalAnalysis {
    /// The study tables' measures: the SD of |a| (tremor amplitude, sway) and the recording's duration.
    public static let studyMeasures: [StudyMeasure] = [
        StudyMeasure("magnitudeSD", unit: "g", unitColumn: "accelerationUnit"),
        StudyMeasure("duration", unit: "s"),
    ]
}
