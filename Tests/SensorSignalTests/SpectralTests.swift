import ComplexModule
import RealModule
import SensorSignal
import Testing

// MARK: - Helpers (file-private)

/// The deterministic Welch test input, the same formula as `Tools/reference/spectral_reference.py`:
/// `x[i] = sin(2π·0.11·i) + 0.5·cos(2π·0.27·i + 0.3) + 0.02·i + 0.25·sin(0.05·i·i)`.
private func welchSignal(_ count: Int) -> [Double] {
    (0..<count).map { i in
        let t = Double(i)
        return Double.sin(2 * Double.pi * 0.11 * t) + 0.5 * Double.cos(2 * Double.pi * 0.27 * t + 0.3) + 0.02 * t
            + 0.25 * Double.sin(0.05 * t * t)
    }
}

/// A sine `amplitude·sin(2π·frequency·n/fs + phase)` plus `offset`.
private func sine(
    count: Int, frequency: Double, sampleRate: Double, amplitude: Double = 1, phase: Double = 0.3, offset: Double = 0
) -> [Double] {
    (0..<count).map { n in offset + amplitude * Double.sin(2 * Double.pi * frequency * Double(n) / sampleRate + phase) }
}

/// Deterministic standard-normal samples (SplitMix64 + Box–Muller), for the noise tests.
private func gaussianNoise(count: Int, seed: UInt64, sigma: Double) -> [Double] {
    var state = seed
    func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return (Double(z >> 11) + 0.5) / Double(1 << 53)  // (0, 1)
    }
    var out: [Double] = []
    out.reserveCapacity(count)
    while out.count < count {
        let r = (-2 * Double.log(next())).squareRoot()
        let theta = 2 * Double.pi * next()
        out.append(sigma * r * Double.cos(theta))
        if out.count < count { out.append(sigma * r * Double.sin(theta)) }
    }
    return out
}

/// The largest |actual − expected| divided by max |expected| (0 for an all-zero reference).
private func maxDeviation<A: BinaryFloatingPoint>(_ actual: [A], _ expected: [Double]) -> Double {
    precondition(
        actual.count == expected.count && !expected.isEmpty,
        "maxDeviation: \(actual.count) vs \(expected.count) values")
    let scale = expected.map(abs).max() ?? 0
    var worst = 0.0
    for (a, e) in zip(actual, expected) { worst = max(worst, abs(Double(a) - e)) }
    return scale > 0 ? worst / scale : worst
}

/// Element-wise `isApproximatelyEqual` with a relative tolerance and an absolute floor `tolerance·max|expected|`.
private func allClose<A: BinaryFloatingPoint>(_ actual: [A], _ expected: [Double], tolerance: Double) -> Bool {
    guard actual.count == expected.count, !expected.isEmpty else { return false }
    let floor = tolerance * (expected.map(abs).max() ?? 0)
    return zip(actual, expected).allSatisfy { a, e in
        Double(a).isApproximatelyEqual(to: e, absoluteTolerance: floor, relativeTolerance: tolerance)
    }
}

/// The raw lag sums `s[k] = Σ y[n]·y[n+k]` by the O(N²) definition.
private func directLagSums(_ y: [Double], lags: Int) -> [Double] {
    (0..<lags).map { k in
        var s = 0.0
        for n in 0..<(y.count - k) { s += y[n] * y[n + k] }
        return s
    }
}

private func welchConfiguration(_ reference: WelchReference) throws -> Welch {
    let window: Welch.SegmentWindow
    if let name = reference.window {
        window = .standard(try #require(Window(scipyName: name)))
    } else {
        window = .custom(reference.customWindow)
    }
    return Welch(
        window: window, segmentLength: reference.nperseg, overlap: reference.noverlap, fftLength: reference.nfft,
        detrend: try #require(Detrend(rawValue: reference.detrend)),
        scaling: try #require(SpectralScaling(rawValue: reference.scaling)),
        averaging: try #require(Welch.Averaging(rawValue: reference.average)))
}

// MARK: - Suites

/// Windows, spectra, Welch PSD, autocorrelation and fast FFT lengths against scipy/numpy and physics.
@Suite struct SpectralTests {
    @Suite struct WindowSuite {
        @Test(arguments: SpectralReference.windows)
        func matchesScipy(reference: WindowReference) throws {
            let window = try #require(Window(scipyName: reference.name))
            let symmetry: WindowSymmetry = reference.symmetric ? .symmetric : .periodic
            let w = window.coefficients(count: reference.count, symmetry: symmetry)
            #expect(maxDeviation(w, reference.values) <= 1e-15)
            let f = window.coefficients(count: reference.count, symmetry: symmetry, as: Float.self)
            #expect(allClose(f, reference.values, tolerance: 1e-7))
        }

        @Test(arguments: Window.allCases)
        func edgeLengthsAndSymmetry(window: Window) {
            #expect(window.coefficients(count: 0).isEmpty)
            #expect(window.coefficients(count: 1) == [1])
            #expect(window.coefficients(count: 1, symmetry: .symmetric) == [1])
            let symmetric = window.coefficients(count: 31, symmetry: .symmetric)
            for n in 0..<31 {
                #expect(symmetric[n].isApproximatelyEqual(to: symmetric[30 - n], absoluteTolerance: 1e-15))
            }
            // Periodic N = the first N points of symmetric N + 1.
            let periodic = window.coefficients(count: 30)
            #expect(maxDeviation(periodic, Array(symmetric.prefix(30))) == 0)
            #expect(Window(scipyName: window.scipyName) == window)
        }

        @Test func aliases() {
            #expect(Window(scipyName: "boxcar") == .rectangular)
            #expect(Window(scipyName: "ones") == .rectangular)
            #expect(Window(scipyName: "HANN") == .hann)
            #expect(Window(scipyName: "hamm") == .hamming)
            #expect(Window(scipyName: "blk") == .blackman)
            #expect(Window(scipyName: "kaiser") == nil)
        }

        /// Coherent gain and ENBW: exact for periodic Hann (0.5, 1.5 bins); textbook values for the others.
        @Test(arguments: [
            (Window.rectangular, 1.0, 1.0), (.hann, 0.5, 1.5), (.hamming, 0.54, 1.3628), (.blackman, 0.42, 1.7268),
        ])
        func gains(window: Window, coherentGain: Double, enbwBins: Double) {
            let gains = window.gains(count: 4096)
            #expect(gains.coherentGain.isApproximatelyEqual(to: coherentGain, relativeTolerance: 1e-12))
            #expect(gains.equivalentNoiseBandwidthBins.isApproximatelyEqual(to: enbwBins, relativeTolerance: 1e-4))
            #expect(
                gains.equivalentNoiseBandwidth(sampleRate: 4096).isApproximatelyEqual(
                    to: gains.equivalentNoiseBandwidthBins, relativeTolerance: 1e-12))
            let w = window.coefficients(count: 4096)
            #expect(gains.sum.isApproximatelyEqual(to: w.reduce(0, +), relativeTolerance: 1e-12))
            #expect(
                gains.sumOfSquares.isApproximatelyEqual(to: w.map { $0 * $0 }.reduce(0, +), relativeTolerance: 1e-12))
        }
    }

    @Suite struct DetrendSuite {
        @Test func linearMatchesScipy() {
            var x = welchSignal(12)
            Detrend.linear.apply(to: &x)
            #expect(maxDeviation(x, SpectralReference.detrendLinear12) <= 1e-14)
            var f = welchSignal(12).map { Float($0) }
            Detrend.linear.apply(to: &f)
            #expect(allClose(f, SpectralReference.detrendLinear12, tolerance: 1e-5))
        }

        @Test func constantAndNone() {
            var x = welchSignal(50)
            let original = x
            Detrend.none.apply(to: &x)
            #expect(x == original)
            Detrend.constant.apply(to: &x)
            #expect(abs(x.reduce(0, +)) <= 1e-12)
            var single = [3.5]
            Detrend.linear.apply(to: &single)
            #expect(single == [0])
            // A straight line detrends to zero.
            var line = (0..<9).map { 2.5 - 0.75 * Double($0) }
            Detrend.linear.apply(to: &line)
            #expect(line.allSatisfy { abs($0) <= 1e-14 })
        }
    }

    @Suite struct SpectrumSuite {
        @Test(arguments: SpectralReference.periodograms)
        func powerMatchesScipyPeriodogram(reference: PeriodogramReference) throws {
            let window = try #require(Window(scipyName: reference.window))
            let scaling = try #require(SpectralScaling(rawValue: reference.scaling))
            let x = welchSignal(reference.count)
            let spectrum = try Spectrum.power(
                of: x, sampleRate: SpectralReference.welchSampleRate, window: window, scaling: scaling,
                fftLength: reference.nfft)
            #expect(maxDeviation(spectrum.values, reference.pxx) <= 1e-13)
            #expect(spectrum.frequencies.count == reference.nfft / 2 + 1)
            #expect(
                spectrum.binWidth.isApproximatelyEqual(
                    to: SpectralReference.welchSampleRate / Double(reference.nfft), relativeTolerance: 1e-15))
            for (k, f) in spectrum.frequencies.enumerated() {
                #expect(f.isApproximatelyEqual(to: Double(k) * spectrum.binWidth, absoluteTolerance: 1e-12))
            }
            let single = try Spectrum.power(
                of: x.map { Float($0) }, sampleRate: SpectralReference.welchSampleRate, window: window,
                scaling: scaling, fftLength: reference.nfft)
            #expect(maxDeviation(single.values, reference.pxx) <= 1e-5)
        }

        /// Parseval with a rectangular window: Σ P (spectrum) = Σ P·Δf (density) = mean(x²).
        @Test(arguments: [63, 64, 100, 101])
        func parseval(count: Int) throws {
            let x = welchSignal(count)
            let meanSquare = x.map { $0 * $0 }.reduce(0, +) / Double(count)
            let power = try Spectrum.power(of: x, sampleRate: 40, window: .rectangular)
            #expect(power.values.reduce(0, +).isApproximatelyEqual(to: meanSquare, relativeTolerance: 1e-12))
            let density = try Spectrum.power(of: x, sampleRate: 40, window: .rectangular, scaling: .density)
            #expect(density.integral().isApproximatelyEqual(to: meanSquare, relativeTolerance: 1e-12))
        }

        /// A sine on a bin centre reads its amplitude; a DC offset reads its value at 0 Hz.
        @Test(arguments: [Window.rectangular, .hann, .hamming, .blackman])
        func magnitudeOfSineAndOffset(window: Window) throws {
            let fs = 1000.0
            let count = 1000
            let x = sine(count: count, frequency: 125, sampleRate: fs, amplitude: 2.5, offset: 0.75)
            let spectrum = try Spectrum.magnitude(of: x, sampleRate: fs, window: window)
            #expect(spectrum.values[125].isApproximatelyEqual(to: 2.5, relativeTolerance: 1e-9))
            #expect(spectrum.values[0].isApproximatelyEqual(to: 0.75, relativeTolerance: 1e-9))
            let power = try Spectrum.power(of: x, sampleRate: fs, window: window)
            #expect(power.values[125].isApproximatelyEqual(to: 2.5 * 2.5 / 2, relativeTolerance: 1e-9))
        }

        /// A sine between bins is located within 0.1 bin (Hann: within 0.02 bin).
        @Test(arguments: [
            (100.0, 1.83, 3000), (100.0, 2.07, 512), (44_100.0, 1_000.0, 4096), (8_000.0, 437.3, 1000),
            (50.0, 11.111, 257), (16_000.0, 3_141.59, 2048),
        ])
        func dominantFrequencyBetweenBins(sampleRate: Double, frequency: Double, count: Int) throws {
            let x = sine(count: count, frequency: frequency, sampleRate: sampleRate, amplitude: 0.8, offset: 3)
            let binWidth = sampleRate / Double(count)
            let estimate = try #require(try dominantFrequency(of: x, sampleRate: sampleRate))
            #expect(abs(estimate - frequency) <= 0.02 * binWidth)
            let single = try #require(try dominantFrequency(of: x.map { Float($0) }, sampleRate: sampleRate))
            #expect(abs(single - frequency) <= 0.1 * binWidth)
            // Every window is within 0.1 bin except the rectangular one (log-parabolic bias up to 0.2 bin).
            for window in [Window.hamming, .blackman] {
                let other = try #require(try dominantFrequency(of: x, sampleRate: sampleRate, window: window))
                #expect(abs(other - frequency) <= 0.1 * binWidth)
            }
        }

        @Test func dominantPeakValueBandAndSilence() throws {
            let fs = 100.0
            let count = 2000
            let strong = sine(count: count, frequency: 20.3, sampleRate: fs, amplitude: 3)
            let weak = sine(count: count, frequency: 1.85, sampleRate: fs, amplitude: 0.5)
            let x = zip(strong, weak).map { $0 + $1 }
            let analyzer = try SpectrumAnalyzer<Double>(frameLength: count, sampleRate: fs, detrend: .constant)
            let located = analyzer.dominantPeak(x.span)
            let peak = try #require(located)
            #expect(abs(peak.frequency - 20.3) <= 0.02 * analyzer.binWidth)
            #expect(peak.frequency == peak.bin * analyzer.binWidth)
            // Interpolated height of a Hann-windowed sine: A²/2 within the 16 % scalloping worst case (≈ 2 % here).
            #expect(peak.value.isApproximatelyEqual(to: 4.5, relativeTolerance: 0.05))
            let inBand = analyzer.dominantPeak(x.span, in: 0.5...4)
            let cadence = try #require(inBand)
            #expect(abs(cadence.frequency - 1.85) <= 0.02 * analyzer.binWidth)
            #expect(try dominantFrequency(of: [Double](repeating: 0, count: 64), sampleRate: fs) == nil)
            #expect(try dominantFrequency(of: [Double](repeating: 2, count: 64), sampleRate: fs) == nil)
            #expect(try dominantFrequency(of: [1.0], sampleRate: fs) == nil)
            // The same peak from a precomputed spectrum.
            let spectrum = analyzer.powerSpectrum(x)
            #expect(spectrum.dominantPeak() == peak)
        }

        /// The `into:` methods reuse the caller's array: same storage, same values, on every call.
        @Test func analyzerReusesOutputStorage() throws {
            let x = welchSignal(96).map { Float($0) }
            let analyzer = try SpectrumAnalyzer<Float>(
                frameLength: 96, sampleRate: 50, window: .blackman, fftLength: 128)
            var power: [Float] = []
            analyzer.powerSpectrum(x.span, scaling: .density, into: &power)
            let first = power.map { $0 }  // a distinct copy, so `power` stays uniquely referenced
            let storage = power.withUnsafeBufferPointer { $0.baseAddress }
            for _ in 0..<5 { analyzer.powerSpectrum(x.span, scaling: .density, into: &power) }
            #expect(power == first)
            #expect(power.withUnsafeBufferPointer { $0.baseAddress } == storage)
            var magnitude: [Float] = []
            analyzer.magnitudeSpectrum(x.span, into: &magnitude)
            #expect(magnitude.count == 65 && analyzer.binCount == 65)
        }

        @Test func invalidArguments() {
            #expect(throws: SpectralError.self) { try Spectrum.power(of: [Double](), sampleRate: 10) }
            #expect(throws: SpectralError.self) { try Spectrum.power(of: [1.0, 2.0], sampleRate: 0) }
            #expect(throws: SpectralError.self) { try Spectrum.power(of: [1.0, 2.0], sampleRate: 10, fftLength: 1) }
        }
    }

    @Suite struct WelchSuite {
        @Test func signalFormulaMatchesTheScript() {
            let x = welchSignal(SpectralReference.welchSignalLength)
            #expect(x.reduce(0, +).isApproximatelyEqual(to: SpectralReference.welchSignalSum, relativeTolerance: 1e-13))
        }

        @Test(arguments: SpectralReference.welch)
        func matchesScipy(reference: WelchReference) throws {
            let welch = try welchConfiguration(reference)
            let fs = SpectralReference.welchSampleRate
            let x = welchSignal(SpectralReference.welchSignalLength)
            let psd = try welch.psd(x, sampleRate: fs)
            #expect(maxDeviation(psd.values, reference.pxx) <= 1e-13)
            let nfft =
                reference.nfft ?? reference.nperseg
                ?? (reference.window == nil ? reference.customWindow.count : SpectralReference.welchSignalLength)
            #expect(psd.values.count == nfft / 2 + 1)
            #expect(psd.binWidth.isApproximatelyEqual(to: fs / Double(nfft), relativeTolerance: 1e-15))
            #expect(psd.frequencies.last.map { $0 <= fs / 2 } == true)
            let single = try welch.psd(x.map { Float($0) }, sampleRate: fs)
            #expect(maxDeviation(single.values, reference.pxx) <= 1e-5)
        }

        @Test func parameterResolution() throws {
            let clipped = try Welch().parameters(signalLength: 100)
            #expect(clipped.segmentLength == 100 && clipped.overlap == 50 && clipped.fftLength == 100)
            #expect(clipped.segmentCount == 1 && clipped.isSegmentLengthClipped)
            let p = try Welch(segmentLength: 16, overlap: 4, fftLength: 20).parameters(signalLength: 64)
            #expect(p.step == 12 && p.segmentCount == 5 && !p.isSegmentLengthClipped)
            let custom = try Welch(window: .custom([1, 2, 3])).parameters(signalLength: 10)
            #expect(custom.segmentLength == 3 && custom.overlap == 1 && custom.segmentCount == 4)

            let x = welchSignal(64)
            #expect(throws: SpectralError.self) { try Welch(segmentLength: 16, overlap: 16).psd(x, sampleRate: 1) }
            #expect(throws: SpectralError.self) { try Welch(segmentLength: 16, overlap: -1).psd(x, sampleRate: 1) }
            #expect(throws: SpectralError.self) { try Welch(segmentLength: 16, fftLength: 15).psd(x, sampleRate: 1) }
            #expect(throws: SpectralError.self) { try Welch(segmentLength: 0).psd(x, sampleRate: 1) }
            #expect(throws: SpectralError.self) { try Welch(segmentLength: 16).psd(x, sampleRate: -1) }
            #expect(throws: SpectralError.self) {
                try Welch(window: .custom([1, 1, 1]), segmentLength: 4).psd(x, sampleRate: 1)
            }
            #expect(throws: SpectralError.signalTooShort(length: 2, required: 3)) {
                try Welch(window: .custom([1, 1, 1])).psd([1.0, 2.0], sampleRate: 1)
            }
            let empty = try Welch().psd([Float](), sampleRate: 10)
            #expect(empty.values.isEmpty && empty.frequencies.isEmpty)
        }

        /// A sine on a bin centre: the peak bin holds A²/2 (spectrum); the density integrates to A²/2.
        @Test(arguments: [(100.0, 12.5, 256), (1000.0, 62.5, 512), (50.0, 7.03125, 128)])
        func sinePeakAndPower(sampleRate: Double, frequency: Double, segment: Int) throws {
            let amplitude = 1.7
            let x = sine(
                count: 20 * segment, frequency: frequency, sampleRate: sampleRate, amplitude: amplitude, offset: 4)
            let bin = Int((frequency * Double(segment) / sampleRate).rounded())
            let spectrum = try Welch(segmentLength: segment, scaling: .spectrum).psd(x, sampleRate: sampleRate)
            let peak = try #require(spectrum.values.indices.max { spectrum.values[$0] < spectrum.values[$1] })
            #expect(peak == bin)
            #expect(spectrum.frequencies[peak] == frequency)
            #expect(spectrum.values[peak].isApproximatelyEqual(to: amplitude * amplitude / 2, relativeTolerance: 1e-6))
            let density = try Welch(segmentLength: segment).psd(x, sampleRate: sampleRate)
            #expect(density.integral().isApproximatelyEqual(to: amplitude * amplitude / 2, relativeTolerance: 1e-3))
            let found = try #require(density.dominantPeak())
            #expect(abs(found.frequency - frequency) <= 0.01 * density.binWidth)
        }

        /// A sine between bins still integrates to A²/2 (the window's ENBW is accounted for by density scaling).
        @Test func offBinSineIntegratesToItsPower() throws {
            let x = sine(count: 10_000, frequency: 13.37, sampleRate: 200, amplitude: 0.9)
            let density = try Welch(segmentLength: 400, fftLength: 1000).psd(x, sampleRate: 200)
            #expect(density.integral().isApproximatelyEqual(to: 0.405, relativeTolerance: 2e-3))
            #expect(abs(try #require(density.dominantPeak()).frequency - 13.37) <= 0.1 * 200 / 400)
        }

        /// White noise of variance σ²: one-sided density ≈ σ²/(fs/2) and Σ Pxx·Δf ≈ σ².
        @Test(arguments: [Welch.Averaging.mean, .median])
        func whiteNoiseLevel(averaging: Welch.Averaging) throws {
            let sigma = 2.0
            let fs = 200.0
            let x = gaussianNoise(count: 1 << 16, seed: 7, sigma: sigma)
            let variance = x.map { $0 * $0 }.reduce(0, +) / Double(x.count)
            let psd = try Welch(segmentLength: 256, averaging: averaging).psd(x, sampleRate: fs)
            let interior = psd.values[1..<128]
            let level = interior.reduce(0, +) / Double(interior.count)
            #expect(level.isApproximatelyEqual(to: sigma * sigma / (fs / 2), relativeTolerance: 0.03))
            #expect(psd.integral().isApproximatelyEqual(to: variance, relativeTolerance: 0.03))
            let single = try Welch(segmentLength: 256, averaging: averaging).psd(x.map { Float($0) }, sampleRate: fs)
            #expect(maxDeviation(single.values, psd.values.map { Double($0) }) <= 1e-5)
        }

        @Test func cacheGivesTheSameResult() throws {
            let x = welchSignal(300)
            let cache = FFTCache<Double>()
            let welch = Welch(window: .blackman, segmentLength: 50, overlap: 10, fftLength: 64, detrend: .linear)
            let a = try welch.psd(x, sampleRate: 25, cache: cache)
            let b = try welch.psd(x, sampleRate: 25, cache: cache)
            let c = try welch.psd(x, sampleRate: 25)
            #expect(a == b && a == c)
        }
    }

    @Suite struct AutocorrelationSuite {
        @Test func matchesNumpyCorrelate() throws {
            let x = SpectralReference.correlateInput
            let n = x.count
            let raw = try Autocorrelation(normalization: .none, removesMean: false).compute(x)
            let expected = Array(SpectralReference.correlateFull[(n - 1)...])
            #expect(maxDeviation(raw, expected) <= 1e-14)
            let single = try Autocorrelation(normalization: .none, removesMean: false).compute(x.map { Float($0) })
            #expect(maxDeviation(single, expected) <= 1e-6)
            // Symmetric: the left half mirrors the right half.
            #expect(Array(SpectralReference.correlateFull[..<n].reversed()) == expected)
        }

        @Test(arguments: [1, 2, 3, 5, 16, 37, 100, 257], Autocorrelation.Normalization.allCases)
        func matchesDirectDefinition(count: Int, normalization: Autocorrelation.Normalization) throws {
            for removesMean in [false, true] {
                let x = welchSignal(count).map { $0 + 1.5 }
                let mean = removesMean ? x.reduce(0, +) / Double(count) : 0
                let sums = directLagSums(x.map { $0 - mean }, lags: count)
                let expected: [Double] = sums.indices.map { k in
                    switch normalization {
                    case .none: sums[k]
                    case .biased: sums[k] / Double(count)
                    case .unbiased: sums[k] / Double(count - k)
                    case .coefficient: sums[0] != 0 ? sums[k] / sums[0] : 0
                    }
                }
                let result = try Autocorrelation(normalization: normalization, removesMean: removesMean).compute(x)
                #expect(result.count == count)
                // Error bound: ε·log L·s[0], scaled by the lag's divisor.
                for k in 0..<count {
                    let divisor: Double =
                        switch normalization {
                        case .none: 1
                        case .biased: Double(count)
                        case .unbiased: Double(count - k)
                        case .coefficient: sums[0] != 0 ? sums[0] : 1
                        }
                    #expect(
                        result[k].isApproximatelyEqual(to: expected[k], absoluteTolerance: 1e-13 * sums[0] / divisor),
                        "lag \(k) removesMean \(removesMean)")
                }
                let single = try Autocorrelation(normalization: normalization, removesMean: removesMean)
                    .compute(x.map { Float($0) })
                let scale = normalization == .unbiased ? Double(count) : 1
                #expect(maxDeviation(single, expected) <= 2e-6 * scale)
            }
        }

        @Test func maxLagEmptyAndPeriodicity() throws {
            let x = welchSignal(50)
            let full = try Autocorrelation().compute(x)
            let short = try Autocorrelation(maxLag: 10).compute(x)
            #expect(short.count == 11)
            #expect(maxDeviation(short, full.prefix(11).map { $0 }) <= 1e-14)
            #expect(try Autocorrelation(maxLag: 500).compute(x).count == 50)
            #expect(try Autocorrelation(maxLag: 0).compute(x).count == 1)
            #expect(try Autocorrelation().compute([Double]()).isEmpty)
            #expect(throws: SpectralError.self) { try Autocorrelation(maxLag: -1).compute(x) }
            #expect(try Autocorrelation(normalization: .coefficient).compute([2.0, 2.0, 2.0, 2.0]) == [0, 0, 0, 0])

            // A walking-like periodic signal (period 55 samples): the coefficient peaks again at lag 55.
            let period = 55.0
            let gait = (0..<1000).map { n in
                Double.sin(2 * Double.pi * Double(n) / period) + 0.4 * Double.sin(4 * Double.pi * Double(n) / period)
            }
            let r = try Autocorrelation(normalization: .coefficient, maxLag: 80).compute(gait)
            #expect(r[0] == 1)
            let best = try #require((30...80).max { r[$0] < r[$1] })
            #expect(best == 55)
        }
    }

    @Suite struct FastLengthSuite {
        private static func isSevenSmooth(_ value: Int) -> Bool {
            var m = value
            for p in [2, 3, 5, 7] { while m > 0 && m % p == 0 { m /= p } }
            return m == 1
        }

        @Test func smallestSevenSmoothLength() {
            for n in 0...3000 {
                let length = nextFastFFTLength(n)
                if n <= 6 {
                    #expect(length == n)
                    continue
                }
                #expect(length >= n && Self.isSevenSmooth(length), "n = \(n) → \(length)")
                #expect(!(n..<length).contains(where: Self.isSevenSmooth), "n = \(n) → \(length)")
            }
            #expect(Self.isSevenSmooth(nextFastFFTLength(1_000_000_007)))
        }

        /// Never longer than scipy's 5-smooth `next_fast_len(n, real=True)`, and equal where that is 7-smooth-minimal.
        @Test func notLongerThanScipy() {
            for (n, scipyLength) in SpectralReference.nextFastLenReal {
                let length = nextFastFFTLength(n)
                #expect(length <= scipyLength, "n = \(n)")
                #expect(length >= n)
            }
            #expect(nextFastFFTLength(7) == 7)  // scipy real=True: 8
            #expect(nextFastFFTLength(97) == 98)  // scipy real=True: 100
            #expect(nextFastFFTLength(2047) == 2048)
        }
    }
}
