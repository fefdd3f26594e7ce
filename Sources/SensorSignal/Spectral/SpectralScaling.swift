/// How a one-sided power spectrum is normalised: as a density (units²/Hz) or a spectrum (units²).
///
/// With window `w` (sums S₁ = Σw, S₂ = Σw²), DFT `X[k]` of the windowed frame and sample rate fs:
///
/// ```
/// density:  P[k] = c[k]·|X[k]|² / (fs·S₂)     units²/Hz;  Σₖ P[k]·Δf ≈ mean square of the signal
/// spectrum: P[k] = c[k]·|X[k]|² / S₁²         units²;     a sine of amplitude A on a bin gives A²/2
/// ```
///
/// where `c[k] = 2` for the bins that stand for both ±f (all but DC, and but Nyquist for an even FFT
/// length), else 1. Same meaning as `scaling=` in `scipy.signal.welch` and `scipy.signal.periodogram`.
public enum SpectralScaling: String, Sendable, Hashable, CaseIterable {
    /// Power spectral density in units²/Hz (scipy `scaling='density'`, the `welch` default).
    case density
    /// Power spectrum in units² (scipy `scaling='spectrum'`): the squared RMS amplitude per bin.
    case spectrum
}
