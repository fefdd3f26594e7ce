import Foundation
import StudyInputs

/// Which published implementation of the Sage Bionetworks tapping features to reproduce.
///
/// The two disagree (see `README.md, "Two-finger tapping"`): they select different taps, use different skewness and kurtosis
/// estimators and gate short recordings differently.
public enum TappingVariant: String, Sendable, Hashable, Codable, CaseIterable {
    /// mhealthtools `get_tapping_features()` (Sage-Bionetworks/mhealthtools 4340b82, R/get_tapping_features.R and
    /// R/utils.R), the maintained successor and the default: the first tap plus every tap after an x jump of more
    /// than the threshold, e1071 type-3 skewness and excess kurtosis, at least 5 taps.
    case mhealthtools
    /// The original 2016 mPower release code (Sage-Bionetworks/mPower-sdata 90446c3,
    /// featureExtraction/tappingHelpers.R, `extractTapping(CleanTappedButtonNone(x))`): every tap *before* an x
    /// jump, population moments (kurtosis not excess), `dfaTapInter`, NA instead of a value for fewer than 3
    /// intervals, no 5-tap gate.
    case mpower2016
}

/// The eleven summary statistics mhealthtools and mPower compute on a series (the inter-tap intervals, or the
/// drift of one side's taps), with R's values: NaN where R gives `NA`/`NaN`, ±∞ where R gives `Inf`.
///
/// Units are the series' units (s for intervals, points for drift) except ``skew``, ``kur`` (dimensionless) and
/// ``cv`` (percent).
public struct TappingSeriesSummary: Sendable, Hashable {
    /// R `mean(x)`.
    public var mean: Double
    /// R `median(x)`.
    public var median: Double
    /// R `IQR(x, type = 7)`: Q(0.75) − Q(0.25) with linear interpolation between order statistics.
    public var iqr: Double
    /// R `min(x)` (+∞ for an empty series).
    public var min: Double
    /// R `max(x)` (−∞ for an empty series).
    public var max: Double
    /// Skewness: e1071 type 3, m₃ / s³ (mhealthtools), or the population m₃ / m₂^(3/2) (mPower 2016, NA for n < 3).
    public var skew: Double
    /// Kurtosis: e1071 type 3, m₄ / s⁴ − 3 (mhealthtools, excess), or m₄ / m₂² (mPower 2016, *not* excess, NA for
    /// n < 3).
    public var kur: Double
    /// R `sd(x)` (n − 1 denominator).
    public var sd: Double
    /// R `mad(x)`: 1.4826 · median(|xᵢ − median(x)|).
    public var mad: Double
    /// Coefficient of variation, %: 100 · sd / mean (mPower 2016: NA for n < 3).
    public var cv: Double
    /// R `diff(range(x))`: max − min (−∞ for an empty series).
    public var range: Double

    /// A summary with every statistic NA (NaN).
    public static let missing = TappingSeriesSummary(
        mean: .nan, median: .nan, iqr: .nan, min: .nan, max: .nan, skew: .nan, kur: .nan, sd: .nan, mad: .nan,
        cv: .nan, range: .nan)

    /// Creates a summary.
    public init(
        mean: Double, median: Double, iqr: Double, min: Double, max: Double, skew: Double, kur: Double, sd: Double,
        mad: Double, cv: Double, range: Double
    ) {
        self.mean = mean
        self.median = median
        self.iqr = iqr
        self.min = min
        self.max = max
        self.skew = skew
        self.kur = kur
        self.sd = sd
        self.mad = mad
        self.cv = cv
        self.range = range
    }

    /// The statistics in mhealthtools' column order, with their name prefixes (`mean`, `median`, …).
    public var named: [(prefix: String, value: Double)] {
        [
            ("mean", mean), ("median", median), ("iqr", iqr), ("min", min), ("max", max), ("skew", skew),
            ("kur", kur), ("sd", sd), ("mad", mad), ("cv", cv), ("range", range),
        ]
    }
}

/// The Sage Bionetworks tapping features of one recording, exactly as the chosen ``TappingVariant``'s R code
/// computes them (see `README.md, "Two-finger tapping"` for every definition).
///
/// Values are R's: NaN stands for R's `NA`/`NaN` and ±∞ for R's `Inf` (the min, max and range of an empty drift
/// series); ``namedValues`` and the JSON/CSV output turn every non-finite value into null/empty, as "not
/// available".
public struct TappingFeatures: Sendable, Hashable {
    /// The implementation reproduced.
    public var variant: TappingVariant
    /// Statistics of the inter-tap intervals, s (`…TapInter`).
    public var intervals: TappingSeriesSummary
    /// Mean Teager–Kaiser energy of the intervals, s² (`tkeoTapInter`): mean over i = 2…n−1 of xᵢ² − xᵢ₊₁·xᵢ₋₁.
    public var tkeo: Double
    /// DFA exponent of the intervals, dimensionless (`dfaTapInter`, ``TappingVariant/mpower2016`` only; NaN for
    /// mhealthtools, which has no such feature).
    public var dfa: Double
    /// Lag-1 autocorrelation of the intervals, R `acf` (`ar1TapInter`).
    public var ar1: Double
    /// Lag-2 autocorrelation of the intervals, R `acf` (`ar2TapInter`).
    public var ar2: Double
    /// Mean of the first k intervals minus the mean of the last k + 1, k = R `round(0.1 n)`, s (`fatigue10TapInter`).
    public var fatigue10: Double
    /// As ``fatigue10`` with k = R `round(0.25 n)`, s (`fatigue25TapInter`).
    public var fatigue25: Double
    /// As ``fatigue10`` with k = ⌊0.5 n⌋, s (`fatigue50TapInter`).
    public var fatigue50: Double
    /// Statistics of the left-side drift, points (`…DriftLeft`).
    public var driftLeft: TappingSeriesSummary
    /// Statistics of the right-side drift, points (`…DriftRight`).
    public var driftRight: TappingSeriesSummary
    /// Taps kept by the depress-event selection (`numberTaps`); nil with an error.
    public var numberTaps: Int?
    /// Fraction of the kept taps labelled `none` (`buttonNoneFreq`), 0…1.
    public var buttonNoneFreq: Double
    /// Pearson correlation of the kept taps' x and y (`corXY`, R `cor(x, y, use = "p")`).
    public var corXY: Double
    /// Why the features could not be computed (mhealthtools' own messages where it has one); nil on success
    /// (mhealthtools writes `"None"`).
    public var error: String?

    /// Features that could not be computed: everything NA, with the reason.
    public static func failed(_ variant: TappingVariant, _ error: String) -> TappingFeatures {
        TappingFeatures(
            variant: variant, intervals: .missing, tkeo: .nan, dfa: .nan, ar1: .nan, ar2: .nan, fatigue10: .nan,
            fatigue25: .nan, fatigue50: .nan, driftLeft: .missing, driftRight: .missing, numberTaps: nil,
            buttonNoneFreq: .nan, corXY: .nan, error: error)
    }

    /// Creates a feature set (``TappingFeatureExtractor`` computes them).
    public init(
        variant: TappingVariant, intervals: TappingSeriesSummary, tkeo: Double, dfa: Double, ar1: Double,
        ar2: Double, fatigue10: Double, fatigue25: Double, fatigue50: Double, driftLeft: TappingSeriesSummary,
        driftRight: TappingSeriesSummary, numberTaps: Int?, buttonNoneFreq: Double, corXY: Double, error: String?
    ) {
        self.variant = variant
        self.intervals = intervals
        self.tkeo = tkeo
        self.dfa = dfa
        self.ar1 = ar1
        self.ar2 = ar2
        self.fatigue10 = fatigue10
        self.fatigue25 = fatigue25
        self.fatigue50 = fatigue50
        self.driftLeft = driftLeft
        self.driftRight = driftRight
        self.numberTaps = numberTaps
        self.buttonNoneFreq = buttonNoneFreq
        self.corXY = corXY
        self.error = error
    }

    /// Every numeric feature under its R column name, in the R column order: the 42 mhealthtools features
    /// (`meanTapInter` … `corXY`), with `dfaTapInter` after `tkeoTapInter` for ``TappingVariant/mpower2016``.
    ///
    /// Values are R's, NaN and ±∞ included (see the type's discussion).
    public var rValues: [(name: String, value: Double)] {
        var out: [(name: String, value: Double)] = []
        out.reserveCapacity(43)
        for (prefix, value) in intervals.named { out.append((prefix + "TapInter", value)) }
        out.append(("tkeoTapInter", tkeo))
        if variant == .mpower2016 { out.append(("dfaTapInter", dfa)) }
        out.append(("ar1TapInter", ar1))
        out.append(("ar2TapInter", ar2))
        out.append(("fatigue10TapInter", fatigue10))
        out.append(("fatigue25TapInter", fatigue25))
        out.append(("fatigue50TapInter", fatigue50))
        for (prefix, value) in driftLeft.named { out.append((prefix + "DriftLeft", value)) }
        for (prefix, value) in driftRight.named { out.append((prefix + "DriftRight", value)) }
        out.append(("numberTaps", numberTaps.map(Double.init) ?? .nan))
        out.append(("buttonNoneFreq", buttonNoneFreq))
        out.append(("corXY", corXY))
        return out
    }

    /// ``rValues`` with every non-finite value (R's `NA`, `NaN`, `Inf`) as nil: what the JSON and CSV output hold.
    public var namedValues: [(name: String, value: Double?)] {
        rValues.map { ($0.name, $0.value.isFinite ? $0.value : nil) }
    }
}
