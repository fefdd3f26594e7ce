import Foundation
import SensorSignal

/// A walking wrist, modelled from physics (no wrist recording with ground truth is in the shared data), for the
/// step detector's arm-swing tests: the arm a 0.6 m pendulum swinging once per stride about 0.1 rad forward, the
/// sensor turning with it (its x axis along the forearm's forward direction), the body rising and falling at the step
/// frequency with a fore-aft surge of half that, 0.02 g of noise per axis (seed 5), 50 Hz, 60 s.
public enum WristModel {
    /// One walk.
    ///
    /// - Parameters:
    ///   - f: Step frequency, Hz (the arm swings at half of it).
    ///   - swing: Swing amplitude, rad.
    ///   - vertical: The body's vertical displacement amplitude, m.
    /// - Returns: Times (s), |a| (g) and the three axes (g, gravity included).
    public static func walk(stepFrequency f: Double, swing: Double, vertical: Double) -> (
        times: [Double], values: [Double], axes: (x: [Double], y: [Double], z: [Double])
    ) {
        var random = SplitMix64(seed: 5)
        let rate = 50.0
        let length = 0.6  // m, shoulder to wrist
        let g = 9.81
        let swingRate = Double.pi * f  // rad/s: the arm swings once per stride, at half the step frequency
        let stepRate = 2 * Double.pi * f
        var times: [Double] = []
        var values: [Double] = []
        var axes: (x: [Double], y: [Double], z: [Double]) = ([], [], [])
        for i in 0..<Int(60 * rate) {
            let t = Double(i) / rate
            let angle = 0.1 + swing * sin(swingRate * t)
            let velocity = swing * swingRate * cos(swingRate * t)
            let acceleration = -swing * swingRate * swingRate * sin(swingRate * t)
            // The wrist at length·(sin θ, −cos θ) from the shoulder (forward, up): tangential and centripetal terms.
            var forward = length * (acceleration * cos(angle) - velocity * velocity * sin(angle))
            var up = length * (acceleration * sin(angle) + velocity * velocity * cos(angle))
            up -= vertical * stepRate * stepRate * cos(stepRate * t)
            forward -= 0.5 * vertical * stepRate * stepRate * sin(stepRate * t)
            // The sensor turns with the arm: its x axis along the forearm's forward direction at angle θ.
            let (c, s) = (cos(angle), sin(angle))
            let (worldX, worldZ) = (forward / g, 1 + up / g)
            let x = c * worldX + s * worldZ + 0.02 * random.nextNormal()
            let y = 0.02 * random.nextNormal()
            let z = -s * worldX + c * worldZ + 0.02 * random.nextNormal()
            times.append(t)
            values.append((x * x + y * y + z * z).squareRoot())
            axes.x.append(x)
            axes.y.append(y)
            axes.z.append(z)
        }
        return (times, values, axes)
    }
}
