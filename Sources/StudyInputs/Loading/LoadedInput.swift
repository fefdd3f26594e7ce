import Foundation
import SensorSignal

/// The on-disk dialect an input was recognised as.
public enum InputDialect: String, Sendable, Hashable, Codable, CaseIterable {
    /// A ResearchKit result JSON file (`ORKESerialization`, `_class` tags).
    case researchKitResult
    /// A folder holding a ResearchKit task-result JSON plus the recorder files it names.
    case researchKitTaskFolder
    /// A ResearchKit recorder log `{"items":[…]}`.
    case recorderLog
    /// A Bridge/Synapse (mPower) column file: a bare recorder array or `TappingSamples`.
    case mPower
    /// A MyDataHelps export file (motion JSON under `SurveyData/…`, tapping or tone-audiometry CSV).
    case myDataHelps
    /// An mhealthtools table (`t,x,y,buttonid` taps or a flattened device-motion CSV).
    case mhealthtools
    /// A generic accelerometer CSV.
    case accelerometerCSV
    /// A phyphox export folder or zip (``PhyphoxExport``): its data tables with `meta/time.csv` and `device.csv`.
    case phyphox
    /// An audio recording (WAV, FLAC, …).
    case audio
    /// A folder of independent inputs.
    case folder
    /// A file taskproc does not read (documentation, images, …): listed and skipped.
    case unrecognised
}

/// A problem found while loading: an error that lost part of an input, or a warning about a repair or
/// an oddity. Loading never stops at one bad part.
public struct InputProblem: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Part of the input could not be read and is missing from the result.
        case error
        /// The input was read, but something is odd or was repaired (see the message).
        case warning
    }

    /// How serious it is.
    public var severity: Severity
    /// The file concerned.
    public var file: String
    /// Where in it (JSON path, CSV position, step identifier); nil for the whole file.
    public var location: String?
    /// One line saying what is wrong.
    public var message: String

    /// Creates a problem.
    public init(_ severity: Severity, file: String, location: String? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.location = location
        self.message = message
    }

    /// An error problem from a reader's ``InputError``.
    public init(_ error: InputError) {
        severity = .error
        file = error.file
        location = error.location
        var parts: [String] = []
        if let e = error.expected { parts.append("expected " + e) }
        if let f = error.found { parts.append("found " + f) }
        // A message that already names the file (a wrapped archive or audio error) does not name it twice.
        if let m = error.message {
            parts.append(m.hasPrefix(error.file + ": ") ? String(m.dropFirst(error.file.count + 2)) : m)
        }
        message = parts.isEmpty ? error.kind.rawValue : parts.joined(separator: ": ")
    }

    /// `file: at location: message` (with `warning:` for warnings).
    public var description: String {
        (severity == .warning ? "warning: " : "") + file + (location.map { ": at " + $0 } ?? "") + ": " + message
    }
}

/// Decoded data of one recorder file, cleaned where the kind allows.
public enum RecordingData: Sendable, Hashable {
    /// Accelerometer samples after hygiene (sorted, de-duplicated; every repair in the report).
    case accelerometer(CleanedLog<AccelerometerLog>)
    /// Device-motion samples after hygiene.
    case deviceMotion(CleanedLog<DeviceMotionLog>)
    /// Cumulative pedometer snapshots.
    case pedometer(PedometerLog)
    /// GPS fixes.
    case location(LocationLog)
    /// Raw touches.
    case touch(TouchLog)
    /// HealthKit quantity samples (heart rate, …).
    case healthQuantity(HealthQuantityLog)

    /// The recorder kind.
    public var kind: RecorderKind {
        switch self {
        case .accelerometer: .accelerometer
        case .deviceMotion: .deviceMotion
        case .pedometer: .pedometer
        case .location: .location
        case .touch: .touch
        case .healthQuantity: .healthQuantity
        }
    }
}

/// One recorder file attached to an input (and to a step, when known).
public struct LoadedRecording: Sendable, Hashable {
    /// The recorder file's path.
    public var file: String
    /// Step identifier (`walking.outbound`, `tapping.right`, …) when known.
    public var stepIdentifier: String?
    /// Recorder configuration identifier (`accelerometer`, `deviceMotion`, …) when known.
    public var recorderIdentifier: String?
    /// The decoded samples.
    public var data: RecordingData
    /// Keys in the items that taskproc does not use.
    public var ignoredKeys: [String]
    /// The task the loader assigned when the names say none (``MotionTask/other`` for a custom step of a task
    /// result); nil when the step identifier and file name decide (``motionTask``).
    public var assignedMotionTask: MotionTask? = nil
}

/// What a file's format carries, as its reader saw it: set from the format, whether or not the contents could be read
/// (an unreadable accelerometer CSV still carries motion recordings, and fails as one). The task kinds claim inputs
/// by it (``KindRecognition``); ResearchKit results and task folders are claimed by their result instead.
public struct InputContent: OptionSet, Sendable, Hashable {
    /// The option bits.
    public var rawValue: Int
    /// Content of these bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Recorder data standing alone (a recorder log, an accelerometer or device-motion CSV, a MyDataHelps motion file,
    /// an mPower recorder column file): motion, pedometer or location data of no other task. In a ResearchKit task
    /// folder from which nothing else is analysed, its motion steps with a walking word
    /// (``InputLoader/assignCustomMotionSteps(_:)``).
    public static let recorderData = InputContent(rawValue: 1 << 0)
    /// Tap samples (``LoadedInput/tapping``), or an mPower recorder file of the tapping activity
    /// (`accel_tapping_right.json.items`), which belongs to a tapping record.
    public static let tapSamples = InputContent(rawValue: 1 << 1)
    /// Legacy tone-audiometry rows (``LoadedInput/toneAudiometry``, MyDataHelps).
    public static let toneAudiometryRows = InputContent(rawValue: 1 << 2)
    /// An audio recording standing alone (``LoadedInput/audioFile``).
    public static let audioRecording = InputContent(rawValue: 1 << 3)
    /// Survey answers read as such (``LoadedInput/surveys``: MyDataHelps tables and API answers).
    public static let surveyAnswers = InputContent(rawValue: 1 << 4)
}

/// Everything read from one input path, whatever its dialect: the typed model every processor consumes.
public struct LoadedInput: Sendable {
    /// The path given.
    public var path: String
    /// The dialect recognised.
    public var dialect: InputDialect
    /// What the input records: the first of ``kinds``, or ``TaskKind/unknown``; for a folder of independent
    /// inputs, the one kind all its inputs share.
    public var taskKind: TaskKind
    /// What the file's format carries (``InputContent``), whether or not it could be read.
    public var content: InputContent = []
    /// The ResearchKit result document, for result files and task folders.
    public var researchKit: ResearchKitDocument?
    /// Recorder files, decoded and cleaned.
    public var recordings: [LoadedRecording] = []
    /// Tapping recordings (any dialect), with their step identifiers when known.
    public var tapping: [TappingRecording] = []
    /// Audio file metadata, for recordings (nil when the header was not read: see
    /// ``InputLoader/Options/readsAudioHeaders``, or when it could not be read: see ``problems``).
    public var audio: AudioFileInfo?
    /// The audio recording's path, whether or not its header was read.
    public var audioFile: String?
    /// Legacy tone-audiometry rows (MyDataHelps exports).
    public var toneAudiometry: [MyDataHelpsToneAudiometry] = []
    /// Survey results read as such (MyDataHelps question and consent tables, the MyDataHelps API); ResearchKit
    /// question results stay in ``researchKit``.
    public var surveys: [SurveyResult] = []
    /// How a sensor table (an accelerometer CSV or TSV) was read: its layout, time and units; nil for other inputs.
    public var table: TableReading?
    /// For folders of independent inputs: each input loaded on its own.
    public var children: [LoadedInput] = []
    /// Set on an input loaded from a ZIP archive: the temporary folder it was extracted into, whose paths every
    /// result and problem of the input names (``archiveRenames`` turns them back into `archive.zip!/…`).
    public var extractedInto: String?

    /// The renames from every extraction folder of this input and its children to its archive's path and `!`,
    /// outermost first.
    ///
    /// What a command applies to its output (``PathRename/apply(_:to:json:)``) so that no temporary path is
    /// reported (`/tmp/taskproc-archive-…/a.csv` → `study.zip!/a.csv`).
    public var archiveRenames: [PathRename] {
        var renames: [PathRename] = []
        if let extractedInto { renames.append(PathRename(from: extractedInto, to: path + "!")) }
        for child in children { renames += child.archiveRenames }
        return renames
    }

    /// Every problem found, in the order found; errors mean part of the input is missing.
    public var problems: [InputProblem] = []

    /// Every kind this input holds something to analyse of, in analysis order: ``taskKind`` first, then the
    /// kinds of further steps (the SPL-meter step of a dB HL task). Empty for a folder of independent inputs (its
    /// ``children`` are analysed one by one) and for an unrecognised input.
    public var kinds: [TaskKind]

    /// Creates an input with no content yet, of a kind already known.
    public init(path: String, dialect: InputDialect, taskKind: TaskKind) {
        self.path = path
        self.dialect = dialect
        self.taskKind = taskKind
        kinds = taskKind == .unknown ? [] : [taskKind]
    }

    /// Creates an input of a format carrying `content`, with nothing read yet and no kind until
    /// ``KindRecognition/classify(_:)``.
    public init(path: String, dialect: InputDialect, content: InputContent = []) {
        self.init(path: path, dialect: dialect, taskKind: .unknown)
        self.content = content
    }

    /// True when nothing at all could be read.
    public var isEmpty: Bool {
        researchKit == nil && recordings.isEmpty && tapping.isEmpty && audio == nil && audioFile == nil
            && toneAudiometry.isEmpty && surveys.isEmpty
            && children.allSatisfy(\.isEmpty)
    }

    /// Errors in this input and its children.
    public var errors: [InputProblem] {
        problems.filter { $0.severity == .error } + children.flatMap(\.errors)
    }
}
