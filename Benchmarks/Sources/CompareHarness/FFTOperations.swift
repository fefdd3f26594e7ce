// Real forward FFT: zero-copy `executeForward()` on a plan and buffers prepared beforehand, the
// operation that matches FFTW's own `fftw_execute` loop in Tools/peers/fftw_bench.c ("fft/…"), and the
// copying `forward(_:)`, which returns a new spectrum array like one `numpy.fft.rfft` call ("fft-copy/…").
import SensorSignal

func fftOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    let effort: FFTPlanningEffort
    switch try arguments.string("effort") {
    case "estimate": effort = .estimate
    case "measure": effort = .measure
    case let other: throw HarnessError.usage("--effort must be estimate or measure, got \(other)")
    }
    let inputF64 = try readRaw(try arguments.string("input-f64"), as: Double.self)
    let inputF32 = try readRaw(try arguments.string("input-f32"), as: Float.self)
    var results: [Measurement] = []
    // Same planning order as fftw_bench.c (ascending N, single then double), because FFTW's wisdom
    // from one plan can steer the next.
    for count in try arguments.ints("sizes") {
        results.append(try timeForward(inputF32, count: count, effort: effort, timing: timing, name: "f32"))
        results.append(try timeForward(inputF64, count: count, effort: effort, timing: timing, name: "f64"))
    }
    // The copying interface reuses the plans made above (RealFFT caches them per process).
    for count in try arguments.ints("sizes") {
        results.append(try timeCopyingForward(inputF32, count: count, effort: effort, timing: timing, name: "f32"))
        results.append(try timeCopyingForward(inputF64, count: count, effort: effort, timing: timing, name: "f64"))
    }
    return results
}

private func timeForward<Scalar: FFTScalar>(
    _ input: [Scalar], count: Int, effort: FFTPlanningEffort, timing: TimingOptions, name: String
) throws -> Measurement {
    guard input.count >= count else { throw HarnessError.input("FFT input has \(input.count) samples, need \(count)") }
    let fft = try RealFFT<Scalar>(count: count, effort: effort)
    fft.withBuffers { real, _ in _ = real.update(fromContentsOf: input[0..<count]) }
    var result = measure("fft/\(name)/\(count)", options: timing) { calls in
        for _ in 0..<calls { fft.executeForward() }
    }
    result.check = fft.withBuffers { _, spectrum in
        spectrum.reduce(0.0) { $0 + Double(abs($1.real)) + Double(abs($1.imaginary)) }
    }
    return result
}

private func timeCopyingForward<Scalar: FFTScalar>(
    _ input: [Scalar], count: Int, effort: FFTPlanningEffort, timing: TimingOptions, name: String
) throws -> Measurement {
    let fft = try RealFFT<Scalar>(count: count, effort: effort)
    let frame = Array(input[0..<count])
    var last = fft.forward(frame)
    var result = measure("fft-copy/\(name)/\(count)", options: timing) { calls in
        for _ in 0..<calls { last = fft.forward(frame) }
    }
    result.check = last.reduce(0.0) { $0 + Double(abs($1.real)) + Double(abs($1.imaginary)) }
    return result
}
