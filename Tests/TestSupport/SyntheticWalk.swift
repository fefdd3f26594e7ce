import Foundation
import SensorSignal

@testable import StudyInputs

/// Walking-like acceleration with a known step frequency, in a random orientation.
public enum SyntheticWalk {
    /// Vertical, anterior-posterior and medio-lateral components of one gait cycle, g (step frequency f):
    /// a step-rate vertical bounce with a harmonic, a stride-rate asymmetry, and white noise of 0.03 g.
    public static func components(
        stepFrequency f: Double, duration: Double, rate: Double, seed: UInt64, amplitude: Double
    ) -> (times: [Double], vertical: [Double], forward: [Double], lateral: [Double]) {
        var random = SplitMix64(seed: seed)
        func noise() -> Double {  // Box-Muller
            let u = max(random.nextUnit(), 1e-300)
            let v = random.nextUnit()
            return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
        }
        let n = Int(duration * rate)
        var times: [Double] = []
        var vertical: [Double] = []
        var forward: [Double] = []
        var lateral: [Double] = []
        for i in 0..<n {
            let t = Double(i) / rate
            let phase = 2 * Double.pi * f * t
            times.append(1000 + t)
            vertical.append(
                amplitude * (0.25 * cos(phase) + 0.08 * cos(2 * phase + 0.5) + 0.04 * cos(phase / 2)) + 0.03 * noise())
            forward.append(amplitude * (0.1 * sin(phase) + 0.03 * cos(phase / 2)) + 0.03 * noise())
            lateral.append(amplitude * 0.05 * sin(phase / 2) + 0.03 * noise())
        }
        return (times, vertical, forward, lateral)
    }

    /// A random rotation matrix (uniform unit quaternion).
    public static func rotation(seed: UInt64) -> [[Double]] {
        var random = SplitMix64(seed: seed &* 31)
        var q = (0..<4).map { _ in random.nextUnit() - 0.5 }
        let norm = q.map { $0 * $0 }.reduce(0, +).squareRoot()
        q = q.map { $0 / norm }
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    }

    /// An accelerometer log (gravity included) in `unit`, rotated at random.
    public static func accelerometer(
        stepFrequency: Double, duration: Double, rate: Double, unit: AccelerationUnit, seed: UInt64,
        amplitude: Double = 1
    ) -> AccelerometerLog {
        let c = components(
            stepFrequency: stepFrequency, duration: duration, rate: rate, seed: seed, amplitude: amplitude)
        let r = rotation(seed: seed)
        let scale = 1 / unit.toG
        var axes: [[Double]] = [[], [], []]
        for i in c.times.indices {
            let v = [c.lateral[i], c.forward[i], 1 + c.vertical[i]]
            for row in 0..<3 { axes[row].append(scale * (r[row][0] * v[0] + r[row][1] * v[1] + r[row][2] * v[2])) }
        }
        return AccelerometerLog(
            timestamp: c.times, timestampSince1970: nil,
            acceleration: Vector3Series(x: axes[0], y: axes[1], z: axes[2]), unit: unit)
    }

    /// A device-motion log: the same motion split into user acceleration and a unit gravity vector, rotated.
    public static func deviceMotion(
        stepFrequency: Double, duration: Double, rate: Double, seed: UInt64
    ) -> DeviceMotionLog {
        let c = components(stepFrequency: stepFrequency, duration: duration, rate: rate, seed: seed, amplitude: 1)
        let r = rotation(seed: seed)
        var user: [[Double]] = [[], [], []]
        var gravity: [[Double]] = [[], [], []]
        for i in c.times.indices {
            let v = [c.lateral[i], c.forward[i], c.vertical[i]]
            for row in 0..<3 {
                user[row].append(r[row][0] * v[0] + r[row][1] * v[1] + r[row][2] * v[2])
                gravity[row].append(r[row][2])
            }
        }
        let zeros = [Double](repeating: 0, count: c.times.count)
        return DeviceMotionLog(
            timestamp: c.times, timestampSince1970: nil,
            userAcceleration: Vector3Series(x: user[0], y: user[1], z: user[2]),
            gravity: Vector3Series(x: gravity[0], y: gravity[1], z: gravity[2]),
            rotationRate: Vector3Series(x: zeros, y: zeros, z: zeros),
            attitude: Vector3Series(x: zeros, y: zeros, z: zeros),
            attitudeW: [Double](repeating: 1, count: c.times.count), magneticField: nil, magneticFieldAccuracy: nil)
    }

    /// An accelerometer log as a ResearchKit recorder file (`{"items":[…]}`).
    public static func recorderLog(_ log: AccelerometerLog) -> String {
        let items = log.timestamp.indices.map { i in
            "{\"timestamp\":\(log.timestamp[i]),\"x\":\(log.acceleration.x[i]),\"y\":\(log.acceleration.y[i]),"
                + "\"z\":\(log.acceleration.z[i])}"
        }
        return "{\"items\":[" + items.joined(separator: ",") + "]}"
    }

    /// A sensor table of a 1.8 steps/s walk at 100 Hz, `rows` samples: `header` first, then per sample the cells
    /// `cells(i, t, s, c)` (t the time, s and c the sine and cosine of the step phase) joined by `separator`.
    public static func table(
        rows: Int, header: String, separator: String = ",", cells: (Int, Double, Double, Double) -> [Double]
    ) -> String {
        var text = header + "\n"
        for i in 0..<rows {
            let t = Double(i) / 100
            let phase = 2 * Double.pi * 1.8 * t
            text += cells(i, t, sin(phase), cos(phase)).map { "\($0)" }.joined(separator: separator) + "\n"
        }
        return text
    }

    /// `time,x,y,z` in g, gravity on −z (a phone walk as a generic accelerometer CSV).
    public static func csv(rows: Int) -> String {
        table(rows: rows, header: "time,x,y,z") { _, t, s, c in [t, 0.1 * s, 0.05 * c, -1 + 0.3 * s] }
    }

    /// An XSens-style export: a packet counter, m/s², tab-separated, no stated rate.
    public static func xsens(rows: Int) -> String {
        table(rows: rows, header: "PacketCounter\tAcc_X\tAcc_Y\tAcc_Z", separator: "\t") { i, _, s, c in
            [Double(i), 0.98 * s, 0.49 * c, 9.81 + 2.9 * s]
        }
    }
}
