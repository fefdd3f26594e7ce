import ComplexModule
import RealModule
import SensorSignal
import Testing

/// IIR filters against scipy.signal 1.17.1 (``FiltersReference``) and against the physics of a
/// Butterworth filter.
@Suite struct FiltersTests {
    /// `10·log10(1/2)`: the half-power gain in dB.
    static let halfPowerDecibels = 10 * Double.log10(0.5)

    /// The reference input `x[n] = sin(0.19 n) + 0.5 cos(1.09 n + 0.4) + 0.25 sin(2.6 n) + 0.02 n − 0.3`,
    /// evaluated in the same order as `Tools/reference/filters_reference.py`.
    static func testSignal(count: Int) -> [Double] {
        (0..<count).map { i in
            let n = Double(i)
            return Double.sin(0.19 * n) + 0.5 * Double.cos(1.09 * n + 0.4) + 0.25 * Double.sin(2.6 * n) + 0.02 * n
                - 0.3
        }
    }

    /// A sine of `frequency` Hz sampled at `sampleRate` Hz.
    static func sine(frequency: Double, sampleRate: Double, count: Int) -> [Double] {
        (0..<count).map { Double.sin(2 * Double.pi * frequency * Double($0) / sampleRate) }
    }

    /// `max |a − b| / max(max |b|, tiny)`: deviation relative to the size of the reference.
    static func relativeDeviation(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count && !b.isEmpty, "relativeDeviation: \(a.count) vs \(b.count) values")
        let scale = max(b.map(abs).max() ?? 0, .leastNormalMagnitude)
        return zip(a, b).map { abs($0 - $1) }.max().map { $0 / scale } ?? 0
    }

    /// The largest deviation between two sets of scipy-shaped rows, relative to the largest numerator
    /// (or denominator) coefficient of the same row: the gain makes the numerators of one row tiny.
    static func rowDeviation(_ rows: [[Double]], _ reference: [[Double]]) -> Double {
        guard rows.count == reference.count, !rows.isEmpty else { return .infinity }
        var worst = 0.0
        for (row, ref) in zip(rows, reference) {
            for half in [0..<3, 3..<6] {
                worst = max(worst, relativeDeviation(Array(row[half]), Array(ref[half])))
            }
        }
        return worst
    }

    /// `max |a − b|` over two equally long arrays.
    static func largestDifference(_ a: [Double], _ b: [Double]) -> Double {
        precondition(a.count == b.count && !b.isEmpty, "largestDifference: \(a.count) vs \(b.count) values")
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    /// Filters 6000 samples of the test input (as `Double` and as `Float`) in blocks of every size from 0
    /// to 5 (shorter than or just past the kernels' fill) and then of random sizes — half of them 0 to 5,
    /// half up to 700 — and expects output and final state bit-for-bit equal to filtering it whole.
    static func expectStreamingEqualsWhole(
        _ sos: SecondOrderSections, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let x = testSignal(count: 6000)
        var wholeFilter = SOSFilter(sos)
        var whole = x
        wholeFilter.process(&whole)
        let wholeFloat = sos.filter(x.map { Float($0) })

        var generator = SplitMix64(seed: seed)
        var filter = SOSFilter(sos)
        var floatFilter = SOSFilter(sos)
        var streamed: [Double] = []
        var streamedFloat: [Float] = []
        var fixedSizes = [1, 0, 2, 3, 1, 4, 5, 0, 3][...]
        var start = 0
        var block: [Double] = []
        var floatBlock: [Float] = []
        while start < x.count {
            let limit = Bool.random(using: &generator) ? 5 : 700
            let size = min(fixedSizes.popFirst() ?? Int.random(in: 0...limit, using: &generator), x.count - start)
            block.removeAll(keepingCapacity: true)
            block.append(contentsOf: x[start..<start + size])
            floatBlock.removeAll(keepingCapacity: true)
            floatBlock.append(contentsOf: x[start..<start + size].map { Float($0) })
            filter.process(&block)
            floatFilter.process(&floatBlock)
            streamed += block
            streamedFloat += floatBlock
            start += size
        }
        #expect(streamed == whole, sourceLocation: sourceLocation)
        #expect(filter.state == wholeFilter.state, sourceLocation: sourceLocation)
        #expect(streamedFloat == wholeFloat, sourceLocation: sourceLocation)
    }


    @Test func testSignalIsRebuiltExactly() {
        let x = Self.testSignal(count: FiltersReference.signalLength)
        #expect(!FiltersReference.signalHead.isEmpty && x.count >= FiltersReference.signalHead.count)
        for (value, reference) in zip(x, FiltersReference.signalHead) {
            #expect(value.isApproximatelyEqual(to: reference, relativeTolerance: 1e-15))
        }
        #expect(x.reduce(0, +).isApproximatelyEqual(to: FiltersReference.signalSum, relativeTolerance: 1e-13))
    }
}

// MARK: - Design

extension FiltersTests {
    @Suite struct Design {
        @Test(arguments: FiltersReference.designs)
        func matchesScipyButter(_ design: FiltersReference.Design) throws {
            let sos = try Butterworth.design(order: design.order, band: design.band, sampleRate: design.sampleRate)
            try #require(sos.count == design.sos.count)
            #expect(FiltersTests.rowDeviation(sos.rows, design.sos) <= 1e-10)
        }

        @Test func zpk2sosMatchesScipyDocstringExample() throws {
            let zpk = ZeroPoleGain(
                zeros: [Complex(-1, 0), Complex(-0.5, -0.5), Complex(-0.5, 0.5)],
                poles: [Complex(0.75, 0), Complex(0.8, 0.1), Complex(0.8, -0.1)], gain: 1)
            let sos = try SecondOrderSections(zpk)
            #expect(FiltersTests.rowDeviation(sos.rows, FiltersReference.zpk2sosExample) <= 1e-14)
        }

        @Test func aWeightingPairsLikeScipy() throws {
            let analog = ZeroPoleGain(
                zeros: Array(repeating: Complex(0, 0), count: 4),
                poles: FiltersReference.aWeightingAnalogPoles.map { Complex($0, 0) },
                gain: FiltersReference.aWeightingAnalogGain)
            let sos = try SecondOrderSections(analog.bilinear(sampleRate: 48000))
            #expect(FiltersTests.rowDeviation(sos.rows, FiltersReference.aWeighting48k) <= 1e-10)
            // IEC 61672 A-weighting is 0 dB at 1 kHz (the gain above is normalised that way, ±0.01 dB).
            #expect(abs(sos.magnitudeDecibels(at: 1000, sampleRate: 48000)) < 0.01)
        }

        @Test(arguments: FiltersReference.designs)
        func halfPowerAtEveryCutoff(_ design: FiltersReference.Design) throws {
            let sos = try Butterworth.design(order: design.order, band: design.band, sampleRate: design.sampleRate)
            for cutoff in design.band.cutoffs {
                let gain = sos.magnitudeDecibels(at: cutoff, sampleRate: design.sampleRate)
                #expect(abs(gain - FiltersTests.halfPowerDecibels) < 1e-7, "\(gain) dB at \(cutoff) Hz")
            }
        }

        @Test(arguments: [1, 2, 3, 4, 5, 8], [100.0, 48000.0])
        func unitGainInThePassband(order: Int, sampleRate: Double) throws {
            let (low, high) = (0.1 * sampleRate, 0.3 * sampleRate)
            let lowpass = try Butterworth.design(order: order, band: .lowpass(cutoff: low), sampleRate: sampleRate)
            let dc = lowpass.response(at: 0, sampleRate: sampleRate)
            #expect(dc.real.isApproximatelyEqual(to: 1, relativeTolerance: 1e-12))
            #expect(abs(dc.imaginary) < 1e-12)

            let highpass = try Butterworth.design(order: order, band: .highpass(cutoff: low), sampleRate: sampleRate)
            let nyquist = highpass.response(at: sampleRate / 2, sampleRate: sampleRate)
            #expect(nyquist.length.isApproximatelyEqual(to: 1, relativeTolerance: 1e-12))

            let bandstop = try Butterworth.design(
                order: order, band: .bandstop(low: low, high: high), sampleRate: sampleRate)
            #expect(bandstop.response(at: 0, sampleRate: sampleRate).length.isApproximatelyEqual(to: 1))
            #expect(bandstop.response(at: sampleRate / 2, sampleRate: sampleRate).length.isApproximatelyEqual(to: 1))

            // A bandpass has unit gain at the centre the bilinear transform maps the analog centre to:
            // f₀ = (fs/π)·atan(√(tan(π·f₁/fs)·tan(π·f₂/fs))).
            let bandpass = try Butterworth.design(
                order: order, band: .bandpass(low: low, high: high), sampleRate: sampleRate)
            let product = Double.tan(Double.pi * low / sampleRate) * Double.tan(Double.pi * high / sampleRate)
            let center = sampleRate / Double.pi * Double.atan(product.squareRoot())
            let gain = bandpass.response(at: center, sampleRate: sampleRate).length
            #expect(gain.isApproximatelyEqual(to: 1, relativeTolerance: 1e-12))
        }

        @Test(arguments: 1...16)
        func sectionCountAndStability(order: Int) throws {
            for band in [FilterBand.lowpass(cutoff: 0.5), .highpass(cutoff: 20), .bandpass(low: 1, high: 3)] {
                let sos = try Butterworth.design(order: order, band: band, sampleRate: 100)
                let expected = band.cutoffs.count == 1 ? (order + 1) / 2 : order
                #expect(sos.count == expected)
                for section in sos.sections {
                    // Both poles of 1 + a1·z⁻¹ + a2·z⁻² inside the unit circle (the stability triangle).
                    #expect(section.a0 == 1)
                    #expect(abs(section.a2) < 1 && abs(section.a1) < 1 + section.a2)
                }
            }
        }

        @Test func zeroPoleGainHasTheBandOrder() throws {
            let zpk = try Butterworth.zeroPoleGain(order: 3, band: .bandstop(low: 5, high: 10), sampleRate: 100)
            #expect(zpk.zeros.count == 6 && zpk.poles.count == 6)
            #expect(zpk.poles.allSatisfy { $0.length < 1 })
        }
    }
}

// MARK: - Filtering

extension FiltersTests {
    @Suite struct Filtering {
        @Test func sosfiltMatchesScipy() {
            let sos = FiltersTests.designed("lp4_100")
            let y = sos.filter(FiltersTests.testSignal(count: FiltersReference.signalLength))
            #expect(FiltersTests.relativeDeviation(y, FiltersReference.sosfiltLowpass4) <= 1e-12)
        }

        @Test func steadyStateStartMatchesScipy() throws {
            let sos = FiltersTests.designed("hp3_100")
            let zi = try sos.steadyStateInitialConditions()
            #expect(FiltersTests.relativeDeviation(zi, FiltersReference.sosfiltZiHighpass3) <= 1e-12)

            var x = FiltersTests.testSignal(count: FiltersReference.signalLength)
            var filter = try SOSFilter(sos, steadyStateFor: x[0])
            filter.process(&x)
            #expect(FiltersTests.relativeDeviation(x, FiltersReference.sosfiltHighpass3SteadyStart) <= 1e-12)
            #expect(
                FiltersTests.relativeDeviation(filter.state, FiltersReference.sosfiltHighpass3FinalState) <= 1e-12)
        }

        /// 4096 samples agree with scipy to rounding: no less accurate than scipy itself.
        ///
        /// The kernels round differently from scipy (the state update is rearranged so that `y` leaves the
        /// recursion, see ``SOSFilter``), so equality with scipy is judged against an extended-precision
        /// output of the same coefficients (scipy in `np.longdouble`): our error against it may be at most
        /// 4 times scipy's own error against it, plus 4 ulp of the output's scale (for filters where both
        /// sit at the rounding floor). Both implementations commit rounding errors of the same size and the
        /// filter amplifies them alike, so the two errors are of the same order (measured: ours is 0.01 to
        /// 1.3 times scipy's). The deviation from scipy is then at most the sum of the two errors, which is
        /// checked too. The cases cover 1 to 9 sections (kernel groups of 1, 2, 3, 4 and 4 + 4 + 1) and
        /// sections with `b0 == 1` and `b0 != 1` after the first; filters with poles near the unit circle
        /// (`bs3_48k`, a 2 Hz wide band stop at 48 kHz) amplify rounding the most.
        @Test(arguments: FiltersReference.longCases)
        func longSignalsMatchScipyToRounding(_ reference: FiltersReference.LongCase) throws {
            let sos = try SecondOrderSections(rows: reference.sos)
            let y = sos.filter(FiltersTests.testSignal(count: FiltersReference.longLength))
            let ours = stride(from: 0, to: y.count, by: FiltersReference.longStride).map { y[$0] }
            try #require(ours.count == reference.extended.count && ours.count == reference.scipy.count)
            let scale = reference.extended.map(abs).max() ?? 0
            let floor = 4 * Double.ulpOfOne * scale
            let scipyError = FiltersTests.largestDifference(reference.scipy, reference.extended)
            let ourError = FiltersTests.largestDifference(ours, reference.extended)
            #expect(ourError <= 4 * scipyError + floor, "error \(ourError), scipy's \(scipyError), scale \(scale)")
            #expect(FiltersTests.largestDifference(ours, reference.scipy) <= 5 * scipyError + floor)
        }

        @Test(arguments: ["lp1_100", "lp4_100", "hp3_100", "lp8_48k", "bp4_100", "bs3_48k"])
        func blocksOfRandomSizesEqualTheWholeSignal(_ name: String) {
            FiltersTests.expectStreamingEqualsWhole(FiltersTests.designed(name), seed: 0x5EED_F117)
        }

        @Test(arguments: FiltersReference.longCases)
        func blocksOfRandomSizesEqualTheWholeSignalForEveryKernel(_ reference: FiltersReference.LongCase) throws {
            // 1 to 9 sections, with and without b0 == 1 after the first: every kernel and its fill and drain.
            let sos = try SecondOrderSections(rows: reference.sos)
            FiltersTests.expectStreamingEqualsWhole(sos, seed: 0xB10C_5EED ^ UInt64(sos.count))
        }

        @Test(arguments: ["lp1_100", "bs3_48k"])
        func sampleBySampleEqualsTheWholeSignal(_ name: String) {
            // Blocks of one sample: the wavefront never reaches its steady state.
            let sos = FiltersTests.designed(name)
            let x = FiltersTests.testSignal(count: 500)
            var filter = SOSFilter(sos)
            var streamed: [Double] = []
            var one = [0.0]
            for value in x {
                one[0] = value
                filter.process(&one)
                streamed.append(one[0])
            }
            #expect(streamed == sos.filter(x))
        }

        @Test(arguments: FiltersReference.longCases)
        func sampleBySampleEqualsTheWholeSignalForEveryKernel(_ reference: FiltersReference.LongCase) throws {
            // For groups of two to four sections, blocks of one sample run only the scalar fill and drain
            // steps and the whole signal runs the SIMD steady-state loops: bit-for-bit equality shows that
            // the loops do exactly the scalar operations (with and without the b0 == 1 shortcut).
            let sos = try SecondOrderSections(rows: reference.sos)
            let x = FiltersTests.testSignal(count: 400)
            var filter = SOSFilter(sos)
            var floatFilter = SOSFilter(sos)
            var streamed: [Double] = []
            var streamedFloat: [Float] = []
            var one = [0.0]
            var oneFloat: [Float] = [0]
            for value in x {
                one[0] = value
                filter.process(&one)
                streamed.append(one[0])
                oneFloat[0] = Float(value)
                floatFilter.process(&oneFloat)
                streamedFloat.append(oneFloat[0])
            }
            #expect(streamed == sos.filter(x))
            #expect(streamedFloat == sos.filter(x.map { Float($0) }))
            var whole = SOSFilter(sos)
            var copy = x
            whole.process(&copy)
            #expect(filter.state == whole.state)
        }

        @Test(arguments: ["lp4_100", "hp8_100", "bp2_48k", "bs2_100"])
        func floatAndDoubleAgree(_ name: String) throws {
            let sos = FiltersTests.designed(name)
            let x = FiltersTests.testSignal(count: 2000).map { Float($0) }
            let wide = x.map { Double($0) }
            let expected = sos.filter(wide)
            let actual = sos.filter(x).map { Double($0) }
            #expect(FiltersTests.relativeDeviation(actual, expected) <= 2 * Double(Float.ulpOfOne))

            let zeroPhase = try sos.filterZeroPhase(x).map { Double($0) }
            let zeroPhaseExpected = try sos.filterZeroPhase(wide)
            #expect(FiltersTests.relativeDeviation(zeroPhase, zeroPhaseExpected) <= 2 * Double(Float.ulpOfOne))
        }

        @Test(arguments: [-2.5, 0.0, 3.7])
        func steadyStateHasNoStartupTransient(level: Double) throws {
            let lowpass = FiltersTests.designed("lp8_48k")
            var constant = [Double](repeating: level, count: 500)
            var filter = try SOSFilter(lowpass, steadyStateFor: level)
            filter.process(&constant)
            #expect(constant.allSatisfy { abs($0 - level) <= 1e-9 * max(1, abs(level)) })

            let highpass = FiltersTests.designed("hp3_100")
            var step = [Double](repeating: level, count: 500)
            var highpassFilter = try SOSFilter(highpass, steadyStateFor: level)
            highpassFilter.process(&step)
            #expect(step.allSatisfy { abs($0) <= 1e-12 })
        }

        @Test func resetReturnsToRest() {
            let sos = FiltersTests.designed("bp2_48k")
            let x = FiltersTests.testSignal(count: 300)
            var filter = SOSFilter(sos)
            var first = x
            filter.process(&first)
            #expect(filter.state.contains { $0 != 0 })
            filter.reset()
            #expect(filter.state.allSatisfy { $0 == 0 })
            var second = x
            filter.process(&second)
            #expect(second == first)
        }

        @Test(arguments: ["lp4_100", "lp8_48k", "bs3_48k", "bp3_100"])
        func explicitStateContinuesAStream(_ name: String) {
            // The state is scipy's zi layout and the kernels' own state: handing it over is exact.
            let sos = FiltersTests.designed(name)
            let x = FiltersTests.testSignal(count: 200)
            var head = Array(x[..<120])
            var tail = Array(x[120...])
            var filter = SOSFilter(sos)
            filter.process(&head)
            #expect(filter.state.count == 2 * sos.count)
            var resumed = SOSFilter(sos, state: filter.state)
            resumed.process(&tail)
            #expect(head + tail == sos.filter(x))
        }
    }
}

// MARK: - Zero-phase filtering

extension FiltersTests {
    @Suite struct ZeroPhase {
        @Test(arguments: [
            ("lp4_100", FiltersReference.sosfiltfiltLowpass4),
            ("bp3_100", FiltersReference.sosfiltfiltBandpass3),
            ("lp1_100", FiltersReference.sosfiltfiltLowpass1),
        ])
        func matchesScipySosfiltfilt(_ name: String, _ reference: [Double]) throws {
            let y = try FiltersTests.designed(name).filterZeroPhase(FiltersTests.testSignal(count: reference.count))
            #expect(FiltersTests.relativeDeviation(y, reference) <= 1e-12)
        }

        @Test(arguments: FiltersReference.minimumZeroPhaseLength.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        func shortestSignalIsScipys(_ name: String, _ minimumLength: Int) throws {
            let sos = FiltersTests.designed(name)
            #expect(sos.zeroPhasePadLength + 1 == minimumLength)
            let x = FiltersTests.testSignal(count: minimumLength)
            #expect(throws: FilterError.signalTooShort(length: minimumLength - 1, minimumLength: minimumLength)) {
                try sos.filterZeroPhase(Array(x.dropLast()))
            }
            #expect(try sos.filterZeroPhase(x).count == minimumLength)
        }

        /// (order, lowpass cutoff Hz, sine Hz, sampling rate Hz).
        @Test(arguments: [(4, 10.0, 1.0, 100.0), (2, 1000.0, 50.0, 48000.0), (8, 40.0, 12.5, 250.0)])
        func passbandSineKeepsGainAndPhase(order: Int, cutoff: Double, frequency: Double, sampleRate: Double)
            throws
        {
            let sos = try Butterworth.design(order: order, band: .lowpass(cutoff: cutoff), sampleRate: sampleRate)
            let count = max(4000, 8 * Int(sampleRate / frequency))
            let x = FiltersTests.sine(frequency: frequency, sampleRate: sampleRate, count: count)
            let y = try sos.filterZeroPhase(x)
            // Forward and backward: gain |H|², phase exactly 0, so y = |H|²·x away from the ends.
            let gain = sos.response(at: frequency, sampleRate: sampleRate).lengthSquared
            #expect(gain.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-3))
            let middle = (x.count / 4)..<(3 * x.count / 4)
            let error = middle.map { abs(y[$0] - gain * x[$0]) }.max() ?? .infinity
            #expect(error < 1e-6)
        }

        @Test func sineAtTheCutoffIsHalved() throws {
            // |H|² = 1/2 at the cutoff, applied with no delay.
            let sos = try Butterworth.design(order: 4, band: .highpass(cutoff: 500), sampleRate: 8000)
            let x = FiltersTests.sine(frequency: 500, sampleRate: 8000, count: 1600)
            let y = try sos.filterZeroPhase(x)
            let error = (400..<1200).map { abs(y[$0] - 0.5 * x[$0]) }.max() ?? .infinity
            #expect(error < 1e-6)
        }

        @Test func poleAtDCHasNoSteadyState() throws {
            let integrator = try SecondOrderSections(rows: [[1, 2, 1, 1, -0.5, 0.1], [1, 0, 0, 1, -1, 0]])
            #expect(throws: FilterError.steadyStateUndefined(section: 1)) {
                try integrator.filterZeroPhase([Double](repeating: 1, count: 100))
            }
        }
    }
}

// MARK: - Frequency response

extension FiltersTests {
    @Suite struct Response {
        @Test func matchesScipyFreqzSos() {
            let sos = FiltersTests.designed("bp2_48k")
            let h = sos.response(at: FiltersReference.responseFrequencies, sampleRate: 48000)
            for (i, value) in h.enumerated() {
                #expect(abs(value.real - FiltersReference.responseReal[i]) < 1e-12)
                #expect(abs(value.imaginary - FiltersReference.responseImaginary[i]) < 1e-12)
            }
        }

        @Test func decibelsAreTwentyLogOfTheMagnitude() {
            let sos = FiltersTests.designed("lp3_48k")
            let frequencies = [10.0, 500.0, 1000.0, 5000.0, 20000.0]
            let decibels = sos.magnitudeDecibels(at: frequencies, sampleRate: 48000)
            #expect(decibels.count == frequencies.count)
            for (f, db) in zip(frequencies, decibels) {
                let magnitude = sos.response(at: f, sampleRate: 48000).length
                #expect(db.isApproximatelyEqual(to: 20 * Double.log10(magnitude), relativeTolerance: 1e-12))
            }
            // Third order: −18 dB per octave, so about −60 dB a decade above the cutoff.
            #expect(abs(sos.magnitudeDecibels(at: 10000, sampleRate: 48000) + 62) < 3)
        }
    }
}

// MARK: - Validation

extension FiltersTests {
    @Suite struct Validation {
        @Test(arguments: [
            (FilterBand.lowpass(cutoff: 0), FilterError.invalidCutoff(hertz: 0, sampleRate: 100)),
            (.lowpass(cutoff: -5), .invalidCutoff(hertz: -5, sampleRate: 100)),
            (.highpass(cutoff: 50), .invalidCutoff(hertz: 50, sampleRate: 100)),
            (.highpass(cutoff: 60), .invalidCutoff(hertz: 60, sampleRate: 100)),
            (.bandpass(low: 10, high: 50), .invalidCutoff(hertz: 50, sampleRate: 100)),
            (.bandpass(low: 20, high: 10), .invalidBand(lowHertz: 20, highHertz: 10)),
            (.bandstop(low: 10, high: 10), .invalidBand(lowHertz: 10, highHertz: 10)),
            (.bandstop(low: 0, high: 10), .invalidCutoff(hertz: 0, sampleRate: 100)),
        ])
        func invalidCutoffsThrow(_ band: FilterBand, _ expected: FilterError) {
            #expect(throws: expected) { try Butterworth.design(order: 2, band: band, sampleRate: 100) }
        }

        @Test func invalidOrderAndRateThrow() {
            #expect(throws: FilterError.invalidOrder(0)) {
                try Butterworth.design(order: 0, band: .lowpass(cutoff: 10), sampleRate: 100)
            }
            #expect(throws: FilterError.invalidSampleRate(hertz: 0)) {
                try Butterworth.design(order: 2, band: .lowpass(cutoff: 10), sampleRate: 0)
            }
            let error = #expect(throws: FilterError.self) {
                try Butterworth.design(order: 2, band: .lowpass(cutoff: .nan), sampleRate: 100)
            }
            guard case .invalidCutoff(let hertz, _) = error else {
                Issue.record("expected invalidCutoff, got \(String(describing: error))")
                return
            }
            #expect(hertz.isNaN)
        }

        @Test func errorsNameTheValueAndUnit() {
            let message = FilterError.invalidCutoff(hertz: 60, sampleRate: 100).description
            #expect(message.contains("60.0 Hz") && message.contains("fs/2 = 50.0 Hz"))
            #expect(FilterError.invalidBand(lowHertz: 20, highHertz: 10).description.contains("20.0 Hz"))
            #expect(FilterError.signalTooShort(length: 5, minimumLength: 16).description.contains("5 samples"))
        }

        @Test func rowsAreNormalisedByA0() throws {
            let sos = try SecondOrderSections(rows: [[2, 4, 2, 2, 1, 0.5]])
            #expect(sos.rows == [[1, 2, 1, 1, 0.5, 0.25]])
        }

        @Test(arguments: [
            ([[1.0, 2, 1, 1, 0.5, 0.25], [1.0, 2, 1, 1, 0.5]], 1),
            ([[1.0, 2, 1, 0, 0.5, 0.25]], 0),
            ([[1.0, 2, 1, 1, 0.5, 0.25], [1.0, .nan, 1, 1, 0.5, 0.25]], 1),
            ([[1.0, 2, 1, 1, .infinity, 0.25]], 0),
            ([], 0),
        ])
        func malformedRowsThrow(_ rows: [[Double]], _ badRow: Int) {
            let error = #expect(throws: FilterError.self) { try SecondOrderSections(rows: rows) }
            guard case .invalidCoefficients(let row, _) = error else {
                Issue.record("expected invalidCoefficients, got \(String(describing: error))")
                return
            }
            #expect(row == badRow)
        }

        @Test func unpairedComplexRootThrows() {
            let zpk = ZeroPoleGain(zeros: [], poles: [Complex(0.5, 0.5)], gain: 1)
            let error = #expect(throws: FilterError.self) { try SecondOrderSections(zpk) }
            guard case .invalidZeroPoleGain = error else {
                Issue.record("expected invalidZeroPoleGain, got \(String(describing: error))")
                return
            }
        }
    }
}

extension FiltersTests {
    /// The sections of the reference design `name`, designed by ``Butterworth``.
    static func designed(_ name: String) -> SecondOrderSections {
        let design = FiltersReference.design(name)
        do {
            return try Butterworth.design(order: design.order, band: design.band, sampleRate: design.sampleRate)
        } catch {
            fatalError("reference design \(name) failed: \(error)")
        }
    }
}
