import Testing

@testable import SensorSignal

/// The gait-band share of white noise is the band's equivalent noise bandwidth over the Nyquist frequency.
///
/// For the step detector's zero-phase order-2 Butterworth band-pass 0.5–3 Hz, ∫|H(f)|⁴ df / (rate / 2) = 0.0417 at 100 Hz and
/// 0.1668 at 25 Hz (scipy 1.17 `butter(2, [0.5, 3], 'bandpass', output='sos')`, `sosfreqz`, trapezoidal integral).
/// The noise is |a| of 0.3 g white noise per axis on 1 g of gravity, near-white; 120 s of it.
@Suite struct GaitBandShareTests {
    @Test(arguments: [(100.0, 0.0417), (25.0, 0.1668)])
    func whiteNoiseHoldsTheBandsShareOfItsEnergy(rate: Double, expected: Double) throws {
        let signal = Gait.magnitude(stepFrequency: 1.8, duration: 120, rate: rate, noise: 0.3, amplitude: 0, seed: 7)
        let mean = signal.values.reduce(0, +) / Double(signal.values.count)
        let centred = signal.values.map { $0 - mean }
        let filter = try Butterworth.design(order: 2, band: .bandpass(low: 0.5, high: 3), sampleRate: rate)
        let banded = try filter.filterZeroPhase(centred)
        let share = GaitBandShare.of(centred, banded: banded, range: 0...(centred.count - 1))
        #expect(abs(share - expected) <= 0.15 * expected, "\(share)")
    }

    /// The analytic share the step detector scales its irregular-chain bound by (``GaitBandShare/whiteNoise(_:rate:)``),
    /// against the same scipy integrals (their trapezoid and the midpoint rule agree to 1e-4 on 2,048 points).
    @Test(arguments: [(100.0, 0.0417), (25.0, 0.1668)])
    func whiteNoiseShareFromTheFrequencyResponse(rate: Double, expected: Double) throws {
        let filter = try Butterworth.design(order: 2, band: .bandpass(low: 0.5, high: 3), sampleRate: rate)
        let share = GaitBandShare.whiteNoise(filter, rate: rate)
        #expect(abs(share - expected) <= 0.0005, "\(share)")
        #expect(GaitBandShare.whiteNoise(filter, rate: .nan) == 0)
    }

    @Test func flatOrSingleSampleStretchHoldsNothing() {
        #expect(GaitBandShare.of([1, 1, 1], banded: [0, 0, 0], range: 0...2) == 0)
        #expect(GaitBandShare.of([1, 2, 3], banded: [5, 5, 5], range: 1...1) == 0)
        #expect(GaitBandShare.of([0, 2, 0, 2], banded: [9, 9, 9, 9], range: 0...3) == 1)
    }
}
