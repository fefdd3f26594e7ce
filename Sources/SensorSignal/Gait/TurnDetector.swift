/// Turns from the angular velocity about the vertical axis.
///
/// The method is El-Gohary and colleagues' (Sensors 14, 2014, "Continuous monitoring of turning in patients with
/// movement disability"), with the parameters the Mobilise-D pipeline runs it with.
///
/// 1. The vertical angular velocity ω·û (°/s, ``verticalAngularVelocity(rotationRate:gravity:)``: the gyroscope
///    projected on the direction of gravity, so the sensor may be worn in any orientation) is low-passed
///    (Butterworth order 4, 0.5 Hz, zero phase).
/// 2. Every local maximum of its magnitude of at least 15 °/s is a turn candidate; the candidate runs from the last
///    sample under 5 °/s before the peak to the first one after it (the recording's ends where there is none).
/// 3. Candidates in the same direction less than 0.05 s apart are merged.
/// 4. The turn angle is the unfiltered vertical angular velocity integrated (trapezoids) from start to end; a turn
///    is kept when it lasts 0.5–10 s and turns at least 45°.
///
/// Times are in the caller's time base (sample times); durations count samples at the sampling rate. Stateless
/// apart from its configuration; safe to share between tasks.
public struct TurnDetector: Sendable {
    /// The method's parameters; the defaults are El-Gohary's thresholds with Mobilise-D's smoothing.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Cut-off of the low-pass filter applied before peaks are searched, Hz (0.5 Hz).
        public var smoothingCutoff = 0.5
        /// Order of that Butterworth filter (4).
        public var smoothingOrder = 4
        /// Smallest peak of the smoothed |ω·û| that makes a turn candidate, °/s (15 °/s).
        public var minimumPeakRate = 15.0
        /// Rate under which the body is not turning: a candidate's bounds, °/s (5 °/s).
        public var boundaryRate = 5.0
        /// Same-direction candidates at most this far apart are one turn, s (0.05 s).
        public var mergeGap = 0.05
        /// Durations a turn may have, s (0.5–10 s).
        public var durationRange: ClosedRange<Double> = 0.5...10
        /// Smallest turn angle, degrees (45°).
        public var minimumAngle = 45.0

        /// The published parameters.
        public init() {}
    }

    /// One turn.
    public struct Turn: Sendable, Hashable, Codable {
        /// Start, s: the last sample under the boundary rate before the peak (the first sample when there is none).
        public var start: Double
        /// End, s: the first sample under the boundary rate after the peak (the last sample when there is none).
        public var end: Double
        /// Duration, s: the samples from start to end over the sampling rate.
        public var duration: Double
        /// Angle turned, degrees, ≥ 0: |∫ ω·û dt| from start to end.
        public var angle: Double
        /// +1 when the turn is counter-clockwise about ``verticalAngularVelocity(rotationRate:gravity:)``'s û (the
        /// direction the given gravity vector points: up for a gravity-including accelerometer, down for
        /// CoreMotion's `gravity`), −1 otherwise.
        public var direction: Int
        /// Largest smoothed |ω·û| during the turn, °/s.
        public var peakAngularVelocity: Double
        /// Time of that peak, s.
        public var peak: Double
    }

    /// The parameters.
    public var configuration: Configuration

    /// Creates a detector.
    ///
    /// - Parameter configuration: The parameters (default: the published ones).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The angular velocity about the direction of `gravity`, °/s: (ω · g) / |g| per sample, converted from rad/s.
    ///
    /// - Parameters:
    ///   - rotationRate: Angular velocity per sample, rad/s, device axes.
    ///   - gravity: The gravity direction per sample in the same axes, any scale (``gravityDirection(x:y:z:samplingRate:)``
    ///     for an accelerometer, CoreMotion's `gravity`); a zero or non-finite vector gives 0.
    /// - Returns: One value per sample (the shorter of the two inputs), °/s.
    public static func verticalAngularVelocity(
        rotationRate: (x: [Double], y: [Double], z: [Double]), gravity: (x: [Double], y: [Double], z: [Double])
    ) -> [Double] {
        let n = min(
            rotationRate.x.count, rotationRate.y.count, rotationRate.z.count, gravity.x.count, gravity.y.count,
            gravity.z.count)
        let degrees = 180 / Double.pi
        var out = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let gx = gravity.x[i]
            let gy = gravity.y[i]
            let gz = gravity.z[i]
            let norm = (gx * gx + gy * gy + gz * gz).squareRoot()
            guard norm > 0, norm.isFinite else { continue }
            let value = (rotationRate.x[i] * gx + rotationRate.y[i] * gy + rotationRate.z[i] * gz) / norm * degrees
            out[i] = value.isFinite ? value : 0
        }
        return out
    }

    /// The slowly varying direction of a gravity-including acceleration: each axis low-passed (Butterworth order 2,
    /// 0.25 Hz, zero phase), as a vector per sample (not normalised; the unit of the input).
    ///
    /// - Parameters:
    ///   - x: x acceleration per sample, any unit.
    ///   - y: y acceleration.
    ///   - z: z acceleration.
    ///   - samplingRate: Samples per second, Hz.
    /// - Returns: The low-passed axes; nil when the signal is too short for the filter (under about 5 s at 0.25 Hz
    ///   needs at least 16 samples) or the rate cannot carry 0.25 Hz.
    public static func gravityDirection(x: [Double], y: [Double], z: [Double], samplingRate: Double)
        -> (x: [Double], y: [Double], z: [Double])?
    {
        guard samplingRate.isFinite, samplingRate > 1,
            let lowPass = try? Butterworth.design(order: 2, band: .lowpass(cutoff: 0.25), sampleRate: samplingRate),
            let fx = try? lowPass.filterZeroPhase(x), let fy = try? lowPass.filterZeroPhase(y),
            let fz = try? lowPass.filterZeroPhase(z)
        else { return nil }
        return (fx, fy, fz)
    }

    /// The sampling rate of `timestamps`: one over their median positive interval, Hz; nil with fewer than two
    /// increasing times.
    ///
    /// - Parameter timestamps: Sample times, s.
    /// - Returns: The rate, Hz.
    public static func samplingRate(of timestamps: [Double]) -> Double? {
        SamplingInterval.medianPositiveInterval(timestamps).flatMap { $0 > 0 ? 1 / $0 : nil }
    }

    /// The turns of a recording.
    ///
    /// - Parameters:
    ///   - timestamps: Sample times, s, increasing (one per value of `verticalRate`).
    ///   - verticalRate: The vertical angular velocity, °/s (``verticalAngularVelocity(rotationRate:gravity:)``).
    ///   - samplingRate: Samples per second, Hz (the median rate of `timestamps`).
    /// - Returns: The turns in time order; nil when the recording is too short for the smoothing filter (order 4:
    ///   more than 15 samples) or the rate is not above twice the cut-off.
    public func detect(timestamps: [Double], verticalRate: [Double], samplingRate: Double) -> [Turn]? {
        let c = configuration
        let n = min(timestamps.count, verticalRate.count)
        guard n >= 2, samplingRate.isFinite, samplingRate > 2 * c.smoothingCutoff,
            let lowPass = try? Butterworth.design(
                order: c.smoothingOrder, band: .lowpass(cutoff: c.smoothingCutoff), sampleRate: samplingRate),
            n > lowPass.zeroPhasePadLength,
            let smoothed = try? lowPass.filterZeroPhase(Array(verticalRate.prefix(n)))
        else { return nil }
        // The yaw angle: cumulative trapezoids of the unfiltered rate over the sample times.
        var yaw = [Double](repeating: 0, count: n)
        for i in 1..<n {
            let dt = timestamps[i] - timestamps[i - 1]
            yaw[i] = yaw[i - 1] + (dt.isFinite && dt > 0 ? 0.5 * (verticalRate[i] + verticalRate[i - 1]) * dt : 0)
        }
        // Candidates: around each peak of |smoothed| of at least the peak rate (scipy `find_peaks`, as El-Gohary's
        // `findpeaks`), from the last sample under the boundary rate before it to the first one after it. Peaks of
        // one run above the boundary share that range: each run is scanned once.
        let magnitude = smoothed.map(abs)
        var candidates: [(start: Int, end: Int)] = []
        for peak in findPeaks(in: magnitude.span, height: .atLeast(c.minimumPeakRate)).indices {
            if let last = candidates.last, peak < last.end { continue }
            var start = peak
            while start > 0, magnitude[start] >= c.boundaryRate { start -= 1 }
            var end = peak
            while end < n, magnitude[end] >= c.boundaryRate { end += 1 }
            candidates.append((start: start, end: end))
        }
        func angle(_ range: (start: Int, end: Int)) -> Double { yaw[range.end - 1] - yaw[range.start] }
        // Merge same-direction candidates that overlap or are at most the gap apart.
        let gap = Int.clamped((c.mergeGap * samplingRate).rounded(), to: 0...n)
        var merged: [(start: Int, end: Int)] = []
        for direction in [1.0, -1.0] {
            var current: (start: Int, end: Int)?
            for candidate in candidates where (angle(candidate) >= 0 ? 1.0 : -1.0) == direction {
                if let open = current, candidate.start - open.end <= gap {
                    current = (open.start, max(open.end, candidate.end))
                } else {
                    if let open = current { merged.append(open) }
                    current = candidate
                }
            }
            if let open = current { merged.append(open) }
        }
        merged.sort { $0.start < $1.start }
        var turns: [Turn] = []
        for range in merged {
            let turned = angle(range)
            let duration = Double(range.end - range.start) / samplingRate
            guard c.durationRange.contains(duration), abs(turned) >= c.minimumAngle else { continue }
            var peak = range.start
            for k in range.start..<range.end where abs(smoothed[k]) > abs(smoothed[peak]) { peak = k }
            turns.append(
                Turn(
                    start: timestamps[range.start], end: timestamps[min(range.end, n - 1)], duration: duration,
                    angle: abs(turned), direction: turned >= 0 ? 1 : -1, peakAngularVelocity: abs(smoothed[peak]),
                    peak: timestamps[peak]))
        }
        return turns
    }
}
