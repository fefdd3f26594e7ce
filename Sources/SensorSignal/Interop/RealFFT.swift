public import ComplexModule
internal import CFFTW
public import RealModule

/// A floating-point type FFTW can transform: `Float` (fftwf) or `Double` (fftw).
///
/// Only `Float` and `Double` are transformed; ``RealFFT/init(count:effort:)`` throws
/// ``FFTError/unsupportedScalar(_:)`` for any other conforming type. The C bridge behind it is internal
/// (``FFTW``), so no public declaration mentions an FFTW type or handle.
public protocol FFTScalar: Real, BinaryFloatingPoint, Sendable {}

extension Double: FFTScalar {}
extension Float: FFTScalar {}

/// Direction of a real transform.
enum FFTDirection: Sendable {
    case forward, inverse
}

/// The FFTW calls for one scalar type, chosen by the type itself: `Float` goes to `fftwf_*`, `Double` to `fftw_*`.
///
/// Each entry point tests `Scalar.self == Float.self`, which the optimiser folds to a constant in code specialised
/// for a concrete scalar (as ``RealFFT``'s copying methods are), leaving the direct C call the public protocol
/// requirements used to make; unspecialised code pays one metatype comparison instead of a witness-table call.
/// Callers guarantee `Scalar` is `Float` or `Double` (``RealFFT`` checks it once, at creation).
enum FFTWBridge<Scalar: FFTScalar> {
    /// True for `Float` (fftwf), false for `Double` (fftw).
    @inline(__always) static var isSinglePrecision: Bool { Scalar.self == Float.self }

    /// True for the two types FFTW transforms.
    static var isSupported: Bool { Scalar.self == Float.self || Scalar.self == Double.self }

    /// Allocates `count` SIMD-aligned scalars with FFTW's allocator.
    static func allocate(count: Int) -> UnsafeMutableRawPointer? {
        isSinglePrecision
            ? UnsafeMutableRawPointer(fftwf_alloc_real(count)) : UnsafeMutableRawPointer(fftw_alloc_real(count))
    }

    /// Frees memory from ``allocate(count:)``.
    static func free(_ pointer: UnsafeMutableRawPointer) {
        if isSinglePrecision { fftwf_free(pointer) } else { fftw_free(pointer) }
    }

    /// Creates a plan of `direction` for `length`, on the given scratch arrays; nil when FFTW cannot.
    static func plan(
        length: Int, direction: FFTDirection, real: UnsafeMutableRawPointer, complex: UnsafeMutableRawPointer,
        flags: UInt32
    ) -> OpaquePointer? {
        if isSinglePrecision {
            let r = real.assumingMemoryBound(to: Float.self)
            let c = UnsafeMutablePointer<fftwf_complex>(OpaquePointer(complex))
            switch direction {
            case .forward: return fftwf_plan_dft_r2c_1d(Int32(length), r, c, flags)
            case .inverse: return fftwf_plan_dft_c2r_1d(Int32(length), c, r, flags)
            }
        }
        let r = real.assumingMemoryBound(to: Double.self)
        let c = UnsafeMutablePointer<fftw_complex>(OpaquePointer(complex))
        switch direction {
        case .forward: return fftw_plan_dft_r2c_1d(Int32(length), r, c, flags)
        case .inverse: return fftw_plan_dft_c2r_1d(Int32(length), c, r, flags)
        }
    }

    /// Executes `plan` on new arrays with the planning arrays' alignment (FFTW's thread-safe new-array execute).
    @inline(__always)
    static func execute(
        _ plan: OpaquePointer, direction: FFTDirection, real: UnsafeMutableRawPointer, complex: UnsafeMutableRawPointer
    ) {
        if isSinglePrecision {
            let r = real.assumingMemoryBound(to: Float.self)
            let c = UnsafeMutablePointer<fftwf_complex>(OpaquePointer(complex))
            switch direction {
            case .forward: fftwf_execute_dft_r2c(plan, r, c)
            case .inverse: fftwf_execute_dft_c2r(plan, c, r)
            }
            return
        }
        let r = real.assumingMemoryBound(to: Double.self)
        let c = UnsafeMutablePointer<fftw_complex>(OpaquePointer(complex))
        switch direction {
        case .forward: fftw_execute_dft_r2c(plan, r, c)
        case .inverse: fftw_execute_dft_c2r(plan, c, r)
        }
    }
}

/// A real-input discrete Fourier transform of one fixed length, forward and inverse, backed by FFTW.
///
/// Forward: `X[k] = Σₙ x[n]·e^(−2πi·k·n/N)` for `k = 0…N/2` (N/2+1 bins, numpy `rfft` convention,
/// unnormalised). Inverse: `x[n] = (1/N)·Σₖ X[k]·e^(2πi·k·n/N)` (numpy `irfft`), so
/// `inverse(forward(x)) == x` up to rounding. Bin `k` is at frequency `k·fs/N` Hz.
///
/// Plans are cached process-wide per length and precision, so creating a `RealFFT` for a length
/// seen before costs only its two buffer allocations. Each instance owns SIMD-aligned input and
/// spectrum buffers that every call reuses: no per-call allocation except where a method returns a
/// new array.
///
/// Not `Sendable`: an instance (and its buffers) belongs to one task at a time. Different instances of
/// the same length may run concurrently on different threads (FFTW's new-array execute is thread-safe).
public final class RealFFT<Scalar: FFTScalar> {
    /// The transform length N (real samples).
    public let count: Int
    /// Number of complex bins in a spectrum: N/2 + 1.
    public var spectrumCount: Int { count / 2 + 1 }

    private let forwardPlan: SharedPlan
    private let inversePlan: SharedPlan
    private let realBuffer: UnsafeMutableBufferPointer<Scalar>
    private let spectrumBuffer: UnsafeMutableBufferPointer<Complex<Scalar>>

    /// Prepares a transform of `count` real samples.
    /// - Parameters:
    ///   - count: transform length N ≥ 1; any length (FFTW is fastest for products of small primes).
    ///   - effort: planning effort for a length not yet planned in this process.
    /// - Throws: ``FFTError/invalidLength(_:)`` for N < 1, ``FFTError/allocationFailed(length:)``,
    ///   ``FFTError/planCreationFailed(length:)``, ``FFTError/unsupportedScalar(_:)`` for a `Scalar` other than
    ///   `Float` and `Double`.
    public init(count: Int, effort: FFTPlanningEffort = .estimate) throws(FFTError) {
        guard FFTWBridge<Scalar>.isSupported else { throw .unsupportedScalar(String(describing: Scalar.self)) }
        guard count >= 1, count <= Int(Int32.max) else { throw .invalidLength(count) }
        self.count = count
        let bins = count / 2 + 1
        guard let realRaw = FFTWBridge<Scalar>.allocate(count: count) else { throw .allocationFailed(length: count) }
        guard let complexRaw = FFTWBridge<Scalar>.allocate(count: 2 * bins) else {
            FFTWBridge<Scalar>.free(realRaw)
            throw .allocationFailed(length: count)
        }
        realBuffer = UnsafeMutableBufferPointer(
            start: realRaw.bindMemory(to: Scalar.self, capacity: count), count: count)
        spectrumBuffer = UnsafeMutableBufferPointer(
            start: complexRaw.bindMemory(to: Complex<Scalar>.self, capacity: bins), count: bins)
        realBuffer.initialize(repeating: 0)
        spectrumBuffer.initialize(repeating: Complex(0, 0))

        func makePlan(_ direction: FFTDirection) throws(FFTError) -> SharedPlan {
            let key = PlanKey(
                length: count, isSinglePrecision: FFTWBridge<Scalar>.isSinglePrecision,
                direction: direction == .forward ? .realToComplex : .complexToReal, effort: effort)
            return try FFTWPlanner.plan(for: key) {
                // Plan on scratch arrays: FFTW_MEASURE overwrites its arrays while planning.
                guard let r = FFTWBridge<Scalar>.allocate(count: count), let c = FFTWBridge<Scalar>.allocate(count: 2 * bins)
                else { return nil }
                defer {
                    FFTWBridge<Scalar>.free(r)
                    FFTWBridge<Scalar>.free(c)
                }
                return FFTWBridge<Scalar>.plan(length: count, direction: direction, real: r, complex: c, flags: effort.flags)
            }
        }
        // Count this instance before taking plan pointers, so releaseCachedPlans() cannot free them
        // between lookup and use.
        FFTWPlanner.instanceCreated()
        do {
            forwardPlan = try makePlan(.forward)
            inversePlan = try makePlan(.inverse)
        } catch {
            FFTWPlanner.instanceDestroyed()
            FFTWBridge<Scalar>.free(realRaw)
            FFTWBridge<Scalar>.free(complexRaw)
            throw error
        }
    }

    deinit {
        FFTWPlanner.instanceDestroyed()
        FFTWBridge<Scalar>.free(UnsafeMutableRawPointer(realBuffer.baseAddress!))
        FFTWBridge<Scalar>.free(UnsafeMutableRawPointer(spectrumBuffer.baseAddress!))
    }

    // MARK: Zero-copy interface

    /// Gives direct access to the instance's aligned buffers: `real` (N samples) and `spectrum`
    /// (N/2+1 bins). Fill one, call ``executeForward()`` or ``executeInverse()``, read the other.
    /// The pointers are valid only inside `body`.
    public func withBuffers<R, E: Error>(
        _ body: (_ real: UnsafeMutableBufferPointer<Scalar>, _ spectrum: UnsafeMutableBufferPointer<Complex<Scalar>>)
            throws(E) -> R
    ) throws(E) -> R {
        try body(realBuffer, spectrumBuffer)
    }

    /// Transforms the real buffer into the spectrum buffer (unnormalised). The real buffer is preserved.
    public func executeForward() {
        FFTWBridge<Scalar>.execute(
            forwardPlan.raw, direction: .forward, real: UnsafeMutableRawPointer(realBuffer.baseAddress!),
            complex: UnsafeMutableRawPointer(spectrumBuffer.baseAddress!))
    }

    /// Transforms the spectrum buffer into the real buffer, *without* the 1/N factor (FFTW's c2r).
    /// The spectrum buffer is overwritten (FFTW's c2r destroys its input).
    public func executeInverse() {
        FFTWBridge<Scalar>.execute(
            inversePlan.raw, direction: .inverse, real: UnsafeMutableRawPointer(realBuffer.baseAddress!),
            complex: UnsafeMutableRawPointer(spectrumBuffer.baseAddress!))
    }

    // MARK: Copying interface

    /// Forward transform of `input` (exactly N samples) into `spectrum`, which is resized to N/2+1.
    /// Allocates only when `spectrum` does not already hold N/2+1 elements.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func forward(_ input: Span<Scalar>, into spectrum: inout [Complex<Scalar>]) {
        precondition(input.count == count, "RealFFT.forward: input has \(input.count) samples, plan is for \(count)")
        input.withUnsafeBufferPointer { src in
            _ = realBuffer.update(fromContentsOf: src)
        }
        executeForward()
        if spectrum.count != spectrumCount {
            spectrum = [Complex<Scalar>](repeating: Complex(0, 0), count: spectrumCount)
        }
        spectrum.withUnsafeMutableBufferPointer { dst in
            _ = dst.update(fromContentsOf: spectrumBuffer)
        }
    }

    /// Forward transform of `input` (exactly N samples); returns N/2+1 complex bins (numpy `rfft`).
    public func forward(_ input: [Scalar]) -> [Complex<Scalar>] {
        var out: [Complex<Scalar>] = []
        forward(input.span, into: &out)
        return out
    }

    /// Inverse transform of `spectrum` (N/2+1 bins) into `output` (resized to N), normalised by 1/N
    /// (numpy `irfft`). The imaginary parts of the DC bin (and of the Nyquist bin for even N) are ignored.
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func inverse(_ spectrum: Span<Complex<Scalar>>, into output: inout [Scalar]) {
        precondition(
            spectrum.count == spectrumCount,
            "RealFFT.inverse: spectrum has \(spectrum.count) bins, plan expects \(spectrumCount)")
        spectrum.withUnsafeBufferPointer { src in
            _ = spectrumBuffer.update(fromContentsOf: src)
        }
        executeInverse()
        if output.count != count { output = [Scalar](repeating: 0, count: count) }
        let scale = 1 / Scalar(count)
        output.withUnsafeMutableBufferPointer { dst in
            for i in 0..<count { dst[i] = realBuffer[i] * scale }
        }
    }

    /// Inverse transform (normalised by 1/N, numpy `irfft` with `n = N`).
    public func inverse(_ spectrum: [Complex<Scalar>]) -> [Scalar] {
        var out: [Scalar] = []
        inverse(spectrum.span, into: &out)
        return out
    }

    /// Magnitudes |X[k]| of the forward transform of `input` into `magnitudes` (N/2+1 values).
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func magnitudes(_ input: Span<Scalar>, into magnitudes: inout [Scalar]) {
        powerSpectrum(input, into: &magnitudes)
        magnitudes.withUnsafeMutableBufferPointer { m in
            for i in m.indices { m[i] = m[i].squareRoot() }
        }
    }

    /// Squared magnitudes |X[k]|² of the forward transform of `input` into `power` (N/2+1 values),
    /// unnormalised (scale as needed: e.g. divide by N² for the two-sided power of a bin).
    @specialized(where Scalar == Double)
    @specialized(where Scalar == Float)
    public func powerSpectrum(_ input: Span<Scalar>, into power: inout [Scalar]) {
        precondition(input.count == count, "RealFFT.powerSpectrum: input has \(input.count) samples, plan is for \(count)")
        input.withUnsafeBufferPointer { src in
            _ = realBuffer.update(fromContentsOf: src)
        }
        executeForward()
        if power.count != spectrumCount { power = [Scalar](repeating: 0, count: spectrumCount) }
        power.withUnsafeMutableBufferPointer { p in
            for k in 0..<spectrumCount {
                let c = spectrumBuffer[k]
                p[k] = c.real * c.real + c.imaginary * c.imaginary
            }
        }
    }

    /// Destroys every cached FFTW plan of the process, if no `RealFFT` instance is alive (their plans
    /// would dangle); later instances re-plan.
    /// - Returns: true if the plans were released, false if live instances prevented it.
    @discardableResult
    public static func releaseCachedPlans() -> Bool { FFTWPlanner.releaseAll() }

    /// Number of FFTW plans currently cached in the process (two per length and precision).
    public static var cachedPlanCount: Int { FFTWPlanner.cachedPlanCount }
}

/// A small per-task cache of ``RealFFT`` instances by length, so code that transforms frames of a
/// few recurring lengths never re-allocates buffers. Not `Sendable`: one per worker task.
public final class FFTCache<Scalar: FFTScalar> {
    private var transforms: [Int: RealFFT<Scalar>] = [:]
    private let effort: FFTPlanningEffort

    /// Creates an empty cache whose transforms are planned with `effort`.
    public init(effort: FFTPlanningEffort = .estimate) { self.effort = effort }

    /// The transform of length `count`, created on first use.
    public func transform(count: Int) throws(FFTError) -> RealFFT<Scalar> {
        if let t = transforms[count] { return t }
        let t = try RealFFT<Scalar>(count: count, effort: effort)
        transforms[count] = t
        return t
    }
}
