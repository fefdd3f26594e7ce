/// Errors from IIR filter design and filtering (``Butterworth``, ``SecondOrderSections``, ``SOSFilter``).
///
/// Every case names the offending value and its unit, so a batch error column is self-explanatory.
/// Programmer errors (a state array of the wrong length) are `precondition` failures instead.
public enum FilterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The filter order is below 1.
    case invalidOrder(Int)
    /// The sampling rate (Hz) is not a finite number above 0.
    case invalidSampleRate(hertz: Double)
    /// A cutoff frequency (Hz) is not inside the open interval (0, fs/2) for the sampling rate `sampleRate` (Hz).
    case invalidCutoff(hertz: Double, sampleRate: Double)
    /// The band edges (Hz) of a band-pass or band-stop design are not ordered `low < high`.
    case invalidBand(lowHertz: Double, highHertz: Double)
    /// A coefficient row (0-based index) is malformed: wrong length, not finite, or `a0 == 0`.
    case invalidCoefficients(row: Int, reason: String)
    /// A zero-pole-gain description cannot be turned into second-order sections.
    case invalidZeroPoleGain(reason: String)
    /// A section (0-based index) has `1 + a1 + a2 == 0` (a pole at z = 1), so its step response has no
    /// steady state and `sosfilt_zi` is undefined.
    case steadyStateUndefined(section: Int)
    /// The signal (samples) is too short for zero-phase filtering: it needs at least `minimumLength`
    /// samples (scipy `padlen + 1`).
    case signalTooShort(length: Int, minimumLength: Int)

    /// A sentence naming the offending value and its unit.
    public var description: String {
        switch self {
        case .invalidOrder(let order):
            return "filter order \(order) is invalid: it must be at least 1"
        case .invalidSampleRate(let hertz):
            return "sampling rate \(hertz) Hz is invalid: it must be a finite number above 0 Hz"
        case .invalidCutoff(let hertz, let sampleRate):
            return
                "cutoff frequency \(hertz) Hz is invalid: it must be above 0 Hz and below the Nyquist frequency "
                + "fs/2 = \(sampleRate / 2) Hz (fs = \(sampleRate) Hz)"
        case .invalidBand(let low, let high):
            return "band edges are invalid: the low cutoff \(low) Hz must be below the high cutoff \(high) Hz"
        case .invalidCoefficients(let row, let reason):
            return "second-order section row \(row) is invalid: \(reason)"
        case .invalidZeroPoleGain(let reason):
            return "zero-pole-gain description is invalid: \(reason)"
        case .steadyStateUndefined(let section):
            return
                "second-order section \(section) has a pole at z = 1 (1 + a1 + a2 == 0), so its step response "
                + "has no steady state"
        case .signalTooShort(let length, let minimumLength):
            return
                "signal of \(length) samples is too short for zero-phase filtering: it needs at least "
                + "\(minimumLength) samples (padlen + 1)"
        }
    }
}
