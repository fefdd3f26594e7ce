import Foundation

/// A MyDataHelps motion-capture file, identified from its export path
/// `SurveyData/{ParticipantIdentifier}/{SurveyResultKey}/{StepIdentifier}/{Accelerometer|Pedometer|DeviceMotion}.json`.
///
/// The `SurveyData` component may sit anywhere in the path (the export root is the caller's); exactly four
/// components must follow it. Separators `/` and `\` are both accepted, the file name is matched ignoring
/// case, and a trailing `.gz` is allowed. Each file is ResearchKit's `{"items":[…]}` log with the Bridge item
/// shapes, so ``decode()`` hands it to ``RecorderLogDecoder``.
public struct MyDataHelpsMotionFile: Sendable, Hashable {
    /// The participant (`ParticipantIdentifier`), joins to `AllParticipants` and the result tables.
    public var participantIdentifier: String
    /// The survey result (`SurveyResultKey`), joins to `SurveyResults`.
    public var surveyResultKey: String
    /// The ResearchKit step identifier, such as `walking.outbound`; joins to `SurveyStepResults`.
    public var stepIdentifier: String
    /// The recorder: `.accelerometer`, `.pedometer` or `.deviceMotion`.
    public var kind: RecorderKind
    /// The path as given.
    public var path: String

    /// Classifies `path`; nil when it is not a MyDataHelps motion file path.
    public init?(path: String) {
        let components = path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).map(String.init)
        guard components.count >= 5,
            let root = components.lastIndex(where: { $0.lowercased() == "surveydata" }),
            root == components.count - 5
        else { return nil }
        var fileName = components[root + 4].lowercased()
        if fileName.hasSuffix(".gz") { fileName.removeLast(3) }
        switch fileName {
        case "accelerometer.json": kind = .accelerometer
        case "pedometer.json": kind = .pedometer
        case "devicemotion.json": kind = .deviceMotion
        default: return nil
        }
        participantIdentifier = components[root + 1]
        surveyResultKey = components[root + 2]
        stepIdentifier = components[root + 3]
        self.path = path
    }

    /// Decodes the file (gzip allowed) with the kind its name gives.
    /// - Throws: ``InputError`` from reading or from ``RecorderLogDecoder``.
    public func decode() throws(InputError) -> RecorderLogDecoder.Decoded {
        try RecorderLogDecoder.decode(try DialectFiles.read(path: path), file: path, kind: kind)
    }
}
