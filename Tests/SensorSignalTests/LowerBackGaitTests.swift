import Foundation
import Testing

@testable import SensorSignal

/// ``LowerBackGait`` on a body whose centre of mass moves exactly as the inverted-pendulum model says: a vertical
/// displacement `(h/2)·cos(2πft)` (peak-to-peak `h` each step) seen by a tilted lower-back sensor, gravity
/// included. Everything expected follows from that motion, not from the code under test:
///
/// - acceleration `−(h/2)(2πf)²cos(2πft)`, so its derivative (the jerk) peaks at `t = (k + ¼)/f`: the initial
///   contacts;
/// - its second derivative `(h/2)(2πf)⁴cos(2πft)` is least at `t = (k + ½)/f`, a quarter step after each contact:
///   the final contacts; so stance = 1¼ step periods, swing = ¾, double support = 2 × ¼;
/// - step length `2K√(2lh − h²)` (Zijlstra & Hof 2003, K = 4.739/4), stride length twice that, speed = stride
///   length × f / 2. The causal 1 Hz high-pass of the chain passes `h` at 1.8 Hz with gain 0.9954, so the lengths
///   may read 0.25 % short: the tolerance is 0.5 %.
@Suite struct LowerBackGaitTests {
    static let g = 9.80665

    /// A tilted sensor (vertical along (0.96, 0.2, −0.2) normalised) at 100 Hz over `duration` s.
    static func recording(f: Double, h: Double, duration: Double, rate: Double = 100) -> (
        t: [Double], x: [Double], y: [Double], z: [Double]
    ) {
        let v = [0.96, 0.2, -0.2]
        let norm = v.map { $0 * $0 }.reduce(0, +).squareRoot()
        let u = v.map { $0 / norm }
        var t: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        var z: [Double] = []
        let n = Int((duration * rate).rounded())
        for i in 0...n {
            let time = Double(i) / rate
            let w = 2 * Double.pi * f
            let vertical = g - h / 2 * w * w * cos(w * time)
            t.append(time)
            x.append(vertical * u[0])
            y.append(vertical * u[1])
            z.append(vertical * u[2])
        }
        return (t, x, y, z)
    }

    @Test func eventsAndLengthsOfAnInvertedPendulum() throws {
        let f = 1.8
        let h = 0.04
        let l = 0.95
        let r = Self.recording(f: f, h: h, duration: 14)
        let gait = try #require(
            LowerBackGait().analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: 3, end: 11, samplingRate: 100, sensorHeight: l))
        let period: Double = 1 / f
        // Every contact inside [3, 11] s: (k + ¼)/f.
        var expected: [Double] = []
        for k in 0..<40 {
            let time = (Double(k) + 0.25) * period
            if time >= 3 && time <= 11 { expected.append(time) }
        }
        try #require(gait.initialContacts.count == expected.count, "\(gait.initialContacts)")
        for (found, truth) in zip(gait.initialContacts, expected) {
            #expect(abs(found - truth) < 0.005, "initial contact at \(found) s, expected \(truth) s")
        }
        for (k, final) in gait.finalContacts.enumerated() {
            let value = try #require(final, "no final contact after \(gait.initialContacts[k]) s")
            #expect(abs(value - (expected[k] + period / 4)) < 0.005, "final contact at \(value) s")
        }
        let step = 2 * (4.739 / 4) * (2 * l * h - h * h).squareRoot()
        try #require(gait.strides.count == expected.count - 2)
        for stride in gait.strides {
            #expect(abs(stride.duration - 2 * period) < 0.005)
            #expect(abs(stride.stance - 1.25 * period) < 0.01, "stance \(stride.stance) s")
            #expect(abs(stride.swing - 0.75 * period) < 0.01, "swing \(stride.swing) s")
            #expect(abs(stride.doubleSupport - 0.5 * period) < 0.01, "double support \(stride.doubleSupport) s")
            let length = try #require(stride.length)
            #expect(abs(length / (2 * step) - 1) < 0.005, "stride length \(length) m, expected \(2 * step) m")
            let speed = try #require(stride.speed)
            #expect(abs(speed / (2 * step * f / 2) - 1) < 0.006, "speed \(speed) m/s")
        }
    }

    /// Step length grows with the bounce as √(2lh − h²): four times the bounce gives about twice the length.
    @Test(arguments: [0.01, 0.02, 0.04, 0.08])
    func stepLengthFollowsTheBounce(h: Double) throws {
        let l = 1.0
        let r = Self.recording(f: 1.6, h: h, duration: 12)
        let gait = try #require(
            LowerBackGait().analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: 3, end: 9, samplingRate: 100, sensorHeight: l))
        let lengths = gait.stepLengths.compactMap { $0 }
        try #require(!lengths.isEmpty)
        let expected = 2 * (4.739 / 4) * (2 * l * h - h * h).squareRoot()
        for length in lengths { #expect(abs(length / expected - 1) < 0.006, "\(length) m for \(expected) m") }
    }

    /// No sensor height: contacts and timing, no lengths.
    ///
    /// Unusable input: nil, never a trap.
    @Test func withoutHeightAndOnBadInput() throws {
        let r = Self.recording(f: 1.8, h: 0.04, duration: 10)
        let gait = try #require(
            LowerBackGait().analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: 2, end: 8, samplingRate: 100, sensorHeight: nil))
        #expect(!gait.strides.isEmpty)
        #expect(gait.strides.allSatisfy { $0.length == nil && $0.speed == nil })
        let analyser = LowerBackGait()
        #expect(
            analyser.analyze(timestamps: [], x: [], y: [], z: [], start: 0, end: 1, samplingRate: 100, sensorHeight: 1)
                == nil)
        #expect(
            analyser.analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: 2, end: 8, samplingRate: .infinity, sensorHeight: 1)
                == nil)
        #expect(
            analyser.analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: 2, end: 8, samplingRate: 1e9, sensorHeight: 1) == nil)
        #expect(
            analyser.analyze(
                timestamps: r.t, x: r.x, y: r.y, z: r.z, start: .nan, end: 8, samplingRate: 100, sensorHeight: 1) == nil
        )
        let zero = [Double](repeating: 0, count: r.t.count)
        #expect(
            analyser.analyze(
                timestamps: r.t, x: zero, y: zero, z: zero, start: 2, end: 8, samplingRate: 100, sensorHeight: 1)
                == nil)
    }
}
