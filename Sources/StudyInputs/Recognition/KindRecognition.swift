import Foundation

/// What the task kinds declare about how they are found in a ResearchKit result: the result classes a kind reads
/// from the raw JSON (`ORKStroopResult` → ``TaskKind/stroop``) and the active-step identifiers of its predefined
/// task (`stroop`).
///
/// The kinds declare it and the analysis registry collects it (`AnalysisRegistry.recognition`); the loader and the
/// ResearchKit decoder only ask it, so this module never names a scored kind. ``InputLoader/load(path:options:recognition:)``
/// makes it ``current`` while it loads.
public struct KindRecognition: Sendable {
    /// Result class → the kind that reads it (the first kind to declare a class keeps it).
    public private(set) var classes: [String: TaskKind] = [:]
    /// Predefined active-step identifier → the kind whose task it is (the first kind to declare it keeps it).
    public private(set) var predefinedSteps: [String: TaskKind] = [:]
    /// The kinds that declared something, in declaration order.
    public private(set) var kinds: [TaskKind] = []

    /// Nothing declared: no class is read from raw JSON, no step is predefined.
    public init() {}

    /// Adds what one analysis declares; earlier declarations win.
    /// - Parameters:
    ///   - kinds: The analysis's task kinds; classes and steps map to the first.
    ///   - classes: The ResearchKit result classes it reads from the raw JSON.
    ///   - steps: The active-step identifiers of its predefined task.
    public mutating func declare(_ kinds: [TaskKind], classes: [String], steps: [String]) {
        guard let kind = kinds.first else { return }
        for name in classes where self.classes[name] == nil { self.classes[name] = kind }
        for step in steps where predefinedSteps[step] == nil { predefinedSteps[step] = kind }
        for k in kinds where !self.kinds.contains(k) { self.kinds.append(k) }
    }

    /// The kind that reads results of `className`, if any.
    public func kind(ofClass className: String) -> TaskKind? { classes[className] }

    /// The kind whose predefined active step is `identifier`, if any.
    public func kind(ofStep identifier: String) -> TaskKind? { predefinedSteps[identifier] }

    /// True when some kind reads `className` (the decoder then does not call the class unmodelled).
    public func reads(_ className: String) -> Bool { classes[className] != nil }

    /// True when `kind` declared classes or steps.
    public func declares(_ kind: TaskKind) -> Bool { kinds.contains(kind) }

    /// The step results of a tree that hold no result of a declared class, depth first in document order: a
    /// predefined active step among them is one a participant skipped or quit.
    ///
    /// A step holding another declared class's results is not empty: ResearchKit's normalized reaction-time task
    /// reuses the reaction-time task's step identifier `reactionTime`, and its step is not an empty reaction-time
    /// step.
    public func emptyPredefinedSteps(_ root: ResearchKitResult) -> [ResearchKit.StepResult] {
        Self.stepResults(root).filter { step in
            !step.results.contains { child in
                if case .unknown(let className, _, _) = child { reads(className) } else { false }
            }
        }
    }

    /// Every step result of a result tree, depth first in document order.
    public static func stepResults(_ root: ResearchKitResult) -> [ResearchKit.StepResult] {
        switch root {
        case .task(let task): task.results.flatMap(stepResults)
        case .step(let step): [step] + step.results.flatMap(stepResults)
        default: []
        }
    }

    /// The recognition in force while an input is loaded (set by ``InputLoader/load(path:options:recognition:)``);
    /// outside a load, nothing is declared.
    @TaskLocal package static var current = KindRecognition()
}
