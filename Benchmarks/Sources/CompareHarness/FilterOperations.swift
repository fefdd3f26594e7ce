// IIR filtering with the exact second-order sections scipy designed (read from the script's files):
// `SecondOrderSections.filter` (scipy `sosfilt`) and `filterZeroPhase` (scipy `sosfiltfilt`) on the
// shared 2^20-sample Double signal. Each call returns a new array, as scipy's do.
import SensorSignal

func filterOperations(_ arguments: Arguments) throws -> [Measurement] {
    let timing = try arguments.timing
    let signal = try readRaw(try arguments.string("input"), as: Double.self)
    var results: [Measurement] = []
    for path in try arguments.string("sos").split(separator: ",").map(String.init) {
        let coefficients = try readRaw(path, as: Double.self)
        guard !coefficients.isEmpty, coefficients.count % 6 == 0 else {
            throw HarnessError.input("\(path): expected rows of 6 coefficients (b0 b1 b2 a0 a1 a2)")
        }
        let rows = stride(from: 0, to: coefficients.count, by: 6).map { Array(coefficients[$0..<($0 + 6)]) }
        let sections = try SecondOrderSections(rows: rows)

        var forward = sections.filter(signal)
        var measurement = measure("sosfilt/f64/\(sections.count)", options: timing) { calls in
            for _ in 0..<calls { forward = sections.filter(signal) }
        }
        measurement.check = forward.reduce(0.0) { $0 + abs($1) }
        results.append(measurement)

        var zeroPhase = try sections.filterZeroPhase(signal)
        var failure: (any Error)?
        measurement = measure("sosfiltfilt/f64/\(sections.count)", options: timing) { calls in
            for _ in 0..<calls {
                do { zeroPhase = try sections.filterZeroPhase(signal) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        measurement.check = zeroPhase.reduce(0.0) { $0 + abs($1) }
        results.append(measurement)
    }
    return results
}
