/// An interval `minimum ≤ value ≤ maximum` that a peak property must lie in; either border may be open.
///
/// This is scipy's interval argument to `scipy.signal.find_peaks` (`height`, `threshold`, `prominence`,
/// `width`, `plateau_size`): a bare number is the minimum, a pair is `(min, max)`, and `None` is an open border.
/// Both borders are inclusive, as in scipy. ``unbounded`` keeps every peak but still makes `findPeaks(in:…)`
/// compute the property, like scipy's `(None, None)`.
///
/// A float or integer literal is the minimum: `height: 0.5` means `PeakBounds(minimum: 0.5)`.
/// The unit is that of the property it constrains (signal units for heights and prominences, samples for widths).
/// Per-sample (array) borders, which scipy also accepts, are not supported.
public struct PeakBounds: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The inclusive lower border, or `nil` for none.
    public var minimum: Double?
    /// The inclusive upper border, or `nil` for none.
    public var maximum: Double?

    /// Creates the interval `minimum ≤ value ≤ maximum`; a `nil` border is open.
    ///
    /// - Parameters:
    ///   - minimum: Inclusive lower border, or `nil`.
    ///   - maximum: Inclusive upper border, or `nil`.
    public init(minimum: Double? = nil, maximum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Creates the half-open interval `value ≤ …` from a float literal (scipy's bare-number form).
    ///
    /// - Parameter value: The inclusive minimum.
    public init(floatLiteral value: Double) {
        self.init(minimum: value)
    }

    /// Creates the half-open interval `value ≤ …` from an integer literal (scipy's bare-number form).
    ///
    /// - Parameter value: The inclusive minimum.
    public init(integerLiteral value: Int) {
        self.init(minimum: Double(value))
    }

    /// Creates `range.lowerBound ≤ value ≤ range.upperBound` from a closed range such as `0.5...2`.
    ///
    /// - Parameter range: The inclusive interval.
    public init(_ range: ClosedRange<Double>) {
        self.init(minimum: range.lowerBound, maximum: range.upperBound)
    }

    /// Creates `range.lowerBound ≤ value` from a partial range such as `0.5...`.
    ///
    /// - Parameter range: The inclusive lower border.
    public init(_ range: PartialRangeFrom<Double>) {
        self.init(minimum: range.lowerBound)
    }

    /// Creates `value ≤ range.upperBound` from a partial range such as `...2`.
    ///
    /// - Parameter range: The inclusive upper border.
    public init(_ range: PartialRangeThrough<Double>) {
        self.init(maximum: range.upperBound)
    }

    /// The interval `minimum ≤ value` (scipy: `x` or `(x, None)`).
    ///
    /// - Parameter minimum: The inclusive lower border.
    /// - Returns: A half-open interval.
    public static func atLeast(_ minimum: Double) -> PeakBounds { PeakBounds(minimum: minimum) }

    /// The interval `value ≤ maximum` (scipy: `(None, x)`).
    ///
    /// - Parameter maximum: The inclusive upper border.
    /// - Returns: A half-open interval.
    public static func atMost(_ maximum: Double) -> PeakBounds { PeakBounds(maximum: maximum) }

    /// The interval `minimum ≤ value ≤ maximum` (scipy: `(min, max)`).
    ///
    /// - Parameters:
    ///   - minimum: The inclusive lower border.
    ///   - maximum: The inclusive upper border.
    /// - Returns: A closed interval.
    public static func between(_ minimum: Double, _ maximum: Double) -> PeakBounds {
        PeakBounds(minimum: minimum, maximum: maximum)
    }

    /// The open interval (scipy: `(None, None)`): excludes nothing but requests the property.
    public static let unbounded = PeakBounds()

    /// Whether `value` lies in the interval; borders are inclusive and NaN fails any border that is set (as in scipy).
    ///
    /// - Parameter value: The property value to test.
    /// - Returns: `minimum ≤ value ≤ maximum`, treating a `nil` border as satisfied.
    public func contains(_ value: Double) -> Bool {
        if let minimum, !(minimum <= value) { return false }
        if let maximum, !(value <= maximum) { return false }
        return true
    }
}
