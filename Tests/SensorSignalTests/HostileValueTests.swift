import Foundation
import SensorSignal
import TestSupport
import Testing

/// Issue 16 at the library level: conversions and meters never trap on NaN, ±∞ or absurd values.
@Suite(.tags(.hostileInput)) struct HostileValueTests {
    @Test func clampedConvertsWithoutTrapping() {
        #expect(Int.clamped(.nan, to: 0...9) == 0)
        #expect(Int.clamped(.infinity, to: 0...9) == 9)
        #expect(Int.clamped(-.infinity, to: 0...9) == 0)
        #expect(Int.clamped(1e300, to: 0...Int.max) == Int.max)
        #expect(Int.clamped(-1e300, to: Int.min...0) == Int.min)
        #expect(Int.clamped(3.99, to: 0...9) == 3)
        #expect(Int.clamped(-0.5, to: -5...5) == -1)
    }

    @Test func buffersAreSizedByTheFileAndTheSampleBudget() {
        #expect(AudioLimits.bufferFrames(block: Int.max, frameCount: 1, channels: 1024) == 1)
        #expect(AudioLimits.bufferFrames(block: Int.max, frameCount: nil, channels: 1) == 1 << 20)
        #expect(AudioLimits.bufferFrames(block: 65_536, frameCount: 10_000_000, channels: 64) == 16_384)
        #expect(AudioLimits.bufferFrames(block: 0, frameCount: 0, channels: 2) == 1)
    }

    /// An infinite sample made the level +∞, and `Int(+∞)` of its histogram bin trapped.
    @Test func aMeterFedInfinityAndNaNFinishesWithoutTrapping() throws {
        let meter = try SoundLevelMeter(sampleRate: 48_000)
        var samples = [Double](repeating: 0.1, count: 96_000)
        samples[10] = .infinity
        samples[20] = .nan
        samples[30] = 1e300
        samples.withUnsafeBufferPointer { meter.add($0.span) }
        _ = meter.finish()
    }

    @Test func aMeterRefusesRatesAndIntervalsBeyondItsBounds() {
        #expect(throws: SoundLevelError.self) { try SoundLevelMeter(sampleRate: 1e9) }
        var configuration = SoundLevelMeter.Configuration()
        configuration.samplingInterval = 1e300
        #expect(throws: SoundLevelError.self) { try SoundLevelMeter(sampleRate: 48_000, configuration: configuration) }
    }

    /// Times of ±1e308 s once made resampling grid indices overflow `Int`.
    @Test func resamplingHugeTimesThrowsInsteadOfTrapping() {
        let times = [0, 0.01, 0.02, 1e300, 1e300 + 1e285]
        #expect(throws: ResamplingError.self) {
            try UniformResampling(timestamps: times, channels: [[0, 1, 2, 3, 4]], rate: 100)
        }
    }

    /// A log sampled faster than 10 kHz gives a warning, not lag lengths of billions.
    @Test func aMotionLogFasterThanTheBoundIsReportedNotAnalysed() {
        let times = (0..<2_000).map { Double($0) * 1e-9 }
        let values = times.map { 1 + 0.1 * sin($0 * 1e9) }
        let detection = StepDetector().detect(timestamps: times, magnitude: values)
        #expect(detection.warnings.contains { $0.contains("out of range (max 10000 Hz)") }, "\(detection.warnings)")
    }
}
