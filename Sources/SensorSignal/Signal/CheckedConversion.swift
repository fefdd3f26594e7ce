extension Int {
    /// `value` rounded down and clamped into `range`; NaN gives `range.lowerBound`.
    ///
    /// Never traps: the comparison is made on the `Double` before anything is converted (use this, or
    /// `Int(exactly:)`, wherever a `Double` that is not known to be in range becomes an index or a count).
    public static func clamped(_ value: Double, to range: ClosedRange<Int>) -> Int {
        guard value > Double(range.lowerBound) else { return range.lowerBound }
        guard value < Double(range.upperBound) else { return range.upperBound }
        return Int(value.rounded(.down))  // in range: checked above
    }
}
