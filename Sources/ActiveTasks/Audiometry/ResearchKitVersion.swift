import Foundation
import StudyInputs

/// A ResearchKit release, for choosing the calibration tables and volume handling that produced a dB HL result.
///
/// The result files carry no version (`researchkit-formats.md` §7.5), so the user names it. The versions that
/// matter (§4.6):
/// - 2.0.x–2.1.x: tables named after the upper-cased headphone type, generic RETSPL, volume compensated;
/// - 2.2.x: headphone types mapped to tables (AIRPODSV2 → AIRPODS), generic RETSPL, volume compensated;
/// - 3.0.x: as 2.2 but AIRPODSPROV2 is not supported (the tag lacks that branch);
/// - 3.1.x: as 2.2, but the volume lookup always uses full volume (the volume defect);
/// - ≥ 3.2.0 ("current"): device-specific RETSPL, AIRPODSV2 tables of its own, the volume defect.
public struct ResearchKitVersion: Sendable, Hashable, Comparable, Codable, TextCodable {
    /// Major version.
    public var major: Int
    /// Minor version.
    public var minor: Int
    /// Patch version.
    public var patch: Int

    /// Creates a version.
    public init(_ major: Int, _ minor: Int, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The newest release whose tables taskproc holds (3.2.0, the HEAD tables of the spec).
    public static let current = ResearchKitVersion(3, 2, 0)

    /// The first release with the dB HL task.
    public static let firstDBHL = ResearchKitVersion(2, 0, 0)

    /// The release series with the dB HL task whose calibration tables and volume handling taskproc reproduces,
    /// oldest first (`major.minor`; every patch release of a series behaves alike). ``current`` is the newest.
    public static let knownDBHLSeries: [ResearchKitVersion] = [
        ResearchKitVersion(2, 0), ResearchKitVersion(2, 1), ResearchKitVersion(2, 2), ResearchKitVersion(3, 0),
        ResearchKitVersion(3, 1), ResearchKitVersion(3, 2),
    ]

    /// Whether this is a release of one of the ``knownDBHLSeries`` (so its tables and volume handling are known).
    public var isKnownDBHLRelease: Bool { Self.knownDBHLSeries.contains { $0.major == major && $0.minor == minor } }

    /// Parses `current`, `3`, `3.1`, `3.1.2` (an optional leading `v`); nil for anything else.
    public init?(_ text: String) {
        var t = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        if t == "current" || t == "head" || t == "latest" {
            self = .current
            return
        }
        if t.hasPrefix("v") { t = t.dropFirst() }
        let parts = t.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for p in parts {
            guard !p.isEmpty, p.allSatisfy(\.isASCII), let n = Int(p), n >= 0 else { return nil }
            numbers.append(n)
        }
        while numbers.count < 3 { numbers.append(0) }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    /// `major.minor.patch`.
    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (a: ResearchKitVersion, b: ResearchKitVersion) -> Bool {
        (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
    }

    /// Whether the RETSPL tables are the device-specific ones (≥ 3.2.0) rather than the generic ones.
    public var hasDeviceSpecificRETSPL: Bool { self >= ResearchKitVersion(3, 2, 0) }

    /// Whether the volume-curve lookup always uses full volume (≥ 3.1.0, the `?:` defect, §4.6).
    public var hasVolumeDefect: Bool { self >= ResearchKitVersion(3, 1, 0) }

    /// Whether headphone types are used verbatim as table names (2.0.x–2.1.x).
    public var usesVerbatimTableNames: Bool { self < ResearchKitVersion(2, 2, 0) }

    /// What ``TextCodable``'s decoding error calls a string it cannot read.
    package static let textDescription = "a ResearchKit version"
}
