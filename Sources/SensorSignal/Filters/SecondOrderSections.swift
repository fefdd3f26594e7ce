/// A digital IIR filter as a cascade of biquads, the layout of a scipy `sos` array.
///
/// Each section is one row `[b0, b1, b2, a0, a1, a2]` of `scipy.signal` second-order sections with
/// transfer function
/// ```
///          b0 + b1·z⁻¹ + b2·z⁻²
/// Hₛ(z) = ──────────────────────,   H(z) = ∏ₛ Hₛ(z)
///          a0 + a1·z⁻¹ + a2·z⁻²
/// ```
/// and is stored normalised so that `a0 == 1` (scipy requires `a0 == 1`; ``init(rows:)`` divides by
/// `a0` instead). Sections are applied in order: the output of section 0 feeds section 1.
///
/// A value type: cheap to copy and `Sendable`. Filter with `filter(_:)`,
/// `filterZeroPhase(_:)` or, block by block, with an ``SOSFilter``.
public struct SecondOrderSections: Sendable, Equatable {
    /// One biquad: numerator `b0, b1, b2` and denominator `a0, a1, a2` (one scipy `sos` row).
    public struct Section: Sendable, Equatable {
        /// Numerator coefficient of z⁰.
        public var b0: Double
        /// Numerator coefficient of z⁻¹.
        public var b1: Double
        /// Numerator coefficient of z⁻².
        public var b2: Double
        /// Denominator coefficient of z⁰ (1 in every section of a ``SecondOrderSections``).
        public var a0: Double
        /// Denominator coefficient of z⁻¹.
        public var a1: Double
        /// Denominator coefficient of z⁻².
        public var a2: Double

        /// Creates a section from its six coefficients, in scipy row order.
        ///
        /// Not validated here: ``SecondOrderSections/init(sections:)`` validates and normalises.
        public init(b0: Double, b1: Double, b2: Double, a0: Double = 1, a1: Double, a2: Double) {
            self.b0 = b0
            self.b1 = b1
            self.b2 = b2
            self.a0 = a0
            self.a1 = a1
            self.a2 = a2
        }

        /// The section as a scipy row `[b0, b1, b2, a0, a1, a2]`.
        ///
        /// Allocates the 6-element array.
        public var row: [Double] { [b0, b1, b2, a0, a1, a2] }
    }

    /// The biquads in processing order, each with `a0 == 1`.
    public let sections: [Section]

    /// Number of biquads (scipy `len(sos)`); the filter order is at most twice this.
    public var count: Int { sections.count }

    /// The coefficients as scipy-shaped rows `[[b0, b1, b2, 1, a1, a2], …]`.
    ///
    /// For printing or comparing with `scipy.signal.butter(…, output='sos')`. Allocates one array per row.
    public var rows: [[Double]] { sections.map(\.row) }

    /// Creates sections from scipy-shaped rows `[b0, b1, b2, a0, a1, a2]`, dividing each row by its `a0`.
    ///
    /// - Parameter rows: at least one row of exactly 6 finite coefficients with `a0 != 0`.
    /// - Throws: ``FilterError/invalidCoefficients(row:reason:)`` naming the first bad row.
    /// - Complexity: O(rows); allocates the section array once.
    public init(rows: [[Double]]) throws(FilterError) {
        var sections: [Section] = []
        sections.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard row.count == 6 else {
                throw .invalidCoefficients(row: index, reason: "it has \(row.count) coefficients, expected 6")
            }
            sections.append(Section(b0: row[0], b1: row[1], b2: row[2], a0: row[3], a1: row[4], a2: row[5]))
        }
        try self.init(sections: sections)
    }

    /// Creates sections from biquads, dividing each by its `a0`.
    ///
    /// - Parameter sections: at least one section with finite coefficients and `a0 != 0`.
    /// - Throws: ``FilterError/invalidCoefficients(row:reason:)`` naming the first bad section.
    /// - Complexity: O(sections); allocates the section array once.
    public init(sections: [Section]) throws(FilterError) {
        guard !sections.isEmpty else {
            throw .invalidCoefficients(row: 0, reason: "there are no sections; at least one is required")
        }
        var normalised = sections
        for (index, s) in sections.enumerated() {
            let values = [s.b0, s.b1, s.b2, s.a0, s.a1, s.a2]
            if let bad = values.firstIndex(where: { !$0.isFinite }) {
                throw .invalidCoefficients(row: index, reason: "coefficient \(bad) is \(values[bad]), not finite")
            }
            guard s.a0 != 0 else { throw .invalidCoefficients(row: index, reason: "a0 is 0") }
            if s.a0 != 1 {
                let scale = s.a0
                normalised[index] = Section(
                    b0: s.b0 / scale, b1: s.b1 / scale, b2: s.b2 / scale, a0: 1, a1: s.a1 / scale, a2: s.a2 / scale)
            }
        }
        self.sections = normalised
    }

    /// Wraps sections already known to be valid and normalised (internal designs).
    init(normalisedSections: [Section]) {
        self.sections = normalisedSections
    }
}
