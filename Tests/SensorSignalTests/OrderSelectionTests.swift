import Testing

@testable import SensorSignal

/// The linear-time replacements for full sorts give exactly what the sorts gave.
@Suite struct OrderSelectionTests {
    /// Deterministic test values (SplitMix64 → [0, 1)).
    static func uniform(_ count: Int, seed: UInt64) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1p-53
        }
    }

    /// Inputs with the shapes that matter: jittered intervals, many ties, sorted, reversed, spanning exponents.
    static func cases() -> [[Double]] {
        let noise = uniform(5_000, seed: 7)
        let jittered = noise.map { 0.01 + ($0 - 0.5) * 1e-4 }
        let ties = noise.map { ($0 * 8).rounded(.down) * 0.005 + 0.005 }
        let wide = noise.map { $0 * $0 * 1e6 + 1e-9 }
        let withZeros = noise.enumerated().map { $0.offset % 7 == 0 ? 0 : $0.element }
        let withInfinity = jittered + [.infinity, 1e300, .leastNonzeroMagnitude]
        return [
            jittered, ties, wide, withZeros, withInfinity, jittered.sorted(), Array(jittered.sorted().reversed()),
            Array(repeating: 0.01, count: 1_000), Array(jittered.prefix(300)), Array(jittered.prefix(17)), [0.5],
        ]
    }

    @Test func radixSortEqualsSorted() {
        for values in Self.cases() {
            let expected = values.sorted()
            let actual = NonNegativeSort.sorted(values)
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern))
        }
        // Values it cannot radix-sort go to `sorted()`.
        let mixed = Self.uniform(1_000, seed: 3).map { $0 - 0.5 } + [-0.0]
        #expect(NonNegativeSort.sorted(mixed) == mixed.sorted())
    }

    @Test func selectionFindsEveryRank() {
        for values in Self.cases() {
            let sorted = values.sorted()
            for rank in Set([0, values.count / 3, values.count / 2, values.count - 1]) {
                var scratch = values
                #expect(Selection.select(&scratch, rank: rank) == sorted[rank])
                #expect(scratch.sorted() == sorted)
            }
            var scratch = values
            let (lower, upper) = Selection.middlePair(&scratch)
            #expect(lower == sorted[(values.count - 1) / 2] && upper == sorted[values.count / 2])
        }
    }

    @Test func medianMatchesTheSortedDefinition() {
        for values in Self.cases() where values.allSatisfy(\.isFinite) {
            let sorted = values.sorted()
            let n = sorted.count
            let expected = n % 2 == 1 ? sorted[n / 2] : RStatistics.mean([sorted[n / 2 - 1], sorted[n / 2]])
            #expect(RStatistics.median(values).bitPattern == expected.bitPattern)
        }
    }

    @Test func hygieneIQREqualsTheSortingIQR() {
        for values in Self.cases() {
            let sorted = values.sorted()
            #expect(RStatistics.interquartileRange(ofSorted: sorted) == RStatistics.interquartileRange(values))
        }
    }

    @Test func adversarialInputStillSelects() {
        // Organ-pipe and sawtooth patterns defeat naive pivots; the introselect budget bounds the work.
        let organ = (0..<4_001).map { Double(min($0, 4_000 - $0)) }
        let saw = (0..<4_000).map { Double($0 % 17) }
        for values in [organ, saw] {
            let sorted = values.sorted()
            var scratch = values
            #expect(Selection.select(&scratch, rank: values.count / 2) == sorted[values.count / 2])
        }
    }
}
