import Foundation

/// What a Bridge/Synapse (mPower) file holds, read from its name.
///
/// Bridge names a table column *file name + "." + top-level JSON key*, so
/// `accel_walking_outbound.json.items` is the `items` array of `accel_walking_outbound.json`. Accepted forms,
/// for any directory prefix:
/// - the column name: `accel_walking_outbound.json.items`, `tapping_left.json.TappingSamples`;
/// - the Synapse download cache name: the column name followed by `-` and anything (a UUID, a file-handle id),
///   optionally ending in `.tmp`: `accel_walking_outbound.json.items-6f1c…-1234.tmp`;
/// - escaped dots: `deviceMotion_walking_outboundu002ejsonu002eitems`;
/// - the file inside the upload zip: `accel_walking_outbound.json`;
/// - a trailing `.gz`.
///
/// The file stem is `<prefix>_<token>_…`: prefix `accel` or `accelerometer` (accelerometer), `deviceMotion`,
/// `pedometer`, `location`, `touch`, or `tapping` (tap samples); further tokens `walking`/`tapping`
/// (activity), `outbound`/`return`/`rest` (walking phase), `left`/`right` (hand) and `results` (ignored).
/// Matching ignores case. Any other token, prefix or field makes the name unrecognised (nil): a name is
/// never half-classified.
public struct MPowerFileName: Sendable, Hashable {
    /// What the file contains.
    public enum Content: Sendable, Hashable {
        /// A recorder log (`*.json.items`): decode with ``RecorderLogDecoder``.
        case recorder(RecorderKind)
        /// Tap samples (`tapping_*.json.TappingSamples`): decode with ``MPowerTappingReader``.
        case tappingSamples
    }

    /// The part of the walking task a file was recorded in.
    public enum Phase: String, Sendable, Hashable, Codable, CaseIterable {
        /// Walking away (`walking.outbound`).
        case outbound
        /// Walking back (`walking.return`).
        case `return`
        /// Standing still (`walking.rest`).
        case rest
    }

    /// The hand a two-hand tapping file was recorded with.
    public enum Hand: String, Sendable, Hashable, Codable, CaseIterable {
        /// Left hand (`tapping_left`).
        case left
        /// Right hand (`tapping_right`).
        case right
    }

    /// What the file contains.
    public var content: Content
    /// The activity: `walking` or `tapping`, when the name says.
    public var activity: String?
    /// True when the name says the tapping activity (`tapping_left.json.TappingSamples`, `accel_tapping_right.json.items`).
    public var isTappingActivity: Bool { activity == "tapping" }
    /// The walking phase, when the name says.
    public var phase: Phase?
    /// The hand, for two-hand tapping files.
    public var hand: Hand?
    /// The file inside the upload zip, such as `accel_walking_outbound.json`.
    public var uploadFileName: String
    /// The top-level JSON key the column holds (`items`, `TappingSamples`); nil for the zip's file itself.
    public var field: String?

    /// Classifies a file name or path; nil when it is not an mPower file name of a known kind.
    public init?(path: String) {
        var name = (path as NSString).lastPathComponent
        name = name.replacingOccurrences(of: "u002e", with: ".", options: .caseInsensitive)
        if name.lowercased().hasSuffix(".gz") { name.removeLast(3) }
        guard let jsonRange = name.range(of: ".json", options: .caseInsensitive) else { return nil }
        let stem = String(name[..<jsonRange.lowerBound])
        let rest = name[jsonRange.upperBound...]
        var field: String?
        if !rest.isEmpty {
            // ".items", ".items-<cache suffix>", ".items-<uuid>.tmp"
            guard rest.hasPrefix(".") else { return nil }
            let afterDot = rest.dropFirst()
            let key = afterDot.prefix { $0 != "-" && $0 != "." }
            guard !key.isEmpty else { return nil }
            let suffix = afterDot.dropFirst(key.count)
            guard suffix.isEmpty || suffix.hasPrefix("-") || suffix.lowercased() == ".tmp" else { return nil }
            field = String(key)
        }
        let tokens = stem.split(separator: "_", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard let prefix = tokens.first else { return nil }
        let content: Content
        switch prefix {
        case "accel", "accelerometer": content = .recorder(.accelerometer)
        case "devicemotion": content = .recorder(.deviceMotion)
        case "pedometer": content = .recorder(.pedometer)
        case "location": content = .recorder(.location)
        case "touch": content = .recorder(.touch)
        case "tapping": content = .tappingSamples
        default: return nil
        }
        switch (content, field?.lowercased()) {
        case (.tappingSamples, nil), (.tappingSamples, "tappingsamples"), (.recorder, nil), (.recorder, "items"): break
        default: return nil
        }
        var activity: String? = content == .tappingSamples ? "tapping" : nil
        var phase: Phase?
        var hand: Hand?
        for token in tokens.dropFirst() {
            switch token {
            case "walking", "tapping": activity = token
            case "outbound", "return", "rest": phase = Phase(rawValue: token)
            case "left", "right": hand = Hand(rawValue: token)
            case "results": break
            default: return nil
            }
        }
        self.content = content
        self.activity = activity
        self.phase = phase
        self.hand = hand
        self.uploadFileName = stem + ".json"
        self.field = field
    }
}
