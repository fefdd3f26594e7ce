// SIMD reductions over 2^20 samples (`Reductions`): sum, sum of squares, dot product, min, max,
// mean and sample variance, in Double and Float. None of them allocates.
import Benchmark
import BenchmarkSupport
import SensorSignal

let sampleCount = 1 << 20

let benchmarks: @Sendable () -> Void = {
    register(Double.self)
    register(Float.self)
}

/// The `Reductions` entry points exist for exactly these two sample types.
protocol ReducibleSample: BinaryFloatingPoint {
    static func sum(_ x: [Self]) -> Self
    static func sumOfSquares(_ x: [Self]) -> Self
    static func dot(_ x: [Self], _ y: [Self]) -> Self
    static func min(_ x: [Self]) -> Self
    static func max(_ x: [Self]) -> Self
    static func mean(_ x: [Self]) -> Self
    static func variance(_ x: [Self]) -> Self
}

extension Double: ReducibleSample {
    static func sum(_ x: [Double]) -> Double { Reductions.sum(x) }
    static func sumOfSquares(_ x: [Double]) -> Double { Reductions.sumOfSquares(x) }
    static func dot(_ x: [Double], _ y: [Double]) -> Double { Reductions.dot(x, y) }
    static func min(_ x: [Double]) -> Double { Reductions.min(x) }
    static func max(_ x: [Double]) -> Double { Reductions.max(x) }
    static func mean(_ x: [Double]) -> Double { Reductions.mean(x) }
    static func variance(_ x: [Double]) -> Double { Reductions.variance(x) }
}

extension Float: ReducibleSample {
    static func sum(_ x: [Float]) -> Float { Reductions.sum(x) }
    static func sumOfSquares(_ x: [Float]) -> Float { Reductions.sumOfSquares(x) }
    static func dot(_ x: [Float], _ y: [Float]) -> Float { Reductions.dot(x, y) }
    static func min(_ x: [Float]) -> Float { Reductions.min(x) }
    static func max(_ x: [Float]) -> Float { Reductions.max(x) }
    static func mean(_ x: [Float]) -> Float { Reductions.mean(x) }
    static func variance(_ x: [Float]) -> Float { Reductions.variance(x) }
}

private func register<Sample: ReducibleSample>(_: Sample.Type) {
    let fixture = Fixture<([Sample], [Sample])>()
    let setup: Benchmark.BenchmarkSetupHook = {
        var noise = NoiseSource()
        fixture.value = (noise.samples(sampleCount), noise.samples(sampleCount))
    }
    let teardown: Benchmark.BenchmarkTeardownHook = { fixture.value = nil }
    let operations: [(String, ([Sample], [Sample]) -> Sample)] = [
        ("sum", { x, _ in Sample.sum(x) }),
        ("sumOfSquares", { x, _ in Sample.sumOfSquares(x) }),
        ("dot", { x, y in Sample.dot(x, y) }),
        ("min", { x, _ in Sample.min(x) }),
        ("max", { x, _ in Sample.max(x) }),
        ("mean", { x, _ in Sample.mean(x) }),
        ("variance", { x, _ in Sample.variance(x) }),
    ]
    for (name, operation) in operations {
        Benchmark(
            "Reductions.\(name)_2^20_\(Sample.self)", configuration: Suite.configuration(),
            closure: { benchmark in
                let (x, y) = fixture.prepared
                for _ in benchmark.scaledIterations {
                    blackHole(operation(x, y))
                }
            }, setup: setup, teardown: teardown)
    }
}
