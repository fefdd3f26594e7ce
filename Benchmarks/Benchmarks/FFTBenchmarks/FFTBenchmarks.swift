// Real forward FFT (r2c) through taskproc's RealFFT: the zero-copy `executeForward()` on a plan and
// buffers made once in setup (the operation comparable to FFTW's own `fftw_execute`), for both
// planning efforts and both precisions, plus the copying `forward(_:)` for its allocation count.
import Benchmark
import BenchmarkSupport
import SensorSignal

let benchmarks: @Sendable () -> Void = {
    for count in [256, 1024, 4096, 16_384, 65_536] {
        for effort in [FFTPlanningEffort.measure, .estimate] {
            registerExecuteForward(Float.self, count: count, effort: effort)
            registerExecuteForward(Double.self, count: count, effort: effort)
        }
    }
    registerCopyingForward(Float.self, count: 4096)
    registerCopyingForward(Double.self, count: 4096)
}

private func effortName(_ effort: FFTPlanningEffort) -> String {
    switch effort {
    case .estimate: "estimate"
    case .measure: "measure"
    }
}

/// Transforms of 4096 points or fewer take a few microseconds: run a thousand per iteration.
private func scaling(for count: Int) -> BenchmarkScalingFactor { count <= 4096 ? .kilo : .one }

private func registerExecuteForward<Scalar: FFTScalar>(_: Scalar.Type, count: Int, effort: FFTPlanningEffort) {
    let fixture = Fixture<RealFFT<Scalar>>()
    Benchmark(
        "RealFFT.executeForward_\(Scalar.self)_N=\(count)_\(effortName(effort))",
        configuration: Suite.configuration(scaling: scaling(for: count)),
        closure: { benchmark in
            let fft = fixture.prepared
            for _ in benchmark.scaledIterations {
                fft.executeForward()
            }
            fft.withBuffers { _, spectrum in blackHole(spectrum[1]) }
        },
        setup: {
            let fft = try RealFFT<Scalar>(count: count, effort: effort)
            var noise = NoiseSource()
            let input: [Scalar] = noise.samples(count)
            fft.withBuffers { real, _ in _ = real.update(fromContentsOf: input) }
            fixture.value = fft
        },
        teardown: { fixture.value = nil })
}

private func registerCopyingForward<Scalar: FFTScalar>(_: Scalar.Type, count: Int) {
    let fixture = Fixture<(RealFFT<Scalar>, [Scalar])>()
    Benchmark(
        "RealFFT.forward(copying)_\(Scalar.self)_N=\(count)_measure",
        configuration: Suite.configuration(scaling: scaling(for: count)),
        closure: { benchmark in
            let (fft, input) = fixture.prepared
            for _ in benchmark.scaledIterations {
                blackHole(fft.forward(input))
            }
        },
        setup: {
            var noise = NoiseSource()
            fixture.value = (try RealFFT<Scalar>(count: count, effort: .measure), noise.samples(count))
        },
        teardown: { fixture.value = nil })
}
