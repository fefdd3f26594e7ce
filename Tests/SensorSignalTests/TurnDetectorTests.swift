import Foundation
import SensorSignal
import Testing

/// Turns (El-Gohary 2014 with Mobilise-D's parameters) and the gyroscope's unit, against motion whose turns and
/// rotation are known by construction.
@Suite struct TurnDetectorTests {
    /// A yaw rate that turns `angle` degrees in `duration` seconds with a raised-cosine profile starting at
    /// `start`, on top of walking's trunk rotation (±8 °/s at 0.9 Hz) and noise of 1 °/s.
    static func yawRate(
        rate: Double, length: Double, turns: [(start: Double, duration: Double, angle: Double)], seed: UInt64 = 7
    ) -> (times: [Double], values: [Double]) {
        var generator = SplitMix(seed: seed)
        let n = Int((length * rate).rounded())
        var times = [Double](repeating: 0, count: n)
        var values = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / rate
            times[i] = t
            var w = 8 * sin(2 * Double.pi * 0.9 * t) + generator.gaussian()
            for turn in turns where t >= turn.start && t < turn.start + turn.duration {
                // ∫ (A/D)(1 − cos(2π(t − s)/D)) dt over D = A.
                w += turn.angle / turn.duration * (1 - cos(2 * Double.pi * (t - turn.start) / turn.duration))
            }
            values[i] = w
        }
        return (times, values)
    }

    /// A 90° turn and a −180° turn while walking are found with their angles (within 3°), durations and order.
    @Test(arguments: [25.0, 50.0, 100.0])
    func turnsOfKnownAngleAreFound(rate: Double) throws {
        let signal = Self.yawRate(rate: rate, length: 30, turns: [(8, 2, 90), (18, 3, -180)])
        let turns = try #require(
            TurnDetector().detect(timestamps: signal.times, verticalRate: signal.values, samplingRate: rate))
        try #require(turns.count == 2, "\(turns)")
        #expect(abs(turns[0].angle - 90) < 3, "\(turns[0])")
        #expect(abs(turns[1].angle - 180) < 3, "\(turns[1])")
        #expect(turns[0].direction == 1 && turns[1].direction == -1)
        // The bounds are where the smoothed rate falls under 5 °/s: around the turn, and a little wider (the 0.5 Hz
        // smoothing spreads it).
        #expect(
            turns[0].start < 8.3 && turns[0].start > 6.5 && turns[0].end > 9.7 && turns[0].end < 11.5, "\(turns[0])")
        #expect(abs(turns[0].peak - 9) < 0.3 && abs(turns[1].peak - 19.5) < 0.3)
        #expect(turns[0].duration >= 2 && turns[0].duration <= 10)
        // The smoothed peak is below the raw one (90°/2 s peaks at 90 °/s).
        #expect(turns[0].peakAngularVelocity > 30 && turns[0].peakAngularVelocity < 90)
    }

    /// Walking without turning, standing still and a turn of 30° give no turn; a turn of 300° stretched over 16 s
    /// (12 s of it above 5 °/s: longer than 10 s) neither.
    @Test func smallSlowAndNoTurnsAreNotTurns() throws {
        for turns in [[], [(start: 10.0, duration: 1.5, angle: 30.0)], [(start: 5.0, duration: 16.0, angle: 300.0)]] {
            let signal = Self.yawRate(rate: 50, length: 30, turns: turns)
            let found = try #require(
                TurnDetector().detect(timestamps: signal.times, verticalRate: signal.values, samplingRate: 50))
            #expect(found.isEmpty, "\(turns): \(found)")
        }
        let still = [Double](repeating: 0.2, count: 1500)
        let times = (0..<1500).map { Double($0) / 50 }
        #expect(TurnDetector().detect(timestamps: times, verticalRate: still, samplingRate: 50) == [])
    }

    /// Two 60° turns the same way with a pause of 1 s between are two turns; a U-turn of two halves whose smoothed
    /// rate never falls under 5 °/s is one.
    @Test func pausesSeparateTurns() throws {
        let apart = Self.yawRate(rate: 50, length: 30, turns: [(8, 1.5, 60), (12.5, 1.5, 60)])
        let two = try #require(
            TurnDetector().detect(timestamps: apart.times, verticalRate: apart.values, samplingRate: 50))
        #expect(two.count == 2, "\(two)")
        let joined = Self.yawRate(rate: 50, length: 30, turns: [(8, 1.5, 90), (9.5, 1.5, 90)])
        let one = try #require(
            TurnDetector().detect(timestamps: joined.times, verticalRate: joined.values, samplingRate: 50))
        #expect(one.count == 1 && abs((one.first?.angle ?? 0) - 180) < 3, "\(one)")
    }

    /// The vertical component does not depend on how the sensor is worn: a yaw rate about gravity, seen in a
    /// sensor tilted arbitrarily, is recovered (rad/s in, °/s out).
    @Test func verticalAngularVelocityIsOrientationFree() {
        // Gravity along a tilted axis u (any scale); the rotation about u plus one perpendicular to it.
        let u = (0.3, -0.5, 0.81)
        let norm = (u.0 * u.0 + u.1 * u.1 + u.2 * u.2).squareRoot()
        let perpendicular = (0.5, 0.3, 0.0)  // u · p = 0.15 − 0.15 + 0 = 0
        let yaw = 0.7  // rad/s
        let w = (
            yaw * u.0 / norm + 2 * perpendicular.0, yaw * u.1 / norm + 2 * perpendicular.1,
            yaw * u.2 / norm + 2 * perpendicular.2
        )
        let out = TurnDetector.verticalAngularVelocity(
            rotationRate: ([w.0], [w.1], [w.2]), gravity: ([9.81 * u.0], [9.81 * u.1], [9.81 * u.2]))
        #expect(abs(out[0] - yaw * 180 / Double.pi) < 1e-9)
        // A zero gravity vector gives 0, not NaN.
        #expect(TurnDetector.verticalAngularVelocity(rotationRate: ([1], [1], [1]), gravity: ([0], [0], [0])) == [0])
    }

    /// Too short for the 0.5 Hz smoothing: nil, not an empty list.
    @Test func tooShortIsNil() {
        let times = (0..<15).map { Double($0) / 50 }
        #expect(
            TurnDetector().detect(timestamps: times, verticalRate: Array(repeating: 30, count: 15), samplingRate: 50)
                == nil)
        let slow = (0..<100).map { Double($0) }
        #expect(
            TurnDetector().detect(timestamps: slow, verticalRate: Array(repeating: 30, count: 100), samplingRate: 1)
                == nil)
    }

    /// A sensor tilting back and forth about its x axis (±20° at 0.8 Hz, gravity fixed in the world, plus linear
    /// acceleration of 0.1 g at 1.9 Hz): its gyroscope numbers are 1 unit per rad/s when in rad/s and 57.3 when in
    /// deg/s, which the scale estimate recovers within 10 %.
    @Test(arguments: [1.0, 180 / Double.pi])
    func gyroscopeScaleTellsRadiansFromDegrees(unitsPerRadian: Double) throws {
        let rate = 100.0
        let n = 3000
        var ax = [Double](repeating: 0, count: n)
        var ay = ax
        var az = ax
        var wx = ax
        let wy = ax
        let wz = ax
        for i in 0..<n {
            let t = Double(i) / rate
            let amplitude = 20 * Double.pi / 180
            let theta = amplitude * sin(2 * Double.pi * 0.8 * t)
            let thetaRate = amplitude * 2 * Double.pi * 0.8 * cos(2 * Double.pi * 0.8 * t)
            // Gravity (up, specific force) in the sensor frame after rotating the sensor by θ about x.
            ax[i] = 0.1 * sin(2 * Double.pi * 1.9 * t)
            ay[i] = sin(theta)
            az[i] = cos(theta) + 0.1 * cos(2 * Double.pi * 1.9 * t)
            wx[i] = thetaRate * unitsPerRadian
        }
        let k = try #require(
            GyroscopeScale.estimate(acceleration: (ax, ay, az), rotationRate: (wx, wy, wz), samplingRate: rate))
        #expect(abs(k / unitsPerRadian - 1) < 0.1, "k = \(k)")
        // A sensor that never tilts tells nothing.
        let flat = [Double](repeating: 0, count: n)
        #expect(
            GyroscopeScale.estimate(
                acceleration: (flat, flat, [Double](repeating: 1, count: n)), rotationRate: (flat, flat, flat),
                samplingRate: rate) == nil)
    }
}

/// A small deterministic generator for the tests' noise.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A standard normal value (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = (Double(next() >> 11) + 1) / 9_007_199_254_740_992
        let u2 = Double(next() >> 11) / 9_007_199_254_740_992
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
