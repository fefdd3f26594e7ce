import Foundation
import SensorSignal
import StudyInputs

/// mhealthtools' default kinematic feature set for one sensor axis (`get_tremor_features`,
/// `get_balance_features` with their defaults: no time or frequency filter, no detrending, no windowing,
/// `IMF = 1`), computed as Sage-Bionetworks/mhealthtools 4340b82 (R/feature_extraction_functions.R, R/utils.R,
/// R/sensors.R) computes it with R 4.2, pracma 2.4, seewave 2.2, e1071 1.7 and statcomp 0.1.
///
/// Every feature of one axis's series v₁…vₙ (in the sensor's unit: g for acceleration, rad/s for rotation rate)
/// sampled at fs = n / (tₙ − t₁) Hz (mhealthtools' `get_sampling_rate`):
///
/// - 19 time-domain features (suffix `.tm`): mean, median (type-7 quantile), mode (`pracma::Mode`), mx, mn, sd,
///   skewness and kurtosis (e1071 type 3, kurtosis excess), Q25, Q75, range, rough (Σ (Δ²v)²), rugo (√mean((Δv)²)),
///   energy (Σ v²), mobility (√(var(fs Δv) / var(v))), mtkeo (mean Teager–Kaiser energy), rmsmag (√(Σ v² / n)),
///   IQR (**Q25 − Q75**, negative, as mhealthtools defines it) and complexity (√(var(fs Δ(fs Δv)) / var(fs Δv))).
/// - 19 frequency-domain features (suffix `.fr`) of the AR spectrum (``YuleWalkerFit``, 500 frequencies from 0 to
///   fs/2) normalised to a probability p(f): mn (Σ f p), mx (max p), sd, sem (sd / √500), md, Q25, Q75 (the first
///   frequency whose cumulative p exceeds ½, ¼, ¾), mod (the frequency of max p), IQR (Q75 − Q25), cent (= mn),
///   skew and kurt (of p itself), sfm (spectral flatness), sh (normalised Shannon entropy), and five entropies of
///   the energies of an empirical-wavelet split of the spectrum at its three highest peaks (ewt.permEnt,
///   ewt.shannonEnt, ewt.simpsonEnt, ewt.renyiEnt, ewt.tsallisEnt).
/// - 48 band energies `EnergyInBand1` … `EnergyInBand24_5`: the trapezoidal integral of p(f) over
///   [b, b + 0.5] Hz for b = 1, 1.5, …, 24.5 (the fraction of spectral power in the band).
///
/// Units and formulas: `docs/active-tasks.md`, "Tremor, balance and rest". A feature R reports as `NA`/`NaN` is NaN
/// here (`null` in JSON, empty in CSV).
public enum KinematicFeatures {
    /// The feature names in mhealthtools' column order.
    public static let names: [String] =
        [
            "mean", "median", "mode", "mx", "mn", "sd", "skewness", "kurtosis", "Q25", "Q75", "range", "rough",
            "rugo", "energy", "mobility", "mtkeo", "rmsmag", "IQR", "complexity",
        ].map { $0 + ".tm" }
        + [
            "mn", "mx", "sd", "sem", "md", "mod", "Q25", "Q75", "IQR", "cent", "skew", "kurt", "sfm", "sh",
            "ewt.permEnt", "ewt.shannonEnt", "ewt.simpsonEnt", "ewt.renyiEnt", "ewt.tsallisEnt",
        ].map { $0 + ".fr" }
        + bandStarts.map { "EnergyInBand" + bandName($0) }

    /// Number of frequencies of the AR spectrum (mhealthtools' `get_spectrum(nfreq = 500)`).
    public static let spectrumFrequencies = 500

    /// Lower band edges in Hz: R `seq(1, 24.5, 0.5)`.
    static let bandStarts: [Double] = (0..<48).map { 1 + Double($0) * 0.5 }

    /// R's `gsub("\\.", "_", as.character(b))`: `1`, `1_5`, `2`, ….
    static func bandName(_ b: Double) -> String {
        String(format: "%g", b).replacingOccurrences(of: ".", with: "_")
    }

    /// mhealthtools' `get_sampling_rate`: n / (tₙ − t₁), Hz.
    ///
    /// - Parameter t: Timestamps, s.
    /// - Returns: The rate; nil for fewer than 2 samples or a non-positive, non-finite span.
    public static func samplingRate(_ t: [Double]) -> Double? {
        guard t.count >= 2, let first = t.first, let last = t.last else { return nil }
        let rate = Double(t.count) / (last - first)
        return rate.isFinite && rate > 0 ? rate : nil
    }

    /// The features of one axis, in ``names`` order.
    ///
    /// - Parameters:
    ///   - values: The axis's samples in time order, in the sensor's unit.
    ///   - samplingRate: fs, Hz (``samplingRate(_:)``).
    /// - Returns: ``names``.count values; NaN where mhealthtools gives `NA`/`NaN` or fails (fewer than 2 samples,
    ///   a non-finite sample, a constant series for the spectral features).
    public static func features(_ values: [Double], samplingRate fs: Double) -> [Double] {
        timeDomain(values, fs) + frequencyDomain(values, fs)
    }

    static func timeDomain(_ v: [Double], _ fs: Double) -> [Double] {
        guard !v.isEmpty, !v.contains(where: { !$0.isFinite }) else {
            return [Double](repeating: .nan, count: 19)
        }
        let q = RStatistics.quantiles(v, probabilities: [0.5, 0.25, 0.75])
        let mx = v.max() ?? .nan, mn = v.min() ?? .nan
        let diff1 = zip(v.dropFirst(), v).map { ($0 - $1) * fs }
        let diff2 = zip(diff1.dropFirst(), diff1).map { ($0 - $1) * fs }
        let squares = v.map { $0 * $0 }
        let energy = RStatistics.sum(squares)
        let varV = RStatistics.variance(v)
        let varD1 = RStatistics.variance(diff1)
        return [
            RStatistics.mean(v), q[0], RStatistics.mode(v), mx, mn, RStatistics.standardDeviation(v),
            RStatistics.skewness(v), RStatistics.kurtosis(v), q[1], q[2], mx - mn, RStatistics.roughness(v),
            RStatistics.rugosity(v), energy, (varD1 / varV).squareRoot(), RStatistics.meanTKEO(v),
            (energy / Double(v.count)).squareRoot(), q[1] - q[2],
            (RStatistics.variance(diff2) / varD1).squareRoot(),
        ]
    }

    static func frequencyDomain(_ v: [Double], _ fs: Double) -> [Double] {
        let count = 19 + bandStarts.count
        guard let fit = YuleWalkerFit.fit(v) else { return [Double](repeating: .nan, count: count) }
        let freq = YuleWalkerFit.frequencies(count: spectrumFrequencies).map { $0 * fs }
        let spec = fit.spectrum(count: spectrumFrequencies)
        let total = RStatistics.sum(spec)
        let pdf = spec.map { $0 / total }
        guard !pdf.contains(where: { !$0.isFinite }) else { return [Double](repeating: .nan, count: count) }
        return summary(freq: freq, pdf: pdf, fs: fs) + bands(freq: freq, pdf: pdf)
    }

    /// `frequency_domain_summary` on a normalised spectrum.
    static func summary(freq: [Double], pdf: [Double], fs: Double) -> [Double] {
        let k = Double(pdf.count)
        let meanPDF = RStatistics.mean(pdf)
        let adjusted = pdf.map { $0 - meanPDF }
        let cdf = RStatistics.cumulativeSum(pdf)
        let w = RStatistics.standardDeviation(pdf)
        let mn = RStatistics.sum(zip(freq, pdf).map { $0 * $1 })
        let mx = pdf.max() ?? .nan
        let sd = RStatistics.sum(zip(freq, pdf).map { f, p in p * ((f - mn) * (f - mn)) }).squareRoot()
        func at(_ level: Double) -> Double {
            let index = cdf.count(where: { $0 <= level })
            return index < freq.count ? freq[index] : .nan
        }
        let md = at(0.5), q25 = at(0.25), q75 = at(0.75)
        let modeIndex = pdf.firstIndex(of: mx) ?? 0  // R's which.max: the first maximum
        let skew =
            (RStatistics.sum(adjusted.map { RStatistics.power($0, 3) }) / (k - 1)) / RStatistics.power(w, 3)
        let kurt =
            (RStatistics.sum(adjusted.map { RStatistics.power($0, 4) }) / (k - 1)) / RStatistics.power(w, 4)
        let spectral = [
            mn, mx, sd, sd / k.squareRoot(), md, freq[modeIndex], q25, q75, q75 - q25, mn, skew, kurt,
            flatness(pdf), entropy(pdf, .shannon),
        ]
        let energies = waveletEnergies(freq: freq, pdf: pdf, fs: fs)
        return spectral + [
            permutationEntropy(energies), entropy(energies, .shannon), entropy(energies, .simpson),
            entropy(energies, .renyi2),
            (1 - RStatistics.sum(energies.map { RStatistics.power($0, 0.1) })) / (0.1 - 1),
        ]
    }

    /// `frequency_domain_energy`: pracma `trapz` of the normalised spectrum over each half-hertz band.
    static func bands(freq: [Double], pdf: [Double]) -> [Double] {
        bandStarts.map { start in
            let end = start + 0.5
            var xs: [Double] = [], ys: [Double] = []
            for i in freq.indices where freq[i] >= start && freq[i] <= end {
                xs.append(freq[i])
                ys.append(pdf[i])
            }
            return RStatistics.trapezoid(x: xs, y: ys)
        }
    }

    /// `seewave::sfm`: geometric over arithmetic mean (zeros replaced by 1e-5; spectra longer than 4000 points are
    /// never passed here).
    static func flatness(_ spec: [Double]) -> Double {
        guard !spec.contains(where: { $0 < 0 }) else { return .nan }
        let s = spec.map { $0 == 0 ? 1e-5 : $0 }
        let n = Double(s.count)
        let roots = s.map { RStatistics.power($0, 1 / n) }
        return RStatistics.product(roots) / RStatistics.mean(s)
    }

    enum Entropy { case shannon, simpson, renyi2 }

    /// `seewave::sh(spec, alpha)`: Shannon (normalised by ln N), Simpson (1 − Σ p²) or Rényi of order 2
    /// (−ln Σ p² / ln N) entropy of `spec` normalised to sum 1 (zeros replaced by 1e-7 first).
    static func entropy(_ spec: [Double], _ kind: Entropy) -> Double {
        guard !spec.isEmpty, !spec.contains(where: \.isNaN) else { return .nan }
        guard !spec.contains(where: { $0 < 0 }) else { return .nan }
        guard RStatistics.sum(spec) != 0 else { return 0 }
        let n = Double(spec.count)
        let replaced = spec.map { $0 == 0 ? 1e-7 : $0 }
        let total = RStatistics.sum(replaced)
        let p = replaced.map { $0 / total }
        switch kind {
        case .shannon:
            return -RStatistics.sum(p.map { $0 * Foundation.log($0) }) / Foundation.log(n)
        case .simpson:
            return 1 - RStatistics.sum(p.map { $0 * $0 })
        case .renyi2:
            return (1 / (1 - 2.0)) * Foundation.log(RStatistics.sum(p.map { $0 * $0 })) / Foundation.log(n)
        }
    }

    /// `statcomp::permutation_entropy(opd)` on a distribution: −Σ p ln p (p ≥ 1e-30) / ln N with p = opd / Σ opd.
    static func permutationEntropy(_ opd: [Double]) -> Double {
        guard !opd.isEmpty else { return .nan }
        let total = RStatistics.sum(opd)
        let terms = opd.map { value -> Double in
            let p = value / total
            return p >= 1e-30 ? p * Foundation.log(p) : 0
        }
        return (-1 * RStatistics.sum(terms)) / Foundation.log(Double(opd.count))
    }

    /// mhealthtools' `get_ewt_spectrum` followed by the normalised energy of each empirical-wavelet band: the
    /// spectrum split at the midpoints between 0, its three highest peaks (≥ 10 % of the maximum) and π, with
    /// Meyer-type transitions. A spectrum without a peak is split at π/2 only (R's `NULL[, 2]` is `NULL`).
    static func waveletEnergies(freq: [Double], pdf: [Double], fs: Double) -> [Double] {
        let maxPDF = pdf.max() ?? .nan
        let peaks = RStatistics.findPeaks(pdf, minimumHeight: 0.1 * maxPDF, count: 3)
        var peakFreqs = [0.0]
        for index in peaks.map(\.index).sorted() { peakFreqs.append(freq[index] * Double.pi * 2 / fs) }
        peakFreqs.append(Double.pi)
        var unique: [Double] = []
        for f in peakFreqs where !unique.contains(f) { unique.append(f) }
        var mids = [0.0]
        for i in 0..<(unique.count - 1) { mids.append(unique[i] + (unique[i + 1] - unique[i]) / 2) }
        mids.append(Double.pi)
        var gamma = Double.infinity
        for i in 0..<(mids.count - 1) {
            let ratio = (mids[i + 1] - mids[i]) / (mids[i + 1] + mids[i])
            if !ratio.isNaN { gamma = Swift.min(gamma, ratio) }
        }
        let n = pdf.count
        let w = seqLength(0, Double.pi, n)
        var energies: [Double] = []
        for b in 0..<(mids.count - 1) {
            var wn1 = mids[b]
            let wn2 = mids[b + 1]
            if wn1 == 0 { wn1 = 0.00001 }
            var phi = [Double](repeating: 0, count: n)
            func beta(_ w: Double, _ wn: Double) -> Double {
                let x = (1 / (2 * gamma * wn)) * (abs(w) - (1 - gamma) * wn)
                return RStatistics.power(x, 4) * (35 - 84 * x + 70 * (x * x) - 20 * RStatistics.power(x, 3))
            }
            if wn2 != Double.pi {
                for i in 0..<n where (1 + gamma) * wn1 <= abs(w[i]) && abs(w[i]) <= (1 - gamma) * wn2 { phi[i] = 1 }
                for i in 0..<n where (1 - gamma) * wn2 <= abs(w[i]) && abs(w[i]) <= (1 + gamma) * wn2 {
                    phi[i] = Foundation.cos(Double.pi * beta(w[i], wn2) / 2)
                }
                for i in 0..<n where (1 - gamma) * wn1 <= abs(w[i]) && abs(w[i]) <= (1 + gamma) * wn1 {
                    phi[i] = Foundation.sin(Double.pi * beta(w[i], wn1) / 2)
                }
            } else {
                for i in 0..<n where abs(w[i]) <= (1 - gamma) * wn1 { phi[i] = 1 }
                for i in 0..<n where (1 - gamma) * wn1 <= abs(w[i]) && abs(w[i]) <= (1 + gamma) * wn1 {
                    phi[i] = Foundation.cos(Double.pi * beta(w[i], wn1) / 2)
                }
                for i in 0..<n { phi[i] = 1 - phi[i] }
            }
            let squares = (0..<n).map { i -> Double in
                let e = pdf[i] * phi[i]
                return e * e
            }
            energies.append(RStatistics.sum(squares))
        }
        let total = RStatistics.sum(energies)
        return energies.map { $0 / total }
    }

    /// R's `seq(from, to, length.out = n)` (`seq.default`): from, from + k (to − from)/(n − 1), to.
    static func seqLength(_ from: Double, _ to: Double, _ n: Int) -> [Double] {
        guard n > 2 else { return n == 2 ? [from, to] : (n == 1 ? [from] : []) }
        let by = (to - from) / Double(n - 1)
        var out = [from]
        for k in 1...(n - 2) { out.append(from + Double(k) * by) }
        out.append(to)
        return out
    }
}

extension KinematicFeatures {
    /// mhealthtools' window length for the `IMF > 1` transform, samples.
    public static let imfWindowLength = 256

    /// The Hamming window of `seewave::hamming.w(n)`: 0.54 − 0.46 cos(2πi/(n − 1)), i = 0…n − 1.
    static func hamming(_ n: Int) -> [Double] {
        guard n > 1 else { return n == 1 ? [0.54 - 0.46] : [] }
        let m = Double(n - 1)
        return (0..<n).map { 0.54 - 0.46 * Foundation.cos(2 * Double.pi * Double($0) / m) }
    }

    /// The windows of mhealthtools' `window_signal(v, 256, 0.5)` after an EMD (`transformation_imf_window`): for
    /// each intrinsic mode function, every 256-sample stretch starting at sample 1, 129, 257, … (1-based) that fits
    /// in the recording, multiplied by a 256-point Hamming window, and the features of each.
    ///
    /// - Parameters:
    ///   - imfs: The intrinsic mode functions of one axis, each as long as the recording.
    ///   - samplingRate: fs of the whole recording, Hz (mhealthtools uses it for every window).
    /// - Returns: (IMF number from 1, window number from 1, ``names``-ordered features) in mhealthtools' row order
    ///   (IMF, then window); empty for a recording shorter than 256 samples (where mhealthtools recycles the window
    ///   over a shorter signal, which taskproc does not reproduce).
    static func windowedFeatures(imfs: [[Double]], samplingRate fs: Double) -> [(imf: Int, window: Int, values: [Double])] {
        let length = imfWindowLength
        let step = length / 2
        let window = hamming(length)
        var rows: [(imf: Int, window: Int, values: [Double])] = []
        var segment = [Double](repeating: 0, count: length)
        for (i, imf) in imfs.enumerated() where imf.count >= length {
            var start = 0, number = 1
            while start + length <= imf.count {
                for k in 0..<length { segment[k] = imf[start + k] * window[k] }
                rows.append((i + 1, number, features(segment, samplingRate: fs)))
                start += step
                number += 1
            }
        }
        return rows
    }
}

extension KinematicFeatures {
    /// mhealthtools' `IMF > 1` features of one axis (`get_walk_features` and `get_kinetic_tremor_features` with
    /// their defaults, `IMF = 2`): `EMD::emd(v, t, max.imf = 2)` (``EmpiricalModeDecomposition``, times from the
    /// first sample), then ``windowedFeatures(imfs:samplingRate:)``.
    ///
    /// - Parameters:
    ///   - values: The axis's samples in time order, in the sensor's unit.
    ///   - times: Their timestamps, s.
    ///   - samplingRate: fs, Hz (``samplingRate(_:)``).
    ///   - imfs: How many intrinsic mode functions (mhealthtools' `IMF`, 2 by default).
    /// - Returns: The rows and the number of IMFs the decomposition gave (fewer than asked when the signal has too
    ///   few extrema; mhealthtools then fails for the whole recording); nil when the decomposition is impossible
    ///   (non-finite samples or times).
    static func imfFeatures(_ values: [Double], times: [Double], samplingRate fs: Double, imfs: Int)
        -> (rows: [(imf: Int, window: Int, values: [Double])], found: Int)?
    {
        guard let t0 = times.first else { return nil }
        let t = times.map { $0 - t0 }
        guard let emd = EmpiricalModeDecomposition.decompose(values, times: t, maximumIMFs: imfs) else { return nil }
        return (windowedFeatures(imfs: emd.imfs, samplingRate: fs), emd.imfs.count)
    }
}
