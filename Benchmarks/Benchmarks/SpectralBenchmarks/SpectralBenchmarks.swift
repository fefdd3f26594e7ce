// Welch power spectral density of 2^20 samples at 48 kHz (scipy `welch` defaults: periodic Hann,
// 50 % overlap, constant detrend, density scaling, mean averaging) with nperseg 1024 and 4096, in
// Double and Float: the plain call, which prepares its transform each time (the FFTW plan itself
// is cached process-wide), and the call with a per-task `FFTCache`, which reuses the transform.
import Benchmark
import BenchmarkSupport
import SensorSignal

let sampleCount = 1 << 20
let sampleRate = 48_000.0

let benchmarks: @Sendable () -> Void = {
    for segmentLength in [1024, 4096] {
        register(Double.self, segmentLength: segmentLength)
        register(Float.self, segmentLength: segmentLength)
    }
}

private func register<Scalar: FFTScalar>(_: Scalar.Type, segmentLength: Int) {
    let fixture = Fixture<(Welch, [Scalar], FFTCache<Scalar>)>()
    let setup: Benchmark.BenchmarkSetupHook = {
        var noise = NoiseSource()
        let welch = Welch(segmentLength: segmentLength)
        let cache = FFTCache<Scalar>()
        let signal: [Scalar] = noise.samples(sampleCount)
        _ = try welch.psd(signal, sampleRate: sampleRate, cache: cache)  // plan and cache outside the timing
        fixture.value = (welch, signal, cache)
    }
    let teardown: Benchmark.BenchmarkTeardownHook = { fixture.value = nil }
    let what = "2^20_\(Scalar.self)_nperseg=\(segmentLength)"
    Benchmark(
        "Welch.psd_\(what)", configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 500),
        closure: { benchmark in
            let (welch, signal, _) = fixture.prepared
            for _ in benchmark.scaledIterations {
                blackHole(try welch.psd(signal, sampleRate: sampleRate))
            }
        }, setup: setup, teardown: teardown)
    Benchmark(
        "Welch.psd(FFTCache)_\(what)", configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 500),
        closure: { benchmark in
            let (welch, signal, cache) = fixture.prepared
            for _ in benchmark.scaledIterations {
                blackHole(try welch.psd(signal, sampleRate: sampleRate, cache: cache))
            }
        }, setup: setup, teardown: teardown)
}
