/// Rules ``TimeSeriesHygiene`` uses to estimate the sampling rate and to find gaps.
///
/// The defaults match ``ResamplingOptions``, so a series cleaned and then resampled is judged by the same rules
/// (see ``resamplingOptions``).
public struct TimeSeriesHygieneOptions: Sendable, Hashable, Codable {
    /// Relative gap rule: an interval `Δt > gapFactor × nominal interval` is a gap.
    ///
    /// Must be finite and > 1. Default 2.5.
    public var gapFactor: Double
    /// Absolute gap rule, in seconds: an interval `Δt > maximumInterval` is a gap as well.
    ///
    /// `nil` (the default) disables the rule. Must be > 0 when set.
    public var maximumInterval: Double?
    /// Width of the band of intervals trusted for the rate estimate.
    ///
    /// Intervals outside `[m / outlierFactor, m × outlierFactor]`, with `m` the median interval, are excluded.
    /// Must be finite and > 1. Default 2.5.
    public var outlierFactor: Double
    /// How many example input rows each finding lists in the report (backward steps, duplicates and so on).
    ///
    /// Must be ≥ 0. Default 5.
    public var exampleLimit: Int

    /// Creates hygiene rules.
    ///
    /// - Parameters:
    ///   - gapFactor: Relative gap threshold (× nominal interval, > 1).
    ///   - maximumInterval: Absolute gap threshold in seconds (> 0), or `nil` to disable.
    ///   - outlierFactor: Band (> 1) around the median interval used for the rate estimate.
    ///   - exampleLimit: Example row positions listed per finding (≥ 0).
    public init(
        gapFactor: Double = 2.5, maximumInterval: Double? = nil, outlierFactor: Double = 2.5, exampleLimit: Int = 5
    ) {
        self.gapFactor = gapFactor
        self.maximumInterval = maximumInterval
        self.outlierFactor = outlierFactor
        self.exampleLimit = exampleLimit
    }

    /// The same gap and rate rules for ``UniformResampling``.
    public var resamplingOptions: ResamplingOptions {
        ResamplingOptions(gapFactor: gapFactor, maximumInterval: maximumInterval, outlierFactor: outlierFactor)
    }

    /// Stops with the offending value if a field is out of range (a programmer error, not a data error).
    func check() {
        precondition(
            gapFactor > 1 && gapFactor.isFinite, "gapFactor must be finite and greater than 1, was \(gapFactor)")
        if let maximumInterval {
            precondition(maximumInterval > 0, "maximumInterval must be positive seconds, was \(maximumInterval)")
        }
        precondition(
            outlierFactor > 1 && outlierFactor.isFinite,
            "outlierFactor must be finite and greater than 1, was \(outlierFactor)")
        precondition(exampleLimit >= 0, "exampleLimit must be non-negative, was \(exampleLimit)")
    }
}
