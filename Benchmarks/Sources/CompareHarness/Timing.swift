// The timing discipline shared (by design, line for line) with Tools/peers/fftw_bench.c,
// Tools/peers/sndfile_bench.c and Tools/peers/compare.py, so every side is measured the same way:
//
//  1. warm-up: run batches of doubling size until at least `warmupMilliseconds` have passed;
//  2. pick `inner`, the calls per sample, so one sample lasts at least `sampleMilliseconds`;
//  3. take `samples` samples of `inner` back-to-back calls each; report the median (and the minimum)
//     of the per-call times.
//
// The measured closure receives the number of calls to make and loops itself, so no per-call
// closure overhead is added to the operation (C and Python loop the same way).
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct TimingOptions {
    var samples = 31
    var sampleMilliseconds = 2.0
    var warmupMilliseconds = 100.0
    /// `CLOCK_THREAD_CPUTIME_ID` ("thread": excludes time descheduled by other processes) or
    /// `CLOCK_MONOTONIC` ("wall").
    var clock = CLOCK_THREAD_CPUTIME_ID
}

struct Measurement: Codable {
    var op: String
    /// Median per-call time, nanoseconds.
    var ns: Double
    /// Fastest sample's per-call time, nanoseconds.
    var minNs: Double
    var samples: Int
    var inner: Int
    /// A value derived from the operation's output, so the caller can check all sides computed the same thing.
    var check: Double?

    enum CodingKeys: String, CodingKey {
        case op, ns, samples, inner, check
        case minNs = "min_ns"
    }
}

@inline(__always)
func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Times `body(n)` (which must perform the operation `n` times) per the discipline above.
func measure(
    _ op: String, options: TimingOptions, check: Double? = nil, _ body: (_ calls: Int) -> Void
) -> Measurement {
    func timed(_ calls: Int) -> Double {
        let start = nanoseconds(options.clock)
        body(calls)
        return Double(nanoseconds(options.clock) - start)
    }
    let warmupNs = options.warmupMilliseconds * 1e6
    var batch = 1
    var total = 0.0
    var calls = 0
    var perCall = 0.0
    while true {
        let t = timed(batch)
        total += t
        calls += batch
        perCall = t / Double(batch)
        if total >= warmupNs && calls >= 2 { break }
        if t < warmupNs / 4 { batch *= 2 }
    }
    let inner = max(1, Int((options.sampleMilliseconds * 1e6 / max(perCall, 1)).rounded(.up)))
    var perCallSamples: [Double] = []
    perCallSamples.reserveCapacity(options.samples)
    for _ in 0..<options.samples {
        perCallSamples.append(timed(inner) / Double(inner))
    }
    perCallSamples.sort()
    let count = perCallSamples.count
    let median =
        count % 2 == 1
        ? perCallSamples[count / 2] : (perCallSamples[count / 2 - 1] + perCallSamples[count / 2]) / 2
    return Measurement(op: op, ns: median, minNs: perCallSamples[0], samples: count, inner: inner, check: check)
}
