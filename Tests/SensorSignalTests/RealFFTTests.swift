import ComplexModule
import RealModule
import SensorSignal
import Testing

/// A deterministic test input of `count` samples in [−1.5, 1.5] (no random numbers).
private func testInput(count: Int, seed: Int = 0) -> [Double] {
    (0..<count).map { n in
        let t = Double(n)
        return Double.sin(0.37 * t + 0.1 * Double(seed)) + 0.5 * Double.cos(1.3 * t * t / 7 + Double(seed))
    }
}

/// The forward DFT by definition, in `Double`.
///
/// `X[k] = Σₙ x[n]·e^(−2πi·k·n/N)` for `k = 0 … N/2`; the angle is reduced with `(k·n) mod N` so it stays
/// accurate for large N.
private func directDFT(_ x: [Double]) -> [Complex<Double>] {
    let n = x.count
    return (0..<(n / 2 + 1)).map { k in
        var re = 0.0
        var im = 0.0
        for j in 0..<n {
            let angle = -2 * Double.pi * Double((k * j) % n) / Double(n)
            re += x[j] * Double.cos(angle)
            im += x[j] * Double.sin(angle)
        }
        return Complex(re, im)
    }
}

/// The largest |X[k] − D[k]| over the bins, in `Double`.
private func maxError<S: FFTScalar>(_ actual: [Complex<S>], _ expected: [Complex<Double>]) -> Double {
    precondition(
        actual.count == expected.count && !expected.isEmpty, "maxError: \(actual.count) vs \(expected.count) bins")
    var worst = 0.0
    for (a, e) in zip(actual, expected) {
        let d = Complex(Double(a.real) - e.real, Double(a.imaginary) - e.imaginary)
        worst = max(worst, d.length)
    }
    return worst
}

/// `RealFFT` against the direct DFT, numpy, physics and concurrent planning.
@Suite struct RealFFTTests {
    static let lengths = [1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 64, 100, 1000]

    @Test(arguments: lengths)
    func doubleMatchesDirectDFT(count: Int) throws {
        let x = testInput(count: count)
        let fft = try RealFFT<Double>(count: count)
        let spectrum = fft.forward(x)
        #expect(spectrum.count == count / 2 + 1 && fft.spectrumCount == spectrum.count)
        let scale = x.map(abs).reduce(0, +)  // ≥ every |X[k]|
        #expect(maxError(spectrum, directDFT(x)) <= 1e-13 * scale)
    }

    @Test(arguments: lengths)
    func floatMatchesDirectDFT(count: Int) throws {
        let x = testInput(count: count).map { Float($0) }
        let fft = try RealFFT<Float>(count: count)
        let scale = x.map { abs(Double($0)) }.reduce(0, +)
        #expect(maxError(fft.forward(x), directDFT(x.map { Double($0) })) <= 1e-6 * scale)
    }

    @Test(arguments: lengths)
    func inverseUndoesForward(count: Int) throws {
        let x = testInput(count: count, seed: 3)
        let fft = try RealFFT<Double>(count: count)
        let y = fft.inverse(fft.forward(x))
        #expect(!x.isEmpty && y.count == x.count)
        #expect(zip(x, y).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-14) })
        let xf = x.map { Float($0) }
        let fftf = try RealFFT<Float>(count: count)
        let yf = fftf.inverse(fftf.forward(xf))
        #expect(yf.count == xf.count)
        #expect(zip(xf, yf).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-5) })
    }

    @Test func matchesNumpyRFFT() throws {
        let cases = [
            (SpectralReference.rfftInput8, SpectralReference.rfftInput8Real, SpectralReference.rfftInput8Imag),
            (SpectralReference.rfftInput7, SpectralReference.rfftInput7Real, SpectralReference.rfftInput7Imag),
        ]
        for (input, real, imaginary) in cases {
            let spectrum = try RealFFT<Double>(count: input.count).forward(input)
            let expected = zip(real, imaginary).map { Complex($0, $1) }
            #expect(maxError(spectrum, expected) <= 1e-14)
            let single = try RealFFT<Float>(count: input.count).forward(input.map { Float($0) })
            #expect(maxError(single, expected) <= 1e-5)
        }
    }

    /// The largest bin of a sine is within ±1 of f·N/fs.
    @Test(arguments: [(100.0, 1.8, 3000), (44_100.0, 1_000.0, 4096), (8_000.0, 437.3, 1001), (50.0, 24.0, 64)])
    func sinePeakBin(sampleRate: Double, frequency: Double, count: Int) throws {
        let x = (0..<count).map { n in 0.7 * Double.sin(2 * Double.pi * frequency * Double(n) / sampleRate) }
        let fft = try RealFFT<Double>(count: count)
        var power: [Double] = []
        fft.powerSpectrum(x.span, into: &power)
        let peak = try #require(power.indices.max { power[$0] < power[$1] })
        #expect(abs(Double(peak) - frequency * Double(count) / sampleRate) <= 1)
        var magnitudes: [Double] = []
        fft.magnitudes(x.span, into: &magnitudes)
        #expect(magnitudes[peak].isApproximatelyEqual(to: power[peak].squareRoot(), relativeTolerance: 1e-14))
    }

    /// Parseval: `Σ x² = (1/N)·(|X₀|² + 2·Σ|Xₖ|² + |X_{N/2}|²)` (the last term only for even N).
    @Test(arguments: [1, 2, 7, 64, 99, 1000])
    func parseval(count: Int) throws {
        let x = testInput(count: count, seed: 5)
        let energy = x.map { $0 * $0 }.reduce(0, +)
        let fft = try RealFFT<Double>(count: count)
        var power: [Double] = []
        fft.powerSpectrum(x.span, into: &power)
        var total = 0.0
        for k in power.indices {
            let paired = k > 0 && !(count % 2 == 0 && k == count / 2)
            total += power[k] * (paired ? 2 : 1)
        }
        #expect((total / Double(count)).isApproximatelyEqual(to: energy, relativeTolerance: 1e-12))
    }

    /// The zero-copy interface: executeForward preserves the input, executeInverse is unnormalised (×N).
    @Test func zeroCopyInterface() throws {
        let x = testInput(count: 12)
        let fft = try RealFFT<Double>(count: 12)
        let copied = fft.forward(x)
        let (spectrum, preserved) = fft.withBuffers { real, spectrum in
            _ = real.update(fromContentsOf: x)
            fft.executeForward()
            return (Array(spectrum), Array(real))
        }
        #expect(maxError(spectrum, copied.map { Complex(Double($0.real), Double($0.imaginary)) }) == 0)
        #expect(preserved == x)
        let roundTrip = fft.withBuffers { real, _ in
            fft.executeInverse()
            return Array(real)
        }
        #expect(!x.isEmpty && roundTrip.count == x.count)
        #expect(zip(roundTrip, x).allSatisfy { $0.isApproximatelyEqual(to: 12 * $1, absoluteTolerance: 1e-13) })
    }

    @Test func cacheAndErrors() throws {
        let cache = FFTCache<Float>()
        let a = try cache.transform(count: 48)
        let b = try cache.transform(count: 48)
        #expect(a === b)
        #expect(try cache.transform(count: 49) !== a)
        #expect(throws: FFTError.invalidLength(0)) { try RealFFT<Double>(count: 0) }
        #expect(throws: FFTError.invalidLength(-3)) { try RealFFT<Float>(count: -3) }
    }

    /// The C bridge is internal, so the public protocol has no requirements another type could fake: a type FFTW
    /// cannot transform is refused with an error instead of being handed to fftw with the wrong element size.
    @Test func aScalarFFTWCannotTransformIsRefused() {
        #expect(throws: FFTError.unsupportedScalar("Float16")) { try RealFFT<Float16>(count: 8) }
        #expect(FFTError.unsupportedScalar("Float16").description.contains("only Float and Double"))
    }

    /// Eight tasks plan and run 34 lengths each, concurrently and in different orders.
    ///
    /// Every result is checked against the direct DFT. Exercises the process-wide planner lock: plans are created
    /// under it while other threads execute cached plans.
    @Test func concurrentPlanningAndExecution() async throws {
        let lengths = Array(2...31) + [97, 120, 127, 210]
        let failures = await withTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    // Each task walks the lengths in its own rotation, so plans are created in different orders.
                    let rotation = (task * 5) % lengths.count
                    let order = Array(lengths[rotation...] + lengths[..<rotation])
                    for (i, count) in order.enumerated() {
                        let x = testInput(count: count, seed: task + i)
                        let expected = directDFT(x)
                        let scale = x.map(abs).reduce(0, +)
                        do {
                            if (task + i) % 2 == 0 {
                                let error = maxError(try RealFFT<Double>(count: count).forward(x), expected)
                                if error > 1e-13 * scale { failures.append("task \(task) Double \(count): \(error)") }
                            } else {
                                let fft = try RealFFT<Float>(count: count)
                                let error = maxError(fft.forward(x.map { Float($0) }), expected)
                                if error > 1e-5 * scale { failures.append("task \(task) Float \(count): \(error)") }
                            }
                        } catch {
                            failures.append("task \(task) length \(count): \(error)")
                        }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for await failures in group { all += failures }
            return all
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}

extension Float16: FFTScalar {}
