internal import RealModule

/// A tapering window for spectral analysis: rectangular, Hann, Hamming or Blackman.
///
/// Every window is a generalised cosine window (scipy `general_cosine`):
///
/// ```
/// w[n] = a₀ + a₁·cos(φₙ) + a₂·cos(2·φₙ),   φₙ = −π + n·2π/(M − 1),   n = 0 … M − 1
/// ```
///
/// | window        | a₀   | a₁        | a₂   | scipy name  |
/// |---------------|------|-----------|------|-------------|
/// | `rectangular` | 1    | 0         | 0    | `boxcar`    |
/// | `hann`        | 0.5  | 0.5       | 0    | `hann`      |
/// | `hamming`     | 0.54 | 1 − 0.54  | 0    | `hamming`   |
/// | `blackman`    | 0.42 | 0.5       | 0.08 | `blackman`  |
///
/// A ``WindowSymmetry/symmetric`` window of length N uses M = N (`scipy.signal.windows.hann(N, sym=True)`);
/// a ``WindowSymmetry/periodic`` one uses M = N + 1 and drops the last point
/// (`scipy.signal.get_window('hann', N)`, i.e. `fftbins=True`), which is the right choice for spectral
/// analysis. Values are computed in `Double` with the same operation order as scipy 1.17 (`numpy.linspace`
/// for φ, then `w = a₀ + a₁·cos(φ) + a₂·cos(2φ)`), so they agree with scipy to within an ulp or two of `cos`.
/// Blackman uses scipy's exact 0.42/0.5/0.08 coefficients, so its end points are ≈ −1.4·10⁻¹⁷, not 0.
/// Windows are dimensionless.
public enum Window: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Rectangular (boxcar) window: `w[n] = 1`. scipy `boxcar`.
    case rectangular
    /// Hann window: `w[n] = 0.5 − 0.5·cos(2πn/(M − 1))`. scipy `hann`.
    case hann
    /// Hamming window: `w[n] = 0.54 − 0.46·cos(2πn/(M − 1))`. scipy `hamming`.
    case hamming
    /// Blackman window: `w[n] = 0.42 − 0.5·cos(2πn/(M − 1)) + 0.08·cos(4πn/(M − 1))`. scipy `blackman`.
    case blackman

    /// Parses a scipy window name or alias, case-insensitively.
    ///
    /// Accepts the aliases of `scipy.signal.get_window`: `boxcar`/`box`/`ones`/`rect`/`rectangular`,
    /// `hann`/`han`, `hamming`/`hamm`/`ham`, `blackman`/`black`/`blk`. Returns `nil` for any other name.
    /// - Parameter scipyName: the name as passed to `scipy.signal.get_window`.
    public init?(scipyName: String) {
        switch scipyName.lowercased() {
        case "boxcar", "box", "ones", "rect", "rectangular": self = .rectangular
        case "hann", "han": self = .hann
        case "hamming", "hamm", "ham": self = .hamming
        case "blackman", "black", "blk": self = .blackman
        default: return nil
        }
    }

    /// The canonical scipy name of the window (`boxcar`, `hann`, `hamming`, `blackman`).
    public var scipyName: String {
        switch self {
        case .rectangular: "boxcar"
        case .hann: "hann"
        case .hamming: "hamming"
        case .blackman: "blackman"
        }
    }

    /// The scipy name, such as `hann`.
    public var description: String { scipyName }

    /// The window's N coefficients.
    ///
    /// `scipy.signal.get_window(name, N)` for `.periodic` (the default) and
    /// `scipy.signal.windows.<name>(N, sym=True)` for `.symmetric`. N = 0 gives an empty array and
    /// N = 1 gives `[1]`, as in scipy.
    /// - Parameters:
    ///   - count: the window length N ≥ 0.
    ///   - symmetry: periodic (for spectral analysis) or symmetric (for filter design).
    /// - Returns: N dimensionless coefficients. Allocates once: the result.
    /// - Complexity: O(N), with one or two `cos` evaluations per coefficient.
    public func coefficients(count: Int, symmetry: WindowSymmetry = .periodic) -> [Double] {
        coefficients(count: count, symmetry: symmetry, as: Double.self)
    }

    /// The window's N coefficients, rounded to `Scalar` (computed in `Double`, as scipy does).
    ///
    /// See ``coefficients(count:symmetry:)`` for the formula and the scipy reference.
    /// - Parameters:
    ///   - count: the window length N ≥ 0.
    ///   - symmetry: periodic (for spectral analysis) or symmetric (for filter design).
    ///   - type: the element type of the result, e.g. `Float.self`.
    /// - Returns: N dimensionless coefficients. Allocates once: the result.
    public func coefficients<Scalar: BinaryFloatingPoint>(
        count: Int, symmetry: WindowSymmetry = .periodic, as type: Scalar.Type
    ) -> [Scalar] {
        precondition(count >= 0, "Window.coefficients: count \(count) must be ≥ 0")
        return [Scalar](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(buffer, symmetry: symmetry)
            initialized = count
        }
    }

    /// The sums Σw and Σw² of the N-point window (coherent gain and noise bandwidth).
    ///
    /// - Parameters:
    ///   - count: the window length N ≥ 1.
    ///   - symmetry: periodic or symmetric.
    /// - Returns: the gains; allocates the window once, temporarily.
    public func gains(count: Int, symmetry: WindowSymmetry = .periodic) -> WindowGains {
        WindowGains(coefficients(count: count, symmetry: symmetry).span)
    }

    /// The cosine-series coefficients (a₀, a₁, a₂), spelled exactly as scipy computes them.
    var cosineTerms: (Double, Double, Double) {
        switch self {
        case .rectangular: (1, 0, 0)
        case .hann: (0.5, 1.0 - 0.5, 0)
        case .hamming: (0.54, 1.0 - 0.54, 0)
        case .blackman: (0.42, 0.50, 0.08)
        }
    }

    /// Writes the window into `buffer`, whose whole length is the window length.
    ///
    /// Allocation-free.
    func fill<Scalar: BinaryFloatingPoint>(_ buffer: UnsafeMutableBufferPointer<Scalar>, symmetry: WindowSymmetry) {
        let n = buffer.count
        if n == 0 { return }
        if n == 1 || self == .rectangular {
            buffer.update(repeating: 1)
            return
        }
        // scipy `_extend`: a periodic window is the symmetric window of length N + 1, truncated.
        let m = symmetry == .periodic ? n + 1 : n
        let (a0, a1, a2) = cosineTerms
        // numpy.linspace(-π, π, m): φᵢ = i·step + (−π), and the last point is exactly π.
        let step = (Double.pi - -Double.pi) / Double(m - 1)
        for i in 0..<n {
            let phi = i == m - 1 ? Double.pi : Double(i) * step + -Double.pi
            var w = a0 + a1 * Double.cos(phi)
            if a2 != 0 { w += a2 * Double.cos(2 * phi) }
            buffer[i] = Scalar(w)
        }
    }
}

/// Whether a window is periodic (DFT-even, for spectral analysis) or symmetric (for filter design).
public enum WindowSymmetry: Sendable, Hashable {
    /// The first N points of the symmetric window of length N + 1: scipy `get_window(name, N)`, `fftbins=True`.
    case periodic
    /// Symmetric about its centre, `w[n] = w[N − 1 − n]`: scipy `windows.<name>(N, sym=True)`.
    case symmetric
}
