import Foundation

extension RandomNumberGenerator {
    /// Uniform in [0, 1), from the top 53 bits of one draw.
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Standard normal (Box-Muller, from two ``nextUnit()`` draws).
    public mutating func nextNormal() -> Double {
        let u = max(nextUnit(), 1e-300)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * nextUnit())
    }
}
