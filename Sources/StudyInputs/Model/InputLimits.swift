/// Bounds on the values taskproc accepts from an input, so that a finite but absurd number (a tap at 1e308 s, an
/// SPL sample of 1e308 dB, a threshold of 1e300 dB HL) cannot overflow a sum or a difference into ±∞ or NaN.
///
/// A value outside a bound is treated like a non-finite one: counted, excluded and named in the result's
/// `warnings`, never silently used and never a failure of the whole record.
public enum InputLimits {
    /// Largest magnitude of a time (s or ms), coordinate (points) or sensor value accepted: 10¹⁵.
    ///
    /// Squares and differences of such values stay far inside `Double`'s range; a millisecond Unix time reaches
    /// 10¹⁵ in the year 33 658.
    public static let maximumMagnitude = 1e15
    /// Sound and hearing levels accepted, dB (SPL samples, dB HL values and thresholds): −200 … 300.
    public static let levelRange = -200.0...300.0

    /// Most bytes of one JSON or CSV input (after gunzip) read into memory and parsed: 24 MiB.
    ///
    /// About 8 times the largest real recording in the shared data. Parsing costs up to ≈ 9 bytes of memory per
    /// input byte (a dense CSV), so this bounds one record's memory near 250 MB whatever the input; audio is
    /// streamed and not limited here. A larger file is an error naming it: `size: … out of range (max 24 MiB …)`.
    public static let maximumParsedBytes: Int64 = 24 << 20

    /// Most samples (rows) of one motion log: 1 000 000, 2.8 h at 100 Hz (50 times the longest real log).
    ///
    /// Every analysis keeps a few arrays of this length; a longer log is an error naming the file:
    /// `samples: 1258287 out of range (max 1000000, InputLimits.maximumSamplesPerLog)`.
    public static let maximumSamplesPerLog = 1_000_000

    /// The sample limit of the load in progress (``InputLoader/Options/maxSamplesPerLog``, `--max-samples`).
    @TaskLocal static var samplesPerLog = maximumSamplesPerLog

    /// `samples: 1258287 out of range (max 1000000; --max-samples raises it)`.
    static func samplesMessage(_ count: Int) -> String {
        "samples: \(count) out of range (max \(samplesPerLog); --max-samples raises it)"
    }

    /// `size: 30000000 bytes out of range (max 25165824 bytes = 24 MiB; --max-input-bytes raises it)`.
    static func parsedBytesMessage(size: Int?) -> String {
        let limit = DialectFiles.parsedLimit
        let value = size.map { "\($0) bytes" } ?? "more than \(limit) bytes after decompression"
        let mib = Double(limit) / Double(1 << 20)
        return "size: \(value) out of range (max \(limit) bytes = \(ResultEncoding.number(mib, digits: 4)) MiB; "
            + "--max-input-bytes raises it)"
    }

    /// True for a finite value within ±``maximumMagnitude``.
    public static func isUsable(_ value: Double) -> Bool { value.isFinite && abs(value) <= maximumMagnitude }

    /// True for a finite level within ``levelRange``.
    public static func isUsableLevel(_ value: Double) -> Bool { levelRange.contains(value) }
}
