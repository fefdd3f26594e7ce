import Foundation

/// What the task kinds declare about how they are found in an input, and the one place that decides an input's
/// kinds from it.
///
/// Every kind declares a claim: which of its kinds an input holds something of, from what the loader read (the
/// ResearchKit result, ``LoadedInput/content``, the recordings); where it stands among several kinds in one input
/// (``Position``); and whether its predefined task holds other kinds' steps by design. The scored kinds also
/// declare the result classes they read from the raw JSON (`ORKStroopResult`) and the active-step identifiers of
/// their predefined tasks (`stroop`), which decide their claims here.
///
/// The kinds declare it and the analysis registry collects it (`AnalysisRegistry.recognition`); the loader and the
/// ResearchKit decoder only ask it, so this module never names a kind. ``InputLoader/load(path:options:recognition:)``
/// makes it ``current`` while it loads.
public struct KindRecognition: Sendable {
    /// Where a kind stands in the analysis order of an input holding several kinds (primary kind first).
    public enum Position: Sendable, Hashable {
        /// Before every other kind: a task that also holds other kinds' steps (the dB HL task's SPL-meter step).
        case first
        /// In the order the kinds are declared (the registry's order).
        case inOrder
        /// After every other kind: results that accompany the task they are part of (survey answers, consent).
        case last
    }

    /// Which of a declaring analysis's kinds an input holds something to analyse of.
    public typealias Claim = @Sendable (LoadedInput) -> [TaskKind]

    /// One declaration of ``declare(_:position:holdsOtherSteps:claim:)``.
    struct Claimant: Sendable {
        var kinds: [TaskKind]
        var position: Position
        var claim: Claim
    }

    /// The claims, in declaration order.
    var claimants: [Claimant] = []
    /// Kinds whose predefined task holds other kinds' steps: an input holding one of them is not reported as mixed.
    var holdingOtherSteps: Set<TaskKind> = []

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
        reorder()
    }

    /// Adds one analysis's claim; declarations are made in the registry's order, which is the analysis order of
    /// kinds of the same ``Position``.
    /// - Parameters:
    ///   - kinds: The analysis's task kinds, in its order.
    ///   - position: Where they stand among an input's kinds.
    ///   - holdsOtherSteps: Its kinds whose predefined task holds steps of other kinds by design.
    ///   - claim: Which of `kinds` an input holds something of.
    public mutating func declare(
        _ kinds: [TaskKind], position: Position = .inOrder, holdsOtherSteps: [TaskKind] = [],
        claim: @escaping Claim
    ) {
        claimants.append(Claimant(kinds: kinds, position: position, claim: claim))
        holdingOtherSteps.formUnion(holdsOtherSteps)
        reorder()
    }

    /// Every kind an input holds something to analyse of, in analysis order: the kinds of ``Position/first``
    /// claims, then ``Position/inOrder``, then ``Position/last``, each group in declaration order. The scored kinds
    /// are claimed by their classes (a step result of a class the kind reads) and by their predefined steps left
    /// empty (a participant skipped or quit).
    public func kinds(of input: LoadedInput) -> [TaskKind] {
        var claimed: Set<TaskKind> = []
        for claimant in claimants { claimed.formUnion(claimant.claim(input)) }
        if let root = input.researchKit?.result {
            for item in root.stepItems {
                if case .unknown(let className, _, _) = item.result, let kind = kind(ofClass: className) {
                    claimed.insert(kind)
                }
            }
            for step in emptyPredefinedSteps(root) {
                if let kind = kind(ofStep: step.identifier) { claimed.insert(kind) }
            }
        }
        return order.filter(claimed.contains)
    }

    /// Every declared kind in analysis order (see ``kinds(of:)``); kept by ``reorder()``.
    public private(set) var order: [TaskKind] = []

    /// Recomputes ``order`` after a declaration.
    mutating func reorder() {
        var order: [TaskKind] = []
        for position in [Position.first, .inOrder, .last] {
            for claimant in claimants where claimant.position == position {
                for kind in claimant.kinds where !order.contains(kind) { order.append(kind) }
            }
            if position == .inOrder {
                // A scored kind that declared classes or steps but no claim stands with the claims in order.
                for kind in kinds where !order.contains(kind) && !claimants.contains(where: { $0.kinds.contains(kind) })
                {
                    order.append(kind)
                }
            }
        }
        self.order = order
    }

    /// Sets an input's ``LoadedInput/kinds`` (``kinds(of:)``) and its primary ``LoadedInput/taskKind`` (the first,
    /// or ``TaskKind/unknown``).
    public func classify(_ input: inout LoadedInput) {
        input.kinds = kinds(of: input)
        input.taskKind = input.kinds.first ?? .unknown
    }

    /// True when an input of these kinds (``kinds(of:)``) mixes tasks: several kinds, none of whose predefined task
    /// holds the others' steps.
    public func isMixed(_ kinds: [TaskKind]) -> Bool {
        kinds.count > 1 && !kinds.contains(where: holdingOtherSteps.contains)
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
