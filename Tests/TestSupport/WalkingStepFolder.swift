import Foundation

@testable import StudyInputs

/// A MyDataHelps-like folder of one participant's walking step: one child input per recording, each in the step's
/// directory, as the loader gives `…/<step>/Accelerometer.json` and its siblings.
public enum WalkingStepFolder {
    /// A child input holding one recording of `step`.
    ///
    /// - Parameters:
    ///   - file: The recording's path.
    ///   - data: Its data.
    ///   - kind: The task kind (`.walking`, declared by ActiveTasks).
    ///   - step: The step identifier.
    /// - Returns: The child.
    public static func child(
        _ file: String, _ data: RecordingData, kind: TaskKind, step: String = "walking.outbound"
    ) -> LoadedInput {
        var input = LoadedInput(path: file, dialect: .myDataHelps, taskKind: kind)
        input.recordings = [
            LoadedRecording(file: file, stepIdentifier: step, recorderIdentifier: nil, data: data, ignoredKeys: [])
        ]
        return input
    }

    /// A folder input whose children are `children`.
    ///
    /// - Parameters:
    ///   - children: The recordings' inputs (``child(_:_:kind:step:)``).
    ///   - kind: The task kind.
    ///   - path: The folder's path.
    /// - Returns: The folder.
    public static func folder(_ children: [LoadedInput], kind: TaskKind, path: String = "/data") -> LoadedInput {
        var folder = LoadedInput(path: path, dialect: .folder, taskKind: kind)
        folder.children = children
        return folder
    }
}
