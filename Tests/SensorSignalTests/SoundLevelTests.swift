import Foundation
import SensorSignal
import Testing

/// IEC 61672-1:2002 Table 2 (= IS 15575-1 Table 2): nominal A and C weightings at the third-octave bands
/// n = 10…43 and the class-1 acceptance limits (upper, lower; −∞ as `-.infinity`).
enum IECTable {
    static let a: [Double] = [
        -70.4, -63.4, -56.7, -50.5, -44.7, -39.4, -34.6, -30.2, -26.2, -22.5, -19.1, -16.1, -13.4, -10.9, -8.6, -6.6,
        -4.8, -3.2, -1.9, -0.8, 0.0, 0.6, 1.0, 1.2, 1.3, 1.2, 1.0, 0.5, -0.1, -1.1, -2.5, -4.3, -6.6, -9.3,
    ]
    static let c: [Double] = [
        -14.3, -11.2, -8.5, -6.2, -4.4, -3.0, -2.0, -1.3, -0.8, -0.5, -0.3, -0.2, -0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, -0.1, -0.2, -0.3, -0.5, -0.8, -1.3, -2.0, -3.0, -4.4, -6.2, -8.5, -11.2,
    ]
    static let class1: [(upper: Double, lower: Double)] = [
        (3.5, -.infinity), (3.0, -.infinity), (2.5, -4.5), (2.5, -2.5), (2.5, -2.0), (2.0, -2.0), (1.5, -1.5),
        (1.5, -1.5), (1.5, -1.5), (1.5, -1.5), (1.5, -1.5), (1.5, -1.5), (1.5, -1.5), (1.5, -1.5), (1.4, -1.4),
        (1.4, -1.4), (1.4, -1.4), (1.4, -1.4), (1.4, -1.4), (1.4, -1.4), (1.1, -1.1), (1.4, -1.4), (1.6, -1.6),
        (1.6, -1.6), (1.6, -1.6), (1.6, -1.6), (1.6, -1.6), (2.1, -2.1), (2.1, -2.6), (2.1, -3.1), (2.6, -3.6),
        (3.0, -6.0), (3.5, -17.0), (4.0, -.infinity),
    ]
    /// Exact third-octave frequencies, Hz (Table 2 footnote b).
    static let frequencies = (10...43).map { 1000 * pow(10, Double($0 - 30) / 10) }
}

/// IEC 61672-1:2002 Annex E, the analogue A and C weightings in closed form, written here independently of
/// taskproc's `FrequencyWeighting`:
///
///     C(f) = 20 lg[f4² f² / ((f² + f1²)(f² + f4²))] − C1000
///     A(f) = 20 lg[f4² f⁴ / ((f² + f1²)(f² + f2²)^½ (f² + f3²)^½ (f² + f4²))] − A1000
///
/// with the standard's pole frequencies f1 = 20.598997, f2 = 107.65265, f3 = 737.86223, f4 = 12194.217 Hz and
/// normalisations C1000 = −0.062 dB, A1000 = −2.000 dB (eqs. E.1–E.6; these rounded constants leave +0.0003 dB
/// (A) and +0.0001 dB (C) at 1 kHz).
enum IECAnalogue {
    static let f1 = 20.598997, f2 = 107.65265, f3 = 737.86223, f4 = 12194.217
    static func a(_ f: Double) -> Double {
        let f2s = f * f
        let ratio =
            f4 * f4 * f2s * f2s
            / ((f2s + f1 * f1) * (f2s + f2 * f2).squareRoot() * (f2s + f3 * f3).squareRoot() * (f2s + f4 * f4))
        return 20 * log10(ratio) + 2.000
    }
    static func c(_ f: Double) -> Double {
        let f2s = f * f
        return 20 * log10(f4 * f4 * f2s / ((f2s + f1 * f1) * (f2s + f4 * f4))) + 0.062
    }
}

@Suite struct IECAnalogueTests {
    @Test func closedFormReproducesTheNominalTable() {
        // Two sources from the standard agree: the closed form rounds to the Table 2 nominal values (0.05 dB, plus
        // 1 mdB because 158.5 Hz sits on a rounding edge: with the rounded A1000 = −2.000 dB the closed form gives
        // A = −13.34996 dB, the table −13.4).
        #expect(IECTable.frequencies.count == IECTable.a.count && IECTable.a.count == IECTable.c.count)
        for (k, f) in IECTable.frequencies.enumerated() {
            #expect(abs(IECAnalogue.a(f) - IECTable.a[k]) <= 0.051, "A at \(f) Hz")
            #expect(abs(IECAnalogue.c(f) - IECTable.c[k]) <= 0.051, "C at \(f) Hz")
        }
    }
}

@Suite struct FrequencyWeightingTests {
    @Test func polesAndNormalisationMatchTheStandardsDerivation() {
        let p = FrequencyWeighting.poleFrequencies
        // The derivation's values (audio.md §1.1), and the standard's rounded ones.
        #expect(abs(p.f1 - 20.598997057568) < 1e-9)
        #expect(abs(p.f2 - 107.652648643046) < 1e-9)
        #expect(abs(p.f3 - 737.862230736290) < 1e-9)
        #expect(abs(p.f4 - 12194.217147998) < 1e-6)
        #expect(abs(FrequencyWeighting.a.gainAt1kHzDecibels - -1.99966) < 1e-4)
        #expect(abs(FrequencyWeighting.c.gainAt1kHzDecibels - -0.06190) < 1e-4)
    }

    @Test(arguments: [FrequencyWeighting.a, .c])
    func analogueFormulaReproducesTable2(_ w: FrequencyWeighting) {
        let table = w == .a ? IECTable.a : IECTable.c
        #expect(table.count == 34 && IECTable.frequencies.count == table.count)  // bands n = 10…43
        for (f, nominal) in zip(IECTable.frequencies, table) {
            // Table 2 is the formula rounded to 0.1 dB.
            #expect(abs(w.analogueDecibels(at: f) - nominal) <= 0.05 + 1e-9, "\(w.rawValue) at \(f) Hz")
        }
    }

    @Test(arguments: [44_100.0, 48_000.0, 96_000.0])
    func digitalWeightingsAreInsideClass1Limits(sampleRate: Double) throws {
        for w in [FrequencyWeighting.a, .c] {
            let sections = try #require(try w.sections(sampleRate: sampleRate))
            let table = w == .a ? IECTable.a : IECTable.c
            for (k, f) in IECTable.frequencies.enumerated() where f < sampleRate / 2 {
                let deviation = sections.magnitudeDecibels(at: f, sampleRate: sampleRate) - table[k]
                let limits = IECTable.class1[k]
                #expect(
                    deviation <= limits.upper && deviation >= limits.lower,
                    "\(w.rawValue) at \(f) Hz, \(sampleRate) Hz: deviation \(deviation) dB outside \(limits)")
            }
            #expect(abs(sections.magnitudeDecibels(at: 1000, sampleRate: sampleRate)) < 1e-10)
        }
    }

    @Test(arguments: [44_100.0, 48_000.0, 96_000.0])
    func digitalWeightingsMatchScipyBilinear(sampleRate: Double) throws {
        let references: [Double: ([Double], [Double])] = [
            44_100: (SoundLevelReference.aResponse44100, SoundLevelReference.cResponse44100),
            48_000: (SoundLevelReference.aResponse48000, SoundLevelReference.cResponse48000),
            96_000: (SoundLevelReference.aResponse96000, SoundLevelReference.cResponse96000),
        ]
        let (aRef, cRef) = try #require(references[sampleRate])
        let a = try #require(try FrequencyWeighting.a.sections(sampleRate: sampleRate))
        let c = try #require(try FrequencyWeighting.c.sections(sampleRate: sampleRate))
        for (k, f) in SoundLevelReference.thirdOctaves.enumerated() where f < sampleRate / 2 {
            #expect(abs(a.magnitudeDecibels(at: f, sampleRate: sampleRate) - aRef[k]) < 1e-7, "A \(f) Hz")
            #expect(abs(c.magnitudeDecibels(at: f, sampleRate: sampleRate) - cRef[k]) < 1e-7, "C \(f) Hz")
        }
    }

    @Test func aWeightingAt48kHzMatchesThePublishedSections() throws {
        // audio.md §1.3 fixture (closed-form bilinear per section, 1 kHz renormalisation on section 0).
        let expected: [[Double]] = [
            [0.2478892031106483, 0.4957784062212966, 0.2478892031106483, 1, -0.22455844607604505, 0.012606623926022036],
            [0.947257565994427, -1.894515131988854, 0.947257565994427, 1, -1.8938704948105136, 0.8951597691671946],
            [0.9973090407442712, -1.9946180814885424, 0.9973090407442712, 1, -1.9946144559779906, 0.9946217069990941],
        ]
        let rows = try #require(try FrequencyWeighting.a.sections(sampleRate: 48_000)).rows
        try #require(rows.count == expected.count && rows.allSatisfy { $0.count == 6 })
        for (row, want) in zip(rows, expected) {
            for (got, value) in zip(row, want) { #expect(abs(got - value) <= 1e-12 * max(1, abs(value))) }
        }
        #expect(try FrequencyWeighting.z.sections(sampleRate: 48_000) == nil)
    }
}

@Suite struct SoundLevelMeterTests {
    static let fs = 48_000.0

    /// The scripted test signal (same generator as Tools/reference/sound_reference.py).
    static let signal: [Double] = {
        var x = TestSignal.whiteNoise(rms: 0.1, seed: 11).samples(count: 12 * 48_000, sampleRate: fs)
        for i in (6 * 48_000)..<x.count { x[i] *= 2 }
        let tone = TestSignal.sine(frequency: 1000, amplitude: 0.05).samples(count: x.count, sampleRate: fs)
        for i in x.indices { x[i] += tone[i] }
        return x
    }()

    static func measure(_ x: [Double], sampleRate: Double = fs, blocks: [Int]? = nil) throws -> SoundLevelMeasurement {
        let meter = try SoundLevelMeter(sampleRate: sampleRate)
        x.withUnsafeBufferPointer { all in
            var start = 0
            var k = 0
            while start < all.count {
                let n = min(blocks.map { $0[k % $0.count] } ?? all.count, all.count - start)
                meter.add(UnsafeBufferPointer(rebasing: all[start..<(start + n)]).span)
                start += n
                k += 1
            }
        }
        return meter.finish()
    }

    static func db(_ meanSquare: Double?) -> Double { 10 * log10(meanSquare ?? .nan) }

    @Test func levelsMatchTheScipyReference() throws {
        let m = try Self.measure(Self.signal)
        let r = SoundLevelReference.self
        #expect(abs(Self.db(m.meanSquareA) - r.LAeq) < 1e-9)
        #expect(abs(Self.db(m.meanSquareC) - r.LCeq) < 1e-9)
        #expect(abs(Self.db(m.meanSquareZ) - r.LZeq) < 1e-9)
        #expect(abs(Self.db(m.maxFast) - r.LAFmax) < 1e-9)
        #expect(abs(Self.db(m.minFast) - r.LAFmin) < 1e-9)
        #expect(abs(Self.db(m.maxSlow) - r.LASmax) < 1e-9)
        #expect(abs(Self.db(m.minSlow) - r.LASmin) < 1e-9)
        #expect(abs(20 * log10(try #require(m.peakC)) - r.LCpeak) < 1e-9)
        // Exceedance levels come from 0.01 dB histogram bins: within half a bin of numpy's percentile.
        #expect(abs(try #require(m.exceedance.exceeded(percent: 10)) - r.LA10) <= 0.005 + 1e-9)
        #expect(abs(try #require(m.exceedance.exceeded(percent: 50)) - r.LA50) <= 0.005 + 1e-9)
        #expect(abs(try #require(m.exceedance.exceeded(percent: 90)) - r.LA90) <= 0.005 + 1e-9)
        #expect(!r.windows.isEmpty && m.windowMeanSquares.count == r.windows.count)
        for (got, want) in zip(m.windowMeanSquares, r.windows) { #expect(abs(10 * log10(got) - want) < 1e-9) }
    }

    @Test func resultsDoNotDependOnBlockSize() throws {
        let whole = try Self.measure(Self.signal)
        for blocks in [[1], [7], [4096], [65_536], [100_003], [13, 50_000, 1, 999, 333_333]] {
            let split = try Self.measure(Self.signal, blocks: blocks)
            #expect(split == whole, "blocks \(blocks)")
        }
    }

    @Test func pcm16InputEqualsScaledDoubleInput() throws {
        let ints = Self.signal.prefix(300_000).map { Int16(clamping: Int(($0 * 32_768).rounded())) }
        var configuration = SoundLevelMeter.Configuration()
        configuration.fullScale = 32_768
        let integerMeter = try SoundLevelMeter(sampleRate: Self.fs, configuration: configuration)
        ints.withUnsafeBufferPointer { integerMeter.add(pcm16: $0.span) }
        let scaled = try Self.measure(ints.map { Double($0) / 32_768 })
        #expect(integerMeter.finish() == scaled)
    }

    @Test func windowSeriesFollowsResearchKitsFormulaExactly() throws {
        // Independent path: the A-weighted signal from the biquad cascade, buffers of fs/10, windows of the last
        // N = 10 of every 11 buffers, meanSquare = (ΣE / samplingInterval) / fs.
        let a = try #require(try FrequencyWeighting.a.sections(sampleRate: 44_100))
        let x = Array(Self.signal.prefix(441_000))
        let y = a.filter(x)
        let buffer = 4410
        var energies: [Double] = []
        var i = 0
        while i + buffer <= y.count {
            energies.append(y[i..<(i + buffer)].reduce(0) { $0 + $1 * $1 })
            i += buffer
        }
        var expected: [Double] = []
        for j in 0..<(energies.count / 11) { expected.append(energies[(j * 11 + 1)...(j * 11 + 10)].reduce(0, +) / 1 / 44_100) }
        let m = try Self.measure(x, sampleRate: 44_100)
        #expect(!expected.isEmpty && m.windowMeanSquares.count == expected.count)
        for (got, want) in zip(m.windowMeanSquares, expected) { #expect(abs(got / want - 1) < 1e-10) }
    }

    @Test(arguments: [(100.0, 0.5), (1000.0, 0.25), (4000.0, 0.1), (31.5, 0.5)])
    func tonesReadTheirAnalyticLevels(frequency: Double, amplitude: Double) throws {
        let x = TestSignal.sine(frequency: frequency, amplitude: amplitude).samples(count: 10 * 48_000, sampleRate: Self.fs)
        let m = try Self.measure(x)
        let flat = 20 * log10(amplitude / 2.0.squareRoot())
        // Expected: the IEC closed form (IECAnalogue), not taskproc's weighting code. A bilinear (digital) filter
        // cannot follow the analogue curve towards Nyquist: at 48 kHz scipy's bilinear A and C filters
        // (Tools/reference/sound_reference.py design) differ from the closed form by −0.005 dB (A) / +0.0001 dB (C)
        // at 31.5 and 100 Hz, 0.000 at 1 kHz and −0.038 (A) / −0.040 dB (C) at 4 kHz. Tolerances: that gap plus the
        // start-up transient's share of 10 s.
        let tolerance = frequency <= 1000 ? 0.02 : 0.05
        #expect(abs(Self.db(m.meanSquareA) - (flat + IECAnalogue.a(frequency))) < tolerance)
        #expect(abs(Self.db(m.meanSquareC) - (flat + IECAnalogue.c(frequency))) < tolerance)
        #expect(abs(Self.db(m.meanSquareZ) - flat) < 0.001)
        // Steady tone: the S-weighted maximum and the median F level equal the equivalent level (F ripples by
        // ±0.1 dB at 31.5 Hz).
        let aLevel = flat + IECAnalogue.a(frequency)
        #expect(abs(Self.db(m.maxSlow) - aLevel) < tolerance + 0.01)
        #expect(abs(try #require(m.exceedance.exceeded(percent: 50)) - aLevel) < 0.15)
        // C peak of a sine: amplitude × |C(f)|, read from samples, which may miss the crest by up to half a
        // sampling interval: between peak + 20·lg(cos(π f/fs)) and peak.
        let peak = 20 * log10(amplitude) + IECAnalogue.c(frequency)
        let measuredPeak = 20 * log10(try #require(m.peakC))
        #expect(measuredPeak <= peak + tolerance)
        #expect(measuredPeak >= peak + 20 * log10(cos(Double.pi * frequency / Self.fs)) - tolerance)
    }

    @Test func calibratedOneKilohertzToneReads94() throws {
        // 1 Pa = 94 dB SPL; a 1 kHz sine of amplitude a reads 10·lg(a²/2) dBFS; the calibration adds 94 − offset.
        let a = 0.3
        let x = TestSignal.sine(frequency: 1000, amplitude: a).samples(count: 10 * 48_000, sampleRate: Self.fs)
        let offset = 10 * log10(a * a / 2)  // this tone *is* the 94 dB calibrator
        let laeq = Self.db(try Self.measure(x).meanSquareA) - offset + 94
        #expect(abs(laeq - 94) <= 0.02)
    }

    @Test func pinkMultisineMatchesTheAnalyticALevel() throws {
        // Equal energy per octave: 1/3-octave components 25 Hz…5 kHz, amplitude ∝ 1/√f, random phases.
        var rng = SplitMix64(seed: 5)
        let frequencies = (14...37).map { 1000 * pow(10, Double($0 - 30) / 10) }
        let n = 20 * 48_000
        var x = [Double](repeating: 0, count: n)
        var expectedA = 0.0
        var expectedZ = 0.0
        for f in frequencies {
            let amplitude = 0.05 * (1000 / f).squareRoot()
            let phase = Double(rng.next() >> 11) / 9_007_199_254_740_992 * 2 * .pi
            let w = 2 * Double.pi * f / Self.fs
            for i in 0..<n { x[i] += amplitude * sin(w * Double(i) + phase) }
            expectedZ += amplitude * amplitude / 2
            expectedA += amplitude * amplitude / 2 * pow(10, IECAnalogue.a(f) / 10)
        }
        let m = try Self.measure(x)
        // Expected from the IEC closed form; scipy's bilinear A filter at 48 kHz reads this sum 0.005 dB below it
        // (most of the gap from the 4 and 5 kHz components).
        #expect(abs(Self.db(m.meanSquareA) - 10 * log10(expectedA)) < 0.05)
        #expect(abs(Self.db(m.meanSquareZ) - 10 * log10(expectedZ)) < 0.02)
    }

    @Test func fastAndSlowDecayRatesMatchTheStandard() throws {
        // IEC 61672-1 cl. 5.7.2: after a 4 kHz tone stops, F decays ≥ 25 dB/s, S 3.4–5.3 dB/s (nominal
        // 10·lg(e)/τ = 34.7 and 4.34 dB/s).
        let fs = Self.fs
        var x = TestSignal.sine(frequency: 4000, amplitude: 0.5).samples(count: Int(12 * fs), sampleRate: fs)
        x += [Double](repeating: 0, count: Int(fs))  // 1 s of silence
        let m = try Self.measure(x)
        let fastDecay = Self.db(m.maxFast) - Self.db(m.minFast)  // over the 1 s of silence
        let slowDecay = Self.db(m.maxSlow) - Self.db(m.minSlow)
        #expect(fastDecay >= 25 && abs(fastDecay - 34.74) < 0.3, "F decay \(fastDecay) dB/s")
        #expect(slowDecay >= 3.4 && slowDecay <= 5.3 && abs(slowDecay - 4.343) < 0.05, "S decay \(slowDecay) dB/s")
    }

    @Test func energyAddsAcrossSegments() throws {
        let quiet = TestSignal.whiteNoise(rms: 0.01, seed: 1).samples(count: 5 * 48_000, sampleRate: Self.fs)
        let loud = TestSignal.whiteNoise(rms: 0.2, seed: 2).samples(count: 3 * 48_000, sampleRate: Self.fs)
        let l1 = try Self.measure(quiet).meanSquareA
        let l2 = try Self.measure(loud).meanSquareA
        let both = try Self.measure(quiet + loud).meanSquareA
        let expected = (5 * l1 + 3 * l2) / 8
        #expect(abs(10 * log10(both / expected)) < 0.01)
    }

    /// A 1 kHz tone of amplitude `loud` over `[start, end)` s, `quiet` elsewhere, `seconds` long at 48 kHz.
    static func toneBurst(seconds: Double, start: Double, end: Double, loud: Double, quiet: Double) -> [Double] {
        var x = TestSignal.sine(frequency: 1000, amplitude: 1).samples(count: Int(seconds * fs), sampleRate: fs)
        for i in x.indices {
            let t = Double(i) / fs
            x[i] *= t >= start && t < end ? loud : quiet
        }
        return x
    }

    /// A short recording whose loudest part is its first 3 s (as ResearchKit's 5–10 s audio steps often are):
    /// with the integrators rising from 0 and their maxima read only after 5τ, LASmax was −6.5 dB off; seeded
    /// with the first τ's mean square, it is the loud tone's steady level (1 kHz: A = 0 dB, 10·lg(a²/2)).
    @Test func shortRecordingsLoudAtTheStartReadTheirSlowAndFastMaxima() throws {
        let loud = 0.3
        let x = Self.toneBurst(seconds: 6.8, start: 0, end: 3, loud: loud, quiet: loud / 10.0.squareRoot())
        let m = try Self.measure(x)
        let steady = 10 * log10(loud * loud / 2)
        #expect(abs(Self.db(m.maxSlow) - steady) < 0.02, "LASmax \(Self.db(m.maxSlow)) vs \(steady)")
        #expect(abs(Self.db(m.maxFast) - steady) < 0.02, "LAFmax \(Self.db(m.maxFast)) vs \(steady)")
        #expect(m.slowSettling == 0.1 && m.fastSettling == 0.1)
    }

    /// A 1.5 s burst 10 dB above a quiet tone that also opens the recording: the S level at the burst's end is
    /// the closed form of the seeded integrator, m₁ + (m₂ − m₁)·e^(−1.5 s/τ); F (τ = 0.125 s) reaches m₁.
    @Test func aBurstInAShortRecordingReadsTheSlowWeightingsClosedForm() throws {
        let loud = 0.3
        let quiet = loud / 10.0.squareRoot()
        let x = Self.toneBurst(seconds: 6.8, start: 1.5, end: 3, loud: loud, quiet: quiet)
        let m = try Self.measure(x)
        let (m1, m2) = (loud * loud / 2, quiet * quiet / 2)
        let slow = 10 * log10(m1 + (m2 - m1) * exp(-1.5))
        #expect(abs(Self.db(m.maxSlow) - slow) < 0.02, "LASmax \(Self.db(m.maxSlow)) vs \(slow)")
        #expect(abs(Self.db(m.maxFast) - 10 * log10(m1)) < 0.02)
    }

    /// Shorter than a seed window (0.6 s: S's is 0.1–1.1 s) and shorter than the filters' start-up (0.05 s).
    @Test func recordingsShorterThanTheSeedWindowStillReadTheirMaxima() throws {
        let a = 0.2
        let x = TestSignal.sine(frequency: 1000, amplitude: a).samples(count: Int(0.6 * Self.fs), sampleRate: Self.fs)
        let m = try Self.measure(x)
        #expect(abs(Self.db(m.maxSlow) - 10 * log10(a * a / 2)) < 0.05)
        #expect(abs(Self.db(m.maxFast) - 10 * log10(a * a / 2)) < 0.05)
        let tiny = try Self.measure(Array(x.prefix(2400)))
        #expect(tiny.maxSlow == nil && tiny.maxFast == nil && tiny.peakC == nil)
    }

    @Test func silenceGivesNoLevels() throws {
        let m = try Self.measure([Double](repeating: 0, count: 96_000))
        #expect(m.meanSquareA == 0)
        #expect(m.exceedance.exceeded(percent: 50) == nil)
        #expect(m.peakC == 0)
    }

    @Test func badParametersAreRejected() {
        #expect(throws: SoundLevelError.invalidSampleRate(hertz: 500)) { try SoundLevelMeter(sampleRate: 500) }
        var c = SoundLevelMeter.Configuration()
        c.samplingInterval = 0
        #expect(throws: SoundLevelError.invalidSamplingInterval(seconds: 0)) {
            try SoundLevelMeter(sampleRate: 48_000, configuration: c)
        }
    }

    /// Fuzz finding (FuzzSoundLevel): sampling rates and intervals have maxima.
    ///
    /// A WAV header declaring 2 GHz sized the meter's buffers by the rate (1 GB for 160 frames), and an interval or
    /// a rate near 1e308 trapped converting to Int.
    @Test func ratesAndIntervalsBeyondTheLimitsAreRejected() {
        for rate in [2e9, 1e308, Double(AudioLimits.maximumSampleRate).nextUp] {
            #expect(throws: SoundLevelError.invalidSampleRate(hertz: rate)) { try SoundLevelMeter(sampleRate: rate) }
        }
        #expect(throws: Never.self) { try SoundLevelMeter(sampleRate: Double(AudioLimits.maximumSampleRate)) }
        var c = SoundLevelMeter.Configuration()
        for interval in [1e308, Double(3600).nextUp] {
            c.samplingInterval = interval
            #expect(throws: SoundLevelError.invalidSamplingInterval(seconds: interval)) {
                try SoundLevelMeter(sampleRate: 48_000, configuration: c)
            }
        }
        #expect(SoundLevelError.invalidSampleRate(hertz: 2e9).description.contains("1000…768000 Hz"))
    }
}
