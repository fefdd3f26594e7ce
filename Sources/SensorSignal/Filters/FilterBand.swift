/// Which frequencies a filter keeps, with its cutoff frequencies in Hz.
///
/// The cutoffs are the −3.0103 dB (half-power) points of a Butterworth design. Every cutoff must lie in
/// the open interval (0, fs/2) of the sampling rate it is designed for, and `low < high` for the band
/// cases; designs check this and throw ``FilterError``.
public enum FilterBand: Sendable, Equatable, Hashable {
    /// Keeps frequencies below `cutoff` (Hz); scipy `btype='lowpass'`.
    case lowpass(cutoff: Double)
    /// Keeps frequencies above `cutoff` (Hz); scipy `btype='highpass'`.
    case highpass(cutoff: Double)
    /// Keeps frequencies between `low` and `high` (Hz); scipy `btype='bandpass'`.
    case bandpass(low: Double, high: Double)
    /// Rejects frequencies between `low` and `high` (Hz); scipy `btype='bandstop'`.
    case bandstop(low: Double, high: Double)

    /// The cutoff frequencies in Hz, in the order scipy takes them as `Wn` (one or two values).
    public var cutoffs: [Double] {
        switch self {
        case .lowpass(let f), .highpass(let f): return [f]
        case .bandpass(let low, let high), .bandstop(let low, let high): return [low, high]
        }
    }
}
