// IIR filtering of 2^20 samples with Butterworth low-pass designs (48 kHz, 1 kHz cut-off):
// 4th order (2 second-order sections) and 8th order (4 sections), forward only (scipy `sosfilt`,
// `SecondOrderSections.filter`) and zero-phase forward-backward (scipy `sosfiltfilt`,
// `filterZeroPhase`), in Double and Float (Float samples are filtered with Double state and arithmetic).
// The design and the input are made in setup; each call allocates its result, as scipy's does.
import Benchmark
import BenchmarkSupport
import SensorSignal

let sampleCount = 1 << 20
let sampleRate = 48_000.0

let benchmarks: @Sendable () -> Void = {
    for order in [4, 8] {
        register(Double.self, order: order)
        register(Float.self, order: order)
    }
}

/// `filter` and `filterZeroPhase` exist for exactly these two sample types.
protocol FilterSample: BinaryFloatingPoint {
    static func forward(_ sections: SecondOrderSections, _ signal: [Self]) -> [Self]
    static func zeroPhase(_ sections: SecondOrderSections, _ signal: [Self]) throws -> [Self]
}

extension Double: FilterSample {
    static func forward(_ sections: SecondOrderSections, _ signal: [Double]) -> [Double] { sections.filter(signal) }
    static func zeroPhase(_ sections: SecondOrderSections, _ signal: [Double]) throws -> [Double] {
        try sections.filterZeroPhase(signal)
    }
}

extension Float: FilterSample {
    static func forward(_ sections: SecondOrderSections, _ signal: [Float]) -> [Float] { sections.filter(signal) }
    static func zeroPhase(_ sections: SecondOrderSections, _ signal: [Float]) throws -> [Float] {
        try sections.filterZeroPhase(signal)
    }
}

private func register<Sample: FilterSample>(_: Sample.Type, order: Int) {
    let fixture = Fixture<(SecondOrderSections, [Sample])>()
    let setup: Benchmark.BenchmarkSetupHook = {
        let sections = try Butterworth.design(order: order, band: .lowpass(cutoff: 1_000), sampleRate: sampleRate)
        var noise = NoiseSource()
        fixture.value = (sections, noise.samples(sampleCount))
    }
    let teardown: Benchmark.BenchmarkTeardownHook = { fixture.value = nil }
    let what = "Butterworth\(order)_\(order / 2)sections_2^20_\(Sample.self)"
    Benchmark(
        "sosfilt_\(what)", configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 200),
        closure: { benchmark in
            let (sections, signal) = fixture.prepared
            for _ in benchmark.scaledIterations {
                blackHole(Sample.forward(sections, signal))
            }
        }, setup: setup, teardown: teardown)
    Benchmark(
        "sosfiltfilt_\(what)", configuration: Suite.configuration(maxDuration: .seconds(2), maxIterations: 200),
        closure: { benchmark in
            let (sections, signal) = fixture.prepared
            for _ in benchmark.scaledIterations {
                blackHole(try Sample.zeroPhase(sections, signal))
            }
        }, setup: setup, teardown: teardown)
}
