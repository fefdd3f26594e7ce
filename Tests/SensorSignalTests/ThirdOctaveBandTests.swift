import ComplexModule
import Foundation
import Testing

@testable import SensorSignal

/// Third-octave bands: the IEC 61260-1 base-10 band table, each band filter against the analytic response of a
/// bilinear-transformed 6th-order Butterworth band-pass, and band levels of tones.
@Suite struct ThirdOctaveBandTests {
    @Test func bandTableFollowsIEC61260() {
        let all = ThirdOctaveBand.bands(sampleRate: 96_000)
        #expect(all.count == 30)
        let g = pow(10, 0.3)  // base-10 octave ratio
        for (i, band) in all.enumerated() {
            let x = Double(i - 16)
            #expect(abs(band.centre - 1000 * pow(g, x / 3)) < 1e-9 * band.centre)
            #expect(abs(band.lower * band.upper - band.centre * band.centre) < 1e-9 * band.centre * band.centre)
            #expect(abs(band.upper / band.lower - pow(g, 1.0 / 3)) < 1e-12)
            // Nominal names round the exact centres (IEC 61260-1 Annex E): within 2.5 %.
            #expect(abs(band.nominal / band.centre - 1) < 0.025, "\(band.nominal) vs \(band.centre)")
        }
        #expect(all[16].centre == 1000 && all[16].nominal == 1000)
        #expect(ThirdOctaveBand.bands(sampleRate: 48_000).last?.nominal == 16_000)
        #expect(ThirdOctaveBand.bands(sampleRate: 44_100).last?.nominal == 16_000)
        #expect(ThirdOctaveBand.bands(sampleRate: 8_000).last?.nominal == 3150)
    }

    /// |H(f)|² of a bilinear-transformed Butterworth band-pass of prototype order N with prewarped edges:
    /// with w = tan(π f / fs), w0² = w1·w2 and B = w2 − w1, |H|² = 1 / (1 + ((w² − w0²) / (w·B))^(2N)).
    static func analyticGainDB(_ f: Double, band: ThirdOctaveBand, fs: Double, order: Double = 3) -> Double {
        func warp(_ f: Double) -> Double { tan(Double.pi * f / fs) }
        let w = warp(f), w1 = warp(band.lower), w2 = warp(band.upper)
        let ratio = (w * w - w1 * w2) / (w * (w2 - w1))
        return -10 * log10(1 + pow(ratio * ratio, order))
    }

    @Test(arguments: [44_100.0, 48_000, 96_000])
    func bandFiltersMatchTheAnalyticResponse(fs: Double) throws {
        for band in ThirdOctaveBand.bands(sampleRate: fs) {
            let sections = try Butterworth.design(
                order: 3, band: .bandpass(low: band.lower, high: band.upper), sampleRate: fs)
            for factor in [0.25, 0.5, 0.8, 0.9, 1.0, 1.1, 1.25, 2.0, 4.0] {
                let f = band.centre * factor
                guard f < 0.49 * fs else { continue }
                let h = sections.response(at: f, sampleRate: fs)
                let db = 10 * log10(h.real * h.real + h.imaginary * h.imaginary)
                let expected = Self.analyticGainDB(f, band: band, fs: fs)
                #expect(abs(db - expected) < 1e-6 * max(1, abs(expected)), "\(band.nominal) Hz band at \(f) Hz: \(db) vs \(expected)")
            }
            // −3.01 dB at both edges.
            for edge in [band.lower, band.upper] {
                let h = sections.response(at: edge, sampleRate: fs)
                #expect(abs(10 * log10(h.real * h.real + h.imaginary * h.imaginary) + 10 * log10(2.0)) < 1e-6)
            }
        }
    }

    /// A 1 kHz sine of amplitude A reads 20·lg(A/√2) in the 1 kHz band and the analytic skirt attenuation in its
    /// neighbours; block sizes do not change a bit.
    @Test func toneLevelsAndBlockIndependence() throws {
        let fs = 48_000.0
        let amplitude = 0.25
        let samples = (0..<Int(4 * fs)).map { amplitude * sin(2 * Double.pi * 1000 * Double($0) / fs) }
        let whole = try ThirdOctaveBandMeter(sampleRate: fs)
        whole.add(samples.span)
        let blocks = try ThirdOctaveBandMeter(sampleRate: fs)
        var start = 0
        for size in [1, 7, 4096, 65_536, 100_003] where start < samples.count {
            let end = min(samples.count, start + size)
            samples.withUnsafeBufferPointer { blocks.add(UnsafeBufferPointer(rebasing: $0[start..<end]).span) }
            start = end
        }
        samples.withUnsafeBufferPointer { blocks.add(UnsafeBufferPointer(rebasing: $0[start...]).span) }
        // The filters are bit-identical across block sizes; the energy sums are added per block, so the means agree
        // to rounding.
        let a = try #require(whole.meanSquares)
        let b = try #require(blocks.meanSquares)
        #expect(!a.isEmpty && a.count == b.count)
        for (x, y) in zip(a, b) { #expect(abs(x - y) <= 1e-12 * x) }
        let bands = whole.bands
        let k = try #require(bands.firstIndex { $0.nominal == 1000 })
        let toneLevel = 20 * log10(amplitude / 2.0.squareRoot())
        // The filters' start-up transient adds a little energy over 4 s: within 0.02 dB.
        #expect(abs(10 * log10(a[k]) - toneLevel) < 0.02)
        for j in [k - 1, k + 1] {
            let expected = toneLevel + Self.analyticGainDB(1000, band: bands[j], fs: fs)
            #expect(abs(10 * log10(a[j]) - expected) < 0.1, "\(bands[j].nominal) Hz: \(10 * log10(a[j])) vs \(expected)")
        }
        // Further out the steady-state leak is below the start-up transient; both are at least 40 dB down.
        for j in [k - 3, k + 3] { #expect(10 * log10(a[j]) < toneLevel - 40) }
    }

    /// `Float` and 16-bit PCM blocks are widened (PCM scaled by 1/32 768) and then filtered exactly as the same
    /// values given as `Double`: the mean squares agree bit for bit, whatever the block sizes (a shorter last
    /// block reallocates the conversion buffer).
    @Test func floatAndPCM16InputsEqualTheirDoubleValues() throws {
        let fs = 8_000.0
        let pcm: [Int16] = (0..<20_000).map { Int16(truncatingIfNeeded: ($0 &* 7_919) % 65_536 - 32_768) }
        let floats: [Float] = pcm.map { Float($0) / 32_768 * 0.9 }
        let fromPCM = try ThirdOctaveBandMeter(sampleRate: fs)
        let pcmAsDouble = try ThirdOctaveBandMeter(sampleRate: fs)
        let fromFloat = try ThirdOctaveBandMeter(sampleRate: fs)
        let floatAsDouble = try ThirdOctaveBandMeter(sampleRate: fs)
        var start = 0
        for size in [4096, 4096, 1, 7, 11_800] {
            let end = min(pcm.count, start + size)
            pcm.withUnsafeBufferPointer { fromPCM.add(pcm16: UnsafeBufferPointer(rebasing: $0[start..<end]).span) }
            let scaled = pcm[start..<end].map { Double($0) / 32_768 }
            pcmAsDouble.add(scaled.span)
            floats.withUnsafeBufferPointer { fromFloat.add(UnsafeBufferPointer(rebasing: $0[start..<end]).span) }
            let widened = floats[start..<end].map(Double.init)
            floatAsDouble.add(widened.span)
            start = end
        }
        #expect(start == pcm.count)
        let a = try #require(fromPCM.meanSquares), b = try #require(pcmAsDouble.meanSquares)
        let c = try #require(fromFloat.meanSquares), d = try #require(floatAsDouble.meanSquares)
        #expect(a.count == fromPCM.bands.count && a.count > 10)
        #expect(a == b)
        #expect(c == d)
        #expect(a.allSatisfy { $0 > 0 && $0.isFinite })
    }
}
