import Testing

@testable import ActiveTasks
@testable import StudyInputs

/// Tapping fixtures sitting exactly on every threshold the tapping code compares against.
///
/// The expected features are derived by hand from the R definitions taskproc reproduces:
///
/// - mhealthtools (Sage-Bionetworks/mhealthtools 4340b82, `R/utils.R` `get_left_right_events_and_tap_intervals`,
///   `R/get_tapping_features.R`): `dx <- diff(x - mean(x)); i <- c(1, which(abs(dx) > depress_threshold) + 1)`,
///   "tapping data has less than 5 rows" when `nrow < 5`, "sensor data has less than 5 unique rows" when fewer
///   than 5 rows survive the removal of repeated `TappedButtonNone` (x, y), "post cleaning less than 5 tap points
///   remain" when fewer than 5 taps are kept, left drift from the kept taps with `x < mean(x)` and right drift from
///   those with `x >= mean(x)`, drift `sqrt(diff(x)^2 + diff(y)^2)`, `mean_tkeo` the mean over the inner points of
///   `x[i]^2 - x[i+1] x[i-1]`;
/// - mPower 2016 (Sage-Bionetworks/mPower-sdata 90446c37, `featureExtraction/tappingHelpers.R`):
///   `i <- which(abs(dX) > depressThr)` (the tap before each jump, no first tap, no 5-tap gate), and `MeanTkeo`,
///   `Fatigue`, `Cv`, `Skewness`, `Kurtosis` return NA for fewer than 3 intervals.
///
/// R is not installed on the development machine, so nothing here comes from running R; every number is worked out
/// in the comments. All coordinates and times are small integers or binary fractions and every mean of x is exact,
/// so `x - mean(x)` and its differences are exact in binary floating point: a jump of 20 is exactly 20 and the
/// comparison with the threshold 20 is decided by the operator alone.
@Suite struct TappingBoundaryTests {
    /// Taps at t = 0, 0.25, 0.5, … s with y = 400 and the given x; `none` marks the taps outside both buttons,
    /// the others are left below x = 100 and right from it (the button matters only for `none`).
    static func taps(_ xs: [Double], none: Set<Int> = []) -> [TapSample] {
        xs.enumerated().map { i, x in
            TapSample(
                timestamp: Double(i) * 0.25, duration: nil,
                button: none.contains(i) ? .none : (x < 100 ? .left : .right), location: ViewPoint(x: x, y: 400))
        }
    }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) <= tolerance }

    // MARK: - The depress threshold: a jump of exactly 20 is not a depress event (`abs(dx) > 20`)

    /// x = 100 140 100 140 120 160 120 160: mean 1040 / 8 = 130; dx = 40 −40 40 −20 40 −40 40.
    static let exactJump = taps([100, 140, 100, 140, 120, 160, 120, 160])

    @Test func mhealthtoolsIgnoresAJumpOfExactlyTheThreshold() {
        // i = c(1, which(abs(dx) > 20) + 1) = 1 2 3 4 6 7 8 (R indices): tap 5 (x = 120, after a jump of −20) is not
        // kept. Kept times 0 .25 .5 .75 1.25 1.5 1.75 → intervals .25 .25 .25 .5 .25 .25.
        let f = TappingFeatureExtractor.features(of: Self.exactJump)
        #expect(f.error == nil)
        #expect(f.numberTaps == 7)  // 8 if the jump of exactly 20 counted
        #expect(Self.close(f.intervals.mean, 1.75 / 6))  // 7/24
        #expect(f.intervals.median == 0.25 && f.intervals.min == 0.25 && f.intervals.max == 0.5)
        #expect(f.intervals.range == 0.25)
        // Type-7 quantiles of .25 ×5, .5: Q1 = x(2.25) = .25, Q3 = x(4.75) = .25.
        #expect(f.intervals.iqr == 0)
        // Deviations from 7/24: five of −1/24 and one of 5/24 → Σ = 30/576, variance 30/576/5 = 1/96.
        #expect(Self.close(f.intervals.sd, (1.0 / 96).squareRoot()))
        // Inner points: .25²−.25·.25 = 0, .25²−.5·.25 = −.0625, .5²−.25·.25 = .1875, .25²−.25·.5 = −.0625
        // → mean .0625 / 4.
        #expect(f.tkeo == 0.015625)
        // Kept x 100 140 100 140 160 120 160, mean 920/7 ≈ 131.4: left 100 100 120 → drift 0 20; right
        // 140 140 160 160 → drift 0 20 0.
        #expect(f.driftLeft.mean == 10 && f.driftLeft.max == 20)
        #expect(Self.close(f.driftRight.mean, 20.0 / 3) && f.driftRight.max == 20)
        #expect(f.buttonNoneFreq == 0)
    }

    @Test func mpower2016IgnoresAJumpOfExactlyTheThreshold() {
        // i = which(abs(dX) > 20) = 1 2 3 5 6 7 (R): the taps before the jumps of 40, not tap 4 (before −20).
        // Kept times 0 .25 .5 1 1.25 1.5 → intervals .25 .25 .5 .25 .25.
        let f = TappingFeatureExtractor.features(of: Self.exactJump, variant: .mpower2016)
        #expect(f.error == nil)
        #expect(f.numberTaps == 6)  // 7 if the jump of exactly 20 counted
        #expect(Self.close(f.intervals.mean, 1.5 / 5))
        #expect(f.intervals.median == 0.25 && f.intervals.max == 0.5)
        // Inner points: .25²−.5·.25 = −.0625, .5²−.25·.25 = .1875, .25²−.25·.5 = −.0625 → mean .0625 / 3.
        #expect(Self.close(f.tkeo, 0.0625 / 3))
        // Kept x 100 140 100 120 160 120, mean 740/6 ≈ 123.3: left 100 100 120 120 → drift 0 20 0; right 140 160
        // → drift 20.
        #expect(Self.close(f.driftLeft.mean, 20.0 / 3) && f.driftLeft.max == 20)
        #expect(f.driftRight.mean == 20 && f.driftRight.min == 20)
    }

    @Test func aJumpJustAboveTheThresholdIsAnEvent() {
        // The same taps with threshold 19.5 (exact): |−20| > 19.5, so every tap is kept (8, all intervals .25);
        // with threshold 20.5 only the jumps of 40 count, as with 20.
        #expect(TappingFeatureExtractor.features(of: Self.exactJump, depressThreshold: 19.5).numberTaps == 8)
        #expect(TappingFeatureExtractor.features(of: Self.exactJump, depressThreshold: 20.5).numberTaps == 7)
    }

    // MARK: - The 5-tap gates (`< 5`)

    /// x = 60 140 60 140 100: mean 100, dx = 80 −80 80 −40.
    static let fiveTaps = taps([60, 140, 60, 140, 100])

    @Test func fiveRowsFiveUniqueAndFiveKeptPassEveryGate() {
        // 5 rows (not < 5), 5 after cleaning, kept c(1, 2 3 4 5) = 5 taps (not < 5): features, no error.
        let f = TappingFeatureExtractor.features(of: Self.fiveTaps)
        #expect(f.error == nil)
        #expect(f.numberTaps == 5)
        #expect(f.intervals.mean == 0.25 && f.intervals.max == 0.25)
    }

    @Test func aTapExactlyAtTheMeanIsOnTheRight() {
        // Kept x 60 140 60 140 100, mean exactly 100: `x >= mean` puts the last tap on the right. Left 60 60 →
        // drift 0; right 140 140 100 → drift 0 40. (On the left it would give left 0 40, right 0.)
        let f = TappingFeatureExtractor.features(of: Self.fiveTaps)
        #expect(f.driftLeft.mean == 0 && f.driftLeft.max == 0)
        #expect(f.driftRight.mean == 20 && f.driftRight.min == 0 && f.driftRight.max == 40)
    }

    @Test func fourKeptTapsFailTheGateWhenTheFifthJumpIsExactlyTheThreshold() {
        // x = 100 140 100 140 120 120: mean 720/6 = 120, dx = 40 −40 40 −20 0 → kept c(1, 2 3 4) = 4 < 5.
        let f = TappingFeatureExtractor.features(of: Self.taps([100, 140, 100, 140, 120, 120]))
        #expect(f.error == TappingFeatureExtractor.tooFewDepressEvents)
        #expect(f.numberTaps == nil)
    }

    @Test func fiveUniqueRowsPassAndFourFail() {
        // 4 button taps and 2 `none` taps at the same point: the second `none` is removed, 5 rows remain, which are
        // the five-tap fixture's x (60 140 60 140 100) → 5 kept, 1 of them `none`.
        let five = TappingFeatureExtractor.features(of: Self.taps([60, 140, 60, 140, 100, 100], none: [4, 5]))
        #expect(five.error == nil)
        #expect(five.numberTaps == 5)
        #expect(five.buttonNoneFreq == 0.2)  // 1/5 = 0.2 rounded to the nearest double, as R prints 0.2
        // 3 button taps and 2 identical `none` taps: 5 rows, 4 unique → "less than 5 unique rows".
        let four = TappingFeatureExtractor.features(of: Self.taps([60, 140, 60, 100, 100], none: [3, 4]))
        #expect(four.error == TappingFeatureExtractor.tooFewUniqueRows)
        // 4 rows → "less than 5 rows".
        #expect(
            TappingFeatureExtractor.features(of: Self.taps([60, 140, 60, 140])).error
                == TappingFeatureExtractor.tooFewRows)
    }

    // MARK: - mPower 2016: statistics need at least 3 intervals (`length(x) < 3`)

    @Test func mpower2016WithThreeIntervalsHasStatistics() {
        // Five-tap fixture: i = which(abs(dX) > 20) = 1 2 3 4 → 4 taps, 3 intervals of .25.
        // MeanTkeo: .25² − .25·.25 = 0; Fatigue (n = 3): round(.3) = 0 → x[1] − x[3] = 0, round(.75) = 1 →
        // x[1] − mean(x[2:3]) = 0, floor(1.5) = 1 → 0; Cv: sd 0 / mean .25 · 100 = 0. All finite, not NA.
        let f = TappingFeatureExtractor.features(of: Self.fiveTaps, variant: .mpower2016)
        #expect(f.numberTaps == 4)
        #expect(f.tkeo == 0)
        #expect(f.fatigue10 == 0 && f.fatigue25 == 0 && f.fatigue50 == 0)
        #expect(f.intervals.cv == 0)
    }

    @Test func mpower2016WithTwoIntervalsHasNA() {
        // x = 60 140 60 140: mean 100, dX = 80 −80 80 → taps 1 2 3, 2 intervals: MeanTkeo, Fatigue, Cv, Skewness,
        // Kurtosis are NA.
        let f = TappingFeatureExtractor.features(of: Self.taps([60, 140, 60, 140]), variant: .mpower2016)
        #expect(f.numberTaps == 3)
        #expect(f.intervals.mean == 0.25)
        #expect(f.tkeo.isNaN && f.fatigue10.isNaN && f.fatigue25.isNaN && f.fatigue50.isNaN)
        #expect(f.intervals.cv.isNaN && f.intervals.skew.isNaN && f.intervals.kur.isNaN)
    }
}
