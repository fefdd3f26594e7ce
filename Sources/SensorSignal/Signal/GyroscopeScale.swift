/// How many units of a gyroscope's numbers make one radian per second, measured against the accelerometer it was
/// recorded with: the physics behind telling deg/s from rad/s when a file does not say.
///
/// Gravity is fixed in the world, so in the sensor's frame its direction ĝ turns against the sensor's rotation:
/// dĝ/dt = −ω × ĝ with ω in rad/s. With ĝ from the low-passed acceleration and ω the gyroscope's numbers divided by
/// an unknown scale `k`, the least-squares `k` over the recording is Σ|p|² / Σ p·d, with p = −ω × ĝ and d = dĝ/dt
/// (both from the same low-pass, Butterworth order 2 at 1 Hz, zero phase). It is about 1 for rad/s and about
/// 180/π ≈ 57.3 for deg/s; linear acceleration and sensor noise move it by a factor of about 2 either way (measured:
/// 0.6–2.3 on WeAllWalk's iPhone gyroscopes in rad/s, 45–94 on Mobilise-D's lower-back IMU in deg/s).
public enum GyroscopeScale {
    /// The scale `k` (gyroscope units per rad/s) of the type's documentation.
    ///
    /// - Parameters:
    ///   - acceleration: Gravity-including acceleration per sample, any unit, device axes.
    ///   - rotationRate: The gyroscope's numbers per sample, same axes, unknown unit.
    ///   - samplingRate: Samples per second, Hz.
    /// - Returns: `k`; nil when the recording is too short for the filter (at least 16 samples), the rate is not
    ///   above 2 Hz, or the sensor did not tilt (Σ p·d not positive).
    public static func estimate(
        acceleration: (x: [Double], y: [Double], z: [Double]),
        rotationRate: (x: [Double], y: [Double], z: [Double]), samplingRate: Double
    ) -> Double? {
        let n = min(
            acceleration.x.count, acceleration.y.count, acceleration.z.count, rotationRate.x.count,
            rotationRate.y.count, rotationRate.z.count)
        guard samplingRate.isFinite, samplingRate > 2, n >= 3,
            let lowPass = try? Butterworth.design(order: 2, band: .lowpass(cutoff: 1), sampleRate: samplingRate),
            n > lowPass.zeroPhasePadLength
        else { return nil }
        func smooth(_ values: [Double]) -> [Double]? { try? lowPass.filterZeroPhase(Array(values.prefix(n))) }
        guard let ax = smooth(acceleration.x), let ay = smooth(acceleration.y), let az = smooth(acceleration.z),
            let wx = smooth(rotationRate.x), let wy = smooth(rotationRate.y), let wz = smooth(rotationRate.z)
        else { return nil }
        func unit(_ i: Int) -> (Double, Double, Double)? {
            let norm = (ax[i] * ax[i] + ay[i] * ay[i] + az[i] * az[i]).squareRoot()
            guard norm > 0, norm.isFinite else { return nil }
            return (ax[i] / norm, ay[i] / norm, az[i] / norm)
        }
        var pp = 0.0
        var pd = 0.0
        for i in 1..<(n - 1) {
            guard let g = unit(i), let before = unit(i - 1), let after = unit(i + 1) else { continue }
            let scale = samplingRate / 2
            let d = ((after.0 - before.0) * scale, (after.1 - before.1) * scale, (after.2 - before.2) * scale)
            // p = −ω × ĝ = ĝ × ω.
            let p = (g.1 * wz[i] - g.2 * wy[i], g.2 * wx[i] - g.0 * wz[i], g.0 * wy[i] - g.1 * wx[i])
            let square = p.0 * p.0 + p.1 * p.1 + p.2 * p.2
            let dot = p.0 * d.0 + p.1 * d.1 + p.2 * d.2
            guard square.isFinite, dot.isFinite else { continue }
            pp += square
            pd += dot
        }
        guard pd > 0, pp > 0 else { return nil }
        let k = pp / pd
        return k.isFinite ? k : nil
    }
}
