extension ResearchKitResult {
    /// Every result in this tree that is not a task or step result, depth first in document order, each with
    /// the identifier of its enclosing step result.
    ///
    /// Unknown classes are included (as ``unknown(className:header:raw:)``); their contents are not searched.
    /// Complexity: O(n) in the number of results; allocates the returned array.
    public var stepItems: [ResearchKit.StepItem<ResearchKitResult>] {
        var items: [ResearchKit.StepItem<ResearchKitResult>] = []
        collect(enclosingStep: nil, previous: false, into: &items)
        return items
    }

    /// A page result (`ORKPageResult`, decoded as a task) passes through: its step results name their items.
    private func collect(
        enclosingStep: String?, previous: Bool, into items: inout [ResearchKit.StepItem<ResearchKitResult>]
    ) {
        switch self {
        case .task(let task):
            for child in task.results { child.collect(enclosingStep: enclosingStep, previous: previous, into: &items) }
        case .step(let step):
            for child in step.results {
                child.collect(
                    enclosingStep: step.identifier, previous: previous || step.isPreviousResult, into: &items)
            }
        default:
            items.append(
                ResearchKit.StepItem(
                    stepIdentifier: enclosingStep ?? identifier, result: self, isPreviousResult: previous))
        }
    }

    /// The results `extract` accepts, with their step identifiers, in document order.
    /// - Parameter extract: returns the payload of the wanted case or nil, such as `\.tappingInterval`.
    /// - Returns: one item per accepted result.
    public func results<T: Sendable & Hashable>(_ extract: (ResearchKitResult) -> T?) -> [ResearchKit.StepItem<T>] {
        stepItems.compactMap { item in
            extract(item.result).map {
                ResearchKit.StepItem(
                    stepIdentifier: item.stepIdentifier, result: $0, isPreviousResult: item.isPreviousResult)
            }
        }
    }

    /// Every tapping result with its step identifier (`tapping.left`, `tapping.right`, …).
    public var tappingResults: [ResearchKit.StepItem<ResearchKit.TappingIntervalResult>] { results(\.tappingInterval) }
    /// Every recorder file with its step identifier; the file's `fileName` and recorder `identifier` are on the result.
    public var fileResults: [ResearchKit.StepItem<ResearchKit.FileResult>] { results(\.file) }
    /// Every dB HL audiometry result with its step identifier.
    public var dBHLToneAudiometryResults: [ResearchKit.StepItem<ResearchKit.DBHLToneAudiometryResult>] {
        results(\.dBHLToneAudiometry)
    }
    /// Every legacy audiometry result with its step identifier.
    public var toneAudiometryResults: [ResearchKit.StepItem<ResearchKit.ToneAudiometryResult>] {
        results(\.toneAudiometry)
    }
    /// Every SPL meter result with its step identifier.
    public var environmentSPLMeterResults: [ResearchKit.StepItem<ResearchKit.EnvironmentSPLMeterResult>] {
        results(\.environmentSPLMeter)
    }
    /// Every timed-walk result with its step identifier.
    public var timedWalkResults: [ResearchKit.StepItem<ResearchKit.TimedWalkResult>] { results(\.timedWalk) }
    /// The file results nested inside results taskproc keeps as raw JSON (`ORKReactionTimeResult.fileResults`: one
    /// device-motion file per attempt), with the enclosing step's identifier, in document order.
    public var nestedFileResults: [ResearchKit.StepItem<ResearchKit.FileResult>] {
        stepItems.flatMap { item -> [ResearchKit.StepItem<ResearchKit.FileResult>] in
            guard case .unknown(_, _, let raw) = item.result, let list = raw["fileResults"]?.arrayValue else { return [] }
            return list.compactMap { value in
                guard let o = value.objectValue, o["_class"]?.stringValue == "ORKFileResult",
                    let name = o["fileName"]?.stringValue, !name.isEmpty
                else { return nil }
                let header = ResearchKit.ResultHeader(
                    className: "ORKFileResult", identifier: o["identifier"]?.stringValue ?? "")
                return ResearchKit.StepItem(
                    stepIdentifier: item.stepIdentifier,
                    result: ResearchKit.FileResult(
                        header: header, contentType: o["contentType"]?.stringValue, fileName: name))
            }
        }
    }
    /// Every range-of-motion result with its step identifier.
    public var rangeOfMotionResults: [ResearchKit.StepItem<ResearchKit.RangeOfMotionResult>] {
        results(\.rangeOfMotion)
    }
}

extension ResearchKit.TaskResult {
    /// Every result of the run that is not a step result, with its step identifier, in document order.
    public var stepItems: [ResearchKit.StepItem<ResearchKitResult>] { ResearchKitResult.task(self).stepItems }

    /// Every tapping result of the run with its step identifier.
    public var tappingResults: [ResearchKit.StepItem<ResearchKit.TappingIntervalResult>] {
        ResearchKitResult.task(self).tappingResults
    }
    /// Every recorder file of the run with its step identifier.
    public var fileResults: [ResearchKit.StepItem<ResearchKit.FileResult>] { ResearchKitResult.task(self).fileResults }
}
