import Foundation
import SensorSignal
import TestSupport
import Testing

/// The edge-peak trim of a walking run (``StepDetector/Configuration/edgeStepProminenceFraction``): a run's first and
/// last peaks much weaker than its typical step are the sway of starting or stopping and are dropped.
///
/// The walk: 4 s standing still, 30 heel-strike impacts at 1.8 steps/s (Gaussian, σ 0.08 s, 0.6 g, the first and last
/// of strength `edge` relative to the others), 4 s standing still, 0.005 g noise, 100 Hz. The still stretches keep the
/// run's edges away from the recording's, where nothing is trimmed. An edge impact's prominence, relative to the
/// run's median, is a little under `edge`: the band-pass spreads the next full step into the trough between them,
/// which raises the edge peak's base on that side (measured 2026-12-03: the quarter trims edges of strength up to
/// 0.3 and keeps 0.4; a third trims 0.4 and keeps 0.5).
@Suite struct EdgeStepTrimTests {
    static func walk(edge: Double) -> (times: [Double], values: [Double]) {
        var random = SplitMix64(seed: 7)
        let rate = 100.0
        let strikes = (0..<30).map { 4 + Double($0) / 1.8 }
        let duration = strikes[strikes.count - 1] + 4
        var times: [Double] = []
        var values: [Double] = []
        for i in 0..<Int((duration * rate).rounded()) {
            let t = Double(i) / rate
            var a = 1 + 0.005 * random.nextNormal()
            for (k, strike) in strikes.enumerated() where abs(t - strike) < 0.5 {
                let strength = k == 0 || k == strikes.count - 1 ? edge : 1
                a += 0.6 * strength * exp(-(t - strike) * (t - strike) / (2 * 0.08 * 0.08))
            }
            times.append(t)
            values.append(a)
        }
        return (times, values)
    }

    static func count(edge: Double, fraction: Double) -> Int {
        var configuration = StepDetector.Configuration()
        configuration.edgeStepProminenceFraction = fraction
        let signal = walk(edge: edge)
        return StepDetector(configuration: configuration).detect(timestamps: signal.times, magnitude: signal.values)
            .stepCount
    }

    /// Full-strength edge steps are steps whatever the fraction.
    @Test func fullStrengthEdgesAreKept() {
        for fraction in [0, 0.25, 1.0 / 3] {
            #expect(Self.count(edge: 1, fraction: fraction) == 30, "fraction \(fraction)")
        }
    }

    /// Edge impacts at 20 % of a step are counted with no trim and trimmed by the default quarter and by a third.
    @Test func weakEdgesAreTrimmedUnderTheFraction() {
        #expect(Self.count(edge: 0.2, fraction: 0) == 30)
        #expect(Self.count(edge: 0.2, fraction: 0.25) == 28)
        #expect(Self.count(edge: 0.2, fraction: 1.0 / 3) == 28)
    }

    /// Edge impacts at 40 % of a step lie between the two fractions tried on the development files (docs/walking.md):
    /// the quarter keeps them, a third trims them.
    @Test func theFractionDecides() {
        #expect(Self.count(edge: 0.4, fraction: 0.25) == 30)
        #expect(Self.count(edge: 0.4, fraction: 1.0 / 3) == 28)
    }
}
