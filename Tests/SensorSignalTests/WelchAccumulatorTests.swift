import Foundation
import SensorSignal
import Testing

/// The streaming estimator must equal the batch, scipy-checked `Welch` however the stream is split.
@Suite struct WelchAccumulatorTests {
    @Test(arguments: [(256, nil as Int?), (1000, 250), (512, 0), (97, 48)])
    func streamingEqualsBatchWelch(segmentLength: Int, overlap: Int?) throws {
        let fs = 1000.0
        let noise = TestSignal.whiteNoise(rms: 0.3, seed: 11).samples(count: 20_000, sampleRate: fs)
        let tone = TestSignal.sine(frequency: 123.4, amplitude: 0.8).samples(count: 20_000, sampleRate: fs)
        let x: [Double] = zip(noise, tone).map { $0 + $1 + 0.05 }
        let batch = try Welch(window: .hann, segmentLength: segmentLength, overlap: overlap).psd(x, sampleRate: fs)
        var rng = SplitMix64(seed: 3)
        var acc = try WelchAccumulator<Double>(segmentLength: segmentLength, overlap: overlap, sampleRate: fs)
        var start = 0
        while start < x.count {
            let n = min(x.count - start, 1 + Int(rng.next() % 3000))
            let block = Array(x[start..<(start + n)])
            acc.add(block.span)
            start += n
        }
        let streamed = acc.spectrum(scaling: .density)
        try #require(!batch.values.isEmpty && streamed.values.count == batch.values.count)
        #expect(streamed.frequencies == batch.frequencies)
        let scale = batch.values.max() ?? 1
        for (a, b) in zip(streamed.values, batch.values) { #expect(abs(a - b) <= 1e-12 * scale) }
        // And the tone is found.
        #expect(abs((acc.dominantFrequency() ?? 0) - 123.4) < 0.05 * fs / Double(segmentLength))
    }

    @Test func nothingBeforeTheFirstSegment() throws {
        var acc = try WelchAccumulator<Float>(segmentLength: 64, sampleRate: 100)
        acc.add([Float](repeating: 1, count: 63).span)
        #expect(acc.segmentCount == 0)
        #expect(acc.spectrum().values.isEmpty)
        #expect(acc.dominantFrequency() == nil)
        acc.add([Float(1)].span)
        #expect(acc.segmentCount == 1)
    }
}
