/// Rules ``UniformResampling`` uses to estimate the sampling interval and to detect gaps.
///
/// Defaults suit phone motion logs (15–100 Hz with jitter, pauses when the app is backgrounded):
/// an interval longer than 2.5 × the nominal interval is a gap, and intervals outside
/// [nominal / 2.5, 2.5 × nominal] are ignored when estimating the rate.
public struct ResamplingOptions: Sendable, Hashable, Codable {
    /// Relative gap rule: an interval `Δt > gapFactor × nominal interval` is a gap.
    ///
    /// `nil` disables the rule. Must be > 1 when set. Default 2.5.
    public var gapFactor: Double?
    /// Absolute gap rule, in seconds: an interval `Δt > maximumInterval` is a gap.
    ///
    /// `nil` (the default) disables the rule. Must be > 0 when set.
    public var maximumInterval: Double?
    /// Width of the band of intervals trusted for the rate estimate.
    ///
    /// Intervals outside `[m / outlierFactor, m × outlierFactor]`, with `m` the median interval, are excluded
    /// from the estimate. Must be > 1. Default 2.5.
    public var outlierFactor: Double

    /// Creates resampling rules.
    ///
    /// - Parameters:
    ///   - gapFactor: Relative gap threshold (× nominal interval, > 1), or `nil` to disable.
    ///   - maximumInterval: Absolute gap threshold in seconds (> 0), or `nil` to disable.
    ///   - outlierFactor: Band (> 1) around the median interval used for the rate estimate.
    public init(gapFactor: Double? = 2.5, maximumInterval: Double? = nil, outlierFactor: Double = 2.5) {
        self.gapFactor = gapFactor
        self.maximumInterval = maximumInterval
        self.outlierFactor = outlierFactor
    }

    /// Throws if a field is out of range.
    func validate() throws(ResamplingError) {
        if let gapFactor, !(gapFactor > 1 && gapFactor.isFinite) {
            throw .invalidOptions(reason: "gapFactor must be finite and greater than 1, was \(gapFactor)")
        }
        if let maximumInterval, !(maximumInterval > 0) {
            throw .invalidOptions(reason: "maximumInterval must be positive seconds, was \(maximumInterval)")
        }
        if !(outlierFactor > 1 && outlierFactor.isFinite) {
            throw .invalidOptions(reason: "outlierFactor must be finite and greater than 1, was \(outlierFactor)")
        }
    }
}
