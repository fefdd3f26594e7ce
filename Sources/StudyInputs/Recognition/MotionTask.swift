import Foundation

/// A motion-recording task in which nobody is asked to walk: its recordings are never analysed for steps.
///
/// Recognised from the step identifier, else (no step identifier, or one that names no walking) from the recorder
/// file's name. Both are split into lower-case words at every character that is not a letter or digit and at each
/// lower-to-upper case change (`restTremor` → `rest`, `tremor`; `hand_in_lap` → `hand`, `in`, `lap`):
/// - ``tremor``: a word `tremor` (ResearchKit's `tremor.handInLap…`, `tremor.handAtShoulderLength…`,
///   `tremor.handToNose…`, `tremor.handQueenWave…`; mPower-2 `kineticTremor`, `restTremor`; file names such as
///   `kinetic_tremor_…`, `rest_tremor_…`), or a tremor posture without it (`handInLap`, `hand_in_lap`,
///   `handAtShoulder…`, `handToNose`, `queenWave`);
/// - ``balance``: a word `balance` (mPower-2's balance step, `balance_motion.json`, `balance_data…`);
/// - ``rest``: a word `rest` (ResearchKit's `walking.rest` and `fitness.rest`, mPower's `…_walking_rest.json.items`).
///
/// Tremor wins over rest (`rest_tremor` is a tremor recording). A step identifier with a word `walk`, `walking`,
/// `timed` or `6mwt` and none of the above is a walking step whatever its file is called. Words are whole: `forest`
/// is not `rest`.
///
/// - ``other``: never spelled by a name. In a ResearchKit task folder from which nothing else is analysed, a motion
///   recording whose step identifier names no task (a custom step such as `tecumseh` or `myCustomStep`) is
///   summarised as ``other`` with a warning, rather than giving nothing; a custom step with a walking word
///   (`walk.custom`) is a walking step (``InputLoader``).
public enum MotionTask: String, Sendable, Hashable, Codable, CaseIterable {
    /// A tremor step: the hand held in the lap, at shoulder height, brought to the nose, turned.
    case tremor
    /// A balance step: standing still.
    case balance
    /// A rest step: standing or sitting still between or after walks.
    case rest
    /// A motion step of a task result whose name says neither walking nor any of the above (a custom step).
    case other

    /// The task of a recording from its step identifier and file (see the type's documentation); nil for walking
    /// or when neither says.
    public init?(stepIdentifier: String?, file: String?) {
        if let stepIdentifier {
            if let task = Self(name: stepIdentifier) {
                self = task
                return
            }
            let words = Set(Self.words(stepIdentifier))
            if !words.isDisjoint(with: Self.walkingWords) { return nil }
        }
        guard let file, let task = Self(name: (file as NSString).lastPathComponent) else { return nil }
        self = task
    }

    /// The task a single name (step identifier or file name) spells, if any.
    init?(name: String) {
        let words = Self.words(name)
        let joined = words.joined()
        if words.contains("tremor")
            || ["handinlap", "handatshoulder", "handtonose", "handqueenwave", "queenwave"].contains(
                where: joined.contains)
        {
            self = .tremor
        } else if words.contains("balance") {
            self = .balance
        } else if words.contains("rest") {
            self = .rest
        } else {
            return nil
        }
    }

    /// True when `stepIdentifier` has a walking word (`walk`, `walking`, `timed`, `6mwt`) and names no other task.
    public static func isWalkingStep(_ stepIdentifier: String) -> Bool {
        Self(name: stepIdentifier) == nil && !Set(words(stepIdentifier)).isDisjoint(with: walkingWords)
    }

    /// The words that make a step identifier a walking step.
    static let walkingWords: Set<String> = ["walk", "walking", "timed", "6mwt"]

    /// Lower-case words of `name`: split at every character that is not an ASCII letter or digit and at each
    /// lower-to-upper case change.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        var previousWasLower = false
        for character in name {
            guard character.isASCII, character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current) }
                current = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase, previousWasLower, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(Character(character.lowercased()))
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

extension LoadedRecording {
    /// The non-walking task this recording belongs to (``MotionTask``): the one the loader assigned
    /// (``assignedMotionTask``), else the one its step identifier and file name spell; nil for walking or an unknown
    /// task.
    public var motionTask: MotionTask? { assignedMotionTask ?? MotionTask(stepIdentifier: stepIdentifier, file: file) }

    /// True for accelerometer and device-motion recordings (the recordings a ``MotionTask`` applies to).
    public var isMotion: Bool {
        switch data {
        case .accelerometer, .deviceMotion: true
        default: false
        }
    }
}
