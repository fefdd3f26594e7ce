import Testing

/// Where a test came from: suites and files are named by the code they test, and a tag keeps the campaign that wrote
/// them. A suite's tags apply to every test in it. Swift 6.3's `swift test` cannot select by tag (`--filter tag:…`
/// comes with a later swift-testing); `grep -rn 'tags(.mutant' Tests` lists the suites (docs/testing.md).
extension Tag {
    /// Written to kill a mutation of `make mutants` (`Tests/Mutants/mutants.tsv`) that no other test caught; the doc
    /// comment names the mutation (M07, M30, …).
    @Tag public static var mutant: Self

    /// Issue 16: hostile values (NaN, ±∞, ±1e308, absurd dates and frequencies) are counted, excluded or named, never a
    /// trap or a lost record.
    @Tag public static var hostileInput: Self

    /// Pinned against a shared real-world data set's own ground truth (`../shared/data`), with the known shortfalls
    /// recorded as `withKnownIssue` (issue 17).
    @Tag public static var realData: Self

    /// Issue 17, item 3: an input is read only as what it says it is — CSV columns that name acceleration or were
    /// chosen, timestamps repaired only in a way the data shows, and said so.
    @Tag public static var honestInput: Self

    /// Issue 17, item 4: the task decides the analysis — tremor, balance and rest steps are never counted for steps,
    /// and no walking bout reaches outside its recording.
    @Tag public static var taskAwareness: Self
}
