// Welch PSD with scipy.signal.welch's defaults (periodic Hann, nperseg/2 overlap, constant detrend,
// density scaling, mean averaging) on the shared 2^20-sample Double signal: the plain call, as a
// user writes it (the FFTW plan is cached process-wide after the first call).
import SensorSignal

func welchOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    let signal = try readRaw(try arguments.string("input"), as: Double.self)
    let sampleRate = try arguments.double("sample-rate", default: 48_000)
    var results: [Measurement] = []
    for segmentLength in try arguments.ints("segments") {
        let welch = Welch(segmentLength: segmentLength)
        var psd = try welch.psd(signal, sampleRate: sampleRate)
        var failure: (any Error)?
        var measurement = measure("welch/f64/\(segmentLength)", options: timing) { calls in
            for _ in 0..<calls {
                do { psd = try welch.psd(signal, sampleRate: sampleRate) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        measurement.check = psd.values.reduce(0.0) { $0 + abs($1) }
        results.append(measurement)
    }
    return results
}
