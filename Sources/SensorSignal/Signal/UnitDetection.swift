/// Which acceleration unit a 3-axis series is in, judged from the median length of its vectors.
///
/// A vector that contains gravity (raw accelerometer, or CoreMotion's `gravity`) has a median length of about
/// 1 g whatever the orientation or activity, which is 1 in g and 9.81 in m/s². The median |v| = √(x² + y² + z²)
/// over the rows whose three values are finite is classified as:
/// - ``Unit/g`` when it lies within a factor ``toleranceFactor`` (2) of 1, i.e. in [0.5, 2];
/// - ``Unit/metersPerSecondSquared`` when within the same factor of 9.80665, i.e. in [4.9, 19.6];
/// - ``Unit/unknown`` otherwise (e.g. gravity-free user acceleration, or a series of zeros); the median is kept.
///
/// Detection reports; it never rescales data.
public struct UnitDetection: Sendable, Hashable, Codable {
    /// A detected acceleration unit.
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        /// Standard gravity (9.80665 m/s²): the median magnitude is ≈ 1.
        case g
        /// Metres per second squared: the median magnitude is ≈ 9.81.
        case metersPerSecondSquared = "m/s^2"
        /// Neither: the median magnitude is far from both, or there are no finite rows.
        case unknown
    }

    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665
    /// Largest factor by which the median magnitude may differ from 1 g and still be classified (2: the g and m/s² bands do not overlap and tolerate vigorous motion).
    public static let toleranceFactor = 2.0

    /// What was measured, such as `"|acceleration|"` or `"|gravity|"`.
    public var quantity: String
    /// Median vector length, in the series' own unit; nil when no row has three finite values.
    public var medianMagnitude: Double?
    /// The verdict.
    public var unit: Unit
    /// Number of rows used (those with three finite values).
    public var samplesUsed: Int

    /// Detects the unit of the vectors `(x[i], y[i], z[i])`.
    ///
    /// Complexity: O(n) expected (the median is found by selection); allocates the magnitudes and one copy.
    ///
    /// - Parameters:
    ///   - quantity: A name for the report, e.g. `"|acceleration|"`.
    ///   - x: x components (any unit).
    ///   - y: y components, as many as `x`.
    ///   - z: z components, as many as `x`.
    public init(quantity: String, x: [Double], y: [Double], z: [Double]) {
        precondition(
            x.count == y.count && y.count == z.count, "axes differ in length: x \(x.count), y \(y.count), z \(z.count)")
        var magnitudes: [Double] = []
        magnitudes.reserveCapacity(x.count)
        for i in x.indices {
            let m = (x[i] * x[i] + y[i] * y[i] + z[i] * z[i]).squareRoot()
            if m.isFinite { magnitudes.append(m) }
        }
        self.quantity = quantity
        self.samplesUsed = magnitudes.count
        let median = magnitudes.isEmpty ? nil : RStatistics.median(magnitudes)
        self.medianMagnitude = median
        self.unit = median.map(Self.classify(medianMagnitude:)) ?? .unknown
    }

    /// Classifies a median vector length (see the type's description for the bands).
    ///
    /// - Parameter medianMagnitude: The median |v| in the series' unit.
    /// - Returns: ``Unit/g``, ``Unit/metersPerSecondSquared`` or ``Unit/unknown``.
    public static func classify(medianMagnitude: Double) -> Unit {
        func near(_ reference: Double) -> Bool {
            medianMagnitude >= reference / toleranceFactor && medianMagnitude <= reference * toleranceFactor
        }
        if near(1) { return .g }
        if near(standardGravity) { return .metersPerSecondSquared }
        return .unknown
    }

    /// One line for reports, such as `median |acceleration| = 1.0123 → g (2023 samples)`.
    public var summary: String {
        guard let medianMagnitude else { return "no finite \(quantity) samples: unit unknown" }
        let verdict = unit == .unknown ? "unknown unit (neither ≈ 1 g nor ≈ 9.81 m/s²)" : unit.rawValue
        return
            "median \(quantity) = \(HygieneText.number(medianMagnitude, decimals: 4)) → \(verdict) (\(samplesUsed) samples)"
    }
}
