/// Something in a ResearchKit result file that did not stop decoding but that a reader of the results
/// should know about: a class taskproc does not model, a key it ignored, a sentinel it turned into nil.
public struct ResearchKitWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of irregularity this is, for programs that sort warnings.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An object whose `_class` taskproc does not model; it is kept as ``ResearchKitResult/unknown(className:header:raw:)``.
        case unknownClass
        /// A key that is not part of the documented key set of a result, sample or unit class; ignored. Reported
        /// once per class and key, at its first occurrence, with the number of occurrences.
        case unknownKey
        /// A ResearchKit sentinel (`DBL_MAX` = no dB HL threshold, `CGFLOAT_MAX` = no time limit) that was
        /// mapped to nil.
        case sentinel
        /// An empty date string (placeholder output), mapped to nil.
        case emptyDate
        /// A value outside its documented range in a field that ResearchKit declares optional (the legacy
        /// `outputVolume`, the accelerometer `frequency` in `userInfo`), mapped to nil instead of failing.
        case implausibleValue
        /// A JSON array of results at the top level (what taskproc's `researchkit` export writes), read as the
        /// results of one task.
        case arrayRoot
    }

    /// The category.
    public var kind: Kind
    /// JSON path of the value concerned, such as `$.results[1].results[2].samples[7].calculatedThreshold`.
    public var path: String
    /// A one-line human explanation.
    public var message: String

    /// Creates a warning.
    public init(_ kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
