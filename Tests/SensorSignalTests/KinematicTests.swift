import Foundation
import SensorSignal
import Testing

// Parity of YuleWalkerFit and the pracma/seewave routines with R itself (Reference/kinematic.json, written by
// Tools/reference/kinematic_reference.R), plus physics: an AR spectrum peaks at a sinusoid's frequency.

private func close(_ a: Double, _ b: Double, relative: Double = 1e-12) -> Bool {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
    return abs(a - b) <= relative * max(abs(a), abs(b), 1e-300)
}

@Suite struct YuleWalkerParityTests {
    @Test(arguments: KinematicReference.arCases)
    func fitAndSpectrumEqualR(_ c: ARReferenceCase) throws {
        let fit = try #require(YuleWalkerFit.fit(c.input))
        #expect(fit.order == c.order)
        #expect(fit.maximumOrder == c.maximumOrder)
        #expect(fit.coefficients.count == c.coefficients.count)
        for (a, e) in zip(fit.coefficients, c.coefficients) { #expect(close(a, e), "φ \(a) vs R \(e)") }
        #expect(close(fit.predictionVariance, c.predictionVariance), "σ² \(fit.predictionVariance)")
        #expect(fit.aic.count == c.aic.count)
        for (a, e) in zip(fit.aic, c.aic) { #expect(abs(a - e) <= 1e-9 * max(1, abs(e)), "AIC \(a) vs R \(e)") }
        let spectrum = fit.spectrum(count: 500)
        for (i, e) in zip(KinematicReference.spectrumIndices, c.spectrum) {
            #expect(close(spectrum[i - 1], e), "S[\(i)] \(spectrum[i - 1]) vs R \(e)")
        }
    }

    @Test func frequenciesAreRSeqInt() {
        let f = YuleWalkerFit.frequencies(count: 500)
        #expect(f.count == 500 && f[0] == 0 && f[499] == 0.5)
        #expect(f[1] == 0.5 / 499 && f[250] == 250 * (0.5 / 499))
        #expect(YuleWalkerFit.frequencies(count: 1) == [0] && YuleWalkerFit.frequencies(count: 0).isEmpty)
    }

    @Test func degenerateSeriesHaveNoFit() {
        #expect(YuleWalkerFit.fit([1.0]) == nil)
        #expect(YuleWalkerFit.fit([Double]()) == nil)
        #expect(YuleWalkerFit.fit([2.0, 2.0, 2.0, 2.0]) == nil, "R: zero-variance series")
        #expect(YuleWalkerFit.fit([1.0, .nan, 3.0]) == nil, "R: na.fail")
        #expect(YuleWalkerFit.fit([1.0, .infinity, 3.0]) == nil)
    }

    /// Physics: a 5 Hz sinusoid sampled at 100 Hz with a little deterministic "noise" has its AR spectral maximum
    /// within one bin (0.1 Hz) of 5 Hz.
    @Test func spectrumPeaksAtTheSinusoid() throws {
        let x = (0..<600).map { i -> Double in
            let t = Double(i) / 100
            return Foundation.sin(2 * Double.pi * 5 * t) + 0.05 * Foundation.sin(Double(i * i % 97))
        }
        let fit = try #require(YuleWalkerFit.fit(x))
        let s = fit.spectrum(count: 500)
        let peak = try #require(s.indices.max(by: { s[$0] < s[$1] }))
        let hz = YuleWalkerFit.frequencies(count: 500)[peak] * 100
        #expect(abs(hz - 5) < 0.1, "peak at \(hz) Hz")
    }
}

@Suite struct PracmaSeewaveParityTests {
    @Test(arguments: KinematicReference.pracmaCases)
    func routinesEqualR(_ c: PracmaReferenceCase) {
        #expect(close(RStatistics.mode(c.input), c.mode), "Mode \(RStatistics.mode(c.input)) vs R \(c.mode)")
        #expect(close(RStatistics.roughness(c.input), c.roughness))
        #expect(close(RStatistics.rugosity(c.input), c.rugo))
        let x = c.input.indices.map { Double($0 + 1) / 7 }
        #expect(close(RStatistics.trapezoid(x: x, y: c.input), c.trapz))
        let maximum = c.input.max() ?? 0
        let peaks = RStatistics.findPeaks(c.input, minimumHeight: 0.1 * maximum, count: 3)
        #expect(peaks.map(\.value) == c.peakValues)
        #expect(peaks.map { $0.index + 1 } == c.peakPositions)
    }

    /// Worked by hand: second differences of 0, 1, 4, 9 are 2, 2 (roughness 8); first differences 1, 3, 5
    /// (rugo √(35/3)); the trapezoid under (0,0), (1,1), (2,0) is 1.
    @Test func handWorkedValues() {
        #expect(RStatistics.roughness([0, 1, 4, 9]) == 8)
        #expect(abs(RStatistics.rugosity([0, 1, 4, 9]) - (35.0 / 3).squareRoot()) < 1e-15)
        #expect(RStatistics.trapezoid(x: [0, 1, 2], y: [0, 1, 0]) == 1)
        #expect(RStatistics.trapezoid(x: [1], y: [5]) == 0)
        #expect(RStatistics.mode([3, 1, 2, 2, 1]) == 1, "tie between 1 and 2: the smaller")
        #expect(RStatistics.mode([Double.nan]).isNaN)
        #expect(RStatistics.findPeaks([1, 2, 3], minimumHeight: 0, count: 3).isEmpty, "no fall: no peak")
        #expect(RStatistics.sum([1, 2, 3.5]) == 6.5 && RStatistics.product([2, 3, 0.5]) == 3)
    }
}
