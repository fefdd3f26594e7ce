// Leave-one-participant-out check of the step detector's parameters that were chosen on the development files
// (docs/walking.md, "The step detector": interval tolerance, edge trim, fewest steps, shortest walking run).
//
//     swift run -c release --package-path Benchmarks WalkingCrossValidation [../shared/data [pooled|groups]]
//
// For every point of the grid the parameters were chosen from, every development recording (the data README's
// lists: WeAllWalk, Mobilise-D lab, Oxford) is analysed exactly as `taskproc analyze` does it. A point is
// admissible when it keeps the negatives, which belong to no participant, clean: at most 1 % of 300 random-motion
// recordings with false steps at each of 100 and 25 Hz, and none in the still phone, the rest-tremor and the balance
// recordings. The training loss is the pooled absolute step error (or, with `groups`, the mean of the groups' MAPE). "Fitted" picks the point on every participant;
// each leave-one-participant-out fold picks it without the participant, then counts that participant's recordings
// with it. Ties keep the shipped defaults. Prints markdown for docs/walking.md.
import ActiveTasks
import Foundation
import SensorSignal
import StudyInputs

/// One development recording: its participant, data-set group and ground-truth step count.
struct Recording {
    var file: String
    var participant: String
    var group: String
    var truth: Int
    var input: LoadedInput
}

/// One point of the grid.
struct Point: Hashable, CustomStringConvertible {
    var tolerance: Double
    var trim: Double
    var fewestSteps: Int
    var shortestRun: Double

    var configuration: StepDetector.Configuration {
        var configuration = StepDetector.Configuration()
        configuration.stepIntervalTolerance = tolerance
        configuration.edgeStepProminenceFraction = trim
        configuration.minimumStepsPerBout = fewestSteps
        configuration.minimumRunDuration = shortestRun
        return configuration
    }

    var description: String {
        let trimText = trim == 0.25 ? "1/4" : "1/3"
        return "tolerance \(tolerance), trim \(trimText), \(fewestSteps) steps, run \(shortestRun) s"
    }
}

enum HarnessError: Error, CustomStringConvertible {
    case input(String)
    var description: String {
        switch self {
        case .input(let message): message
        }
    }
}

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "../shared/data"
/// The training loss: `pooled` (default) is the absolute step error summed over the recordings, % of their summed
/// true steps (every step weighs the same); `groups` is the mean over data-set groups of their MAPE (a 9-step
/// straight walk one step off weighs 11 %).
let pooledLoss = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] != "groups" : true

@MainActor
func rows(_ relative: String) throws -> [[String: String]] {
    let table = try CSVTable.read(path: root + "/" + relative, header: .present)
    let names = (0..<table.columnCount).map { table.columnName($0) }
    return (0..<table.rowCount).map { row in
        Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, table.string(row: row, column: $0)) })
    }
}

@MainActor
func load(_ relative: String, options: InputLoader.Options = InputLoader.Options()) throws -> LoadedInput {
    try AnalysisRegistry.load(path: root + "/" + relative, options: options)
}

// MARK: - Development recordings

var recordings: [Recording] = []
var weAllWalkOptions = InputLoader.Options()
weAllWalkOptions.accelerometerCSV = .weAllWalkIPhone
for row in try rows("weallwalk/truth.csv") {
    guard let file = row["file"], let participant = row["participant"], let group = row["mobility"],
        let truth = row["gt_steps"].flatMap({ Int($0) })
    else { throw HarnessError.input("weallwalk/truth.csv: a row without file, participant, mobility or gt_steps") }
    recordings.append(
        Recording(
            file: file, participant: "WeAllWalk \(participant)", group: "WeAllWalk \(group)", truth: truth,
            input: try load("weallwalk/" + file, options: weAllWalkOptions)))
}
for row in try rows("mobilise-d-lab/truth.csv") {
    guard let file = row["file"], let cohort = row["cohort"], let participant = row["participant"],
        let test = row["test"], let truth = row["ref_steps"].flatMap({ Int($0) })
    else { throw HarnessError.input("mobilise-d-lab/truth.csv: a row without file, cohort, participant or ref_steps") }
    recordings.append(
        Recording(
            file: file, participant: "Mobilise-D \(cohort) \(participant)",
            group: test == "Test5" ? "Mobilise-D straight" : "Mobilise-D daily", truth: truth,
            input: try load("mobilise-d-lab/" + file)))
}
// Oxford's ground truth is each file's own foot-switch count (`steps_ground_truth`, cumulative).
let oxford = root + "/oxford-step-counter"
for file in try FileManager.default.contentsOfDirectory(atPath: oxford).filter({ $0.hasSuffix(".csv.gz") }).sorted() {
    let read = try AccelerometerCSVReader.read(path: oxford + "/" + file, options: .oxfordStepCounter)
    guard let count = read.extraColumn(named: "steps_ground_truth"), let first = count.first, let last = count.last
    else { throw HarnessError.input("\(file): no steps_ground_truth column") }
    recordings.append(
        Recording(
            file: file, participant: "Oxford user1", group: "Oxford",
            truth: Int.clamped(last - first, to: 0...1_000_000),
            input: try load("oxford-step-counter/" + file)))
}

// MARK: - Negatives (no participant)

/// 120 s of white noise per axis at `rate` (100 or 25 Hz), 0.05–0.5 g, the recordings of `RandomMotionSurveyTests`
/// (same seeds and draws: four for the unused rotation, then three normals per sample).
func noise(level: Double, seed: UInt64, rate: Double) -> (times: [Double], values: [Double]) {
    var random = SplitMix64(seed: seed)
    for _ in 0..<4 { _ = random.nextUnit() }
    var times: [Double] = []
    var values: [Double] = []
    for i in 0..<Int(120 * rate) {
        let (x, y, z) = (level * random.nextNormal(), level * random.nextNormal(), 1 + level * random.nextNormal())
        times.append(Double(i) / rate)
        values.append((x * x + y * y + z * z).squareRoot())
    }
    return (times, values)
}
/// The survey at both rates: at 25 Hz white noise holds more of its energy in the gait band than at 100 Hz.
let randomMotionRates = [100.0, 25.0]
let randomMotion = randomMotionRates.map { rate in
    [0.05, 0.1, 0.2, 0.3, 0.5].flatMap { level in (UInt64(100)..<160).map { noise(level: level, seed: $0, rate: rate) } }
}
var stillLogs: [(name: String, input: LoadedInput)] = [
    ("still phone", try load("mpower-samples/pdkit_mpower_gait_stationary.json"))
]
for file in ["rest_tremor_data_deviceMotion.json", "balance_data_deviceMotion.json"] {
    stillLogs.append((file, try load("mhealthtools-motion/" + file)))
}

/// Steps the detector finds in a recording nobody walked in (a tremor or balance step is analysed as walking
/// here, as the detector alone: `analyze` itself never counts steps in one).
func falseSteps(_ input: LoadedInput, detector: StepDetector) -> Int {
    var steps = 0
    for recording in input.recordings {
        switch recording.data {
        case .deviceMotion(let log): steps += WalkingProcessor.analyze(log, detector: detector).stepCount ?? 0
        default: break
        }
    }
    return steps + WalkingProcessor.analyze(input, detector: detector).reduce(0) { $0 + ($1.stepCount ?? 0) }
}

// MARK: - The grid

let shipped = Point(tolerance: 0.3, trim: 0.25, fewestSteps: 4, shortestRun: 1.5)
var grid: [Point] = []
for tolerance in [0.25, 0.3, 0.35] {
    for trim in [0.25, 1.0 / 3] {
        for fewestSteps in [4, 5] {
            for shortestRun in [1.5, 2, 2.5, 3, 4.5] {
                grid.append(Point(tolerance: tolerance, trim: trim, fewestSteps: fewestSteps, shortestRun: shortestRun))
            }
        }
    }
}

var counts: [Point: [Int]] = [:]
var admissible: [Point: Bool] = [:]
var negatives: [Point: String] = [:]
let clock = ContinuousClock()
let started = clock.now
for point in grid {
    let detector = StepDetector(configuration: point.configuration)
    counts[point] = recordings.map { recording in
        WalkingProcessor.analyze(recording.input, detector: detector).reduce(0) { $0 + ($1.stepCount ?? 0) }
    }
    let withSteps = randomMotion.map { recordings in
        recordings.filter { detector.detect(timestamps: $0.times, magnitude: $0.values).stepCount > 0 }.count
    }
    let still = stillLogs.map { falseSteps($0.input, detector: detector) }
    admissible[point] =
        zip(withSteps, randomMotion).allSatisfy { $0 * 100 <= $1.count } && still.allSatisfy { $0 == 0 }
    let survey = zip(randomMotionRates, zip(withSteps, randomMotion)).map {
        "\($0.1.0)/\($0.1.1.count) at \(Int($0.0)) Hz"
    }
    negatives[point] = "random motion \(survey.joined(separator: ", ")), still/rest/balance \(still)"
}
FileHandle.standardError.write(Data("grid of \(grid.count) points in \(clock.now - started)\n".utf8))

// MARK: - Selection

func percentError(_ steps: Int, _ truth: Int) -> Double { 100 * Double(steps - truth) / Double(truth) }

/// The training loss over `indices` of `recordings` (``pooledLoss``).
@MainActor
func loss(_ point: Point, over indices: [Int]) -> Double {
    guard let steps = counts[point] else { return .infinity }
    if pooledLoss {
        let error = indices.reduce(0) { $0 + abs(steps[$1] - recordings[$1].truth) }
        return 100 * Double(error) / Double(max(indices.reduce(0) { $0 + recordings[$1].truth }, 1))
    }
    var byGroup: [String: [Double]] = [:]
    for i in indices {
        byGroup[recordings[i].group, default: []].append(abs(percentError(steps[i], recordings[i].truth)))
    }
    let mapes = byGroup.values.map { $0.reduce(0, +) / Double($0.count) }
    return mapes.reduce(0, +) / Double(max(mapes.count, 1))
}

@MainActor
func select(over indices: [Int]) -> Point {
    var best = shipped
    var bestLoss = admissible[shipped] == true ? loss(shipped, over: indices) : .infinity
    for point in grid where admissible[point] == true {
        let value = loss(point, over: indices)
        if value < bestLoss - 1e-12 {
            best = point
            bestLoss = value
        }
    }
    return best
}

let all = Array(recordings.indices)
let fitted = select(over: all)
let participants = Array(Set(recordings.map(\.participant))).sorted()
var outOfFold = [Int](repeating: 0, count: recordings.count)
var folds: [(participant: String, point: Point)] = []
for participant in participants {
    let training = all.filter { recordings[$0].participant != participant }
    let point = select(over: training)
    folds.append((participant, point))
    for i in all where recordings[i].participant == participant { outOfFold[i] = counts[point]?[i] ?? 0 }
}

// MARK: - Report

@MainActor
func summary(_ steps: [Int]) -> [String: (mape: Double, worst: Double, worstFile: String, n: Int)] {
    var result: [String: (mape: Double, worst: Double, worstFile: String, n: Int)] = [:]
    for group in Set(recordings.map(\.group)) {
        let members = all.filter { recordings[$0].group == group }
        let errors = members.map { abs(percentError(steps[$0], recordings[$0].truth)) }
        let worst = zip(members, errors).max { $0.1 < $1.1 }
        result[group] = (
            errors.reduce(0, +) / Double(errors.count), worst?.1 ?? 0,
            worst.map { "\(recordings[$0.0].file): \(steps[$0.0]) for \(recordings[$0.0].truth)" } ?? "", errors.count
        )
    }
    return result
}

let groups = Array(Set(recordings.map(\.group))).sorted()
let columns: [(name: String, steps: [Int])] = [
    ("shipped (\(shipped))", counts[shipped] ?? []), ("fitted on all", counts[fitted] ?? []),
    ("leave-one-participant-out", outOfFold),
]
let summaries = columns.map { summary($0.steps) }
print("| group (recordings) | " + columns.map(\.name).joined(separator: " | ") + " |")
print("|---|" + columns.map { _ in "---:|" }.joined())
for group in groups {
    let n = summaries[0][group]?.n ?? 0
    let cells = summaries.map { s in
        s[group].map { String(format: "%.2f %% (worst %.1f %%)", $0.mape, $0.worst) } ?? "—"
    }
    print("| \(group) (\(n)) | " + cells.joined(separator: " | ") + " |")
}
print("")
print("Training loss: \(pooledLoss ? "pooled absolute step error, %" : "mean of the groups' MAPE, %").")
print(
    "Fitted on all participants: \(fitted); training loss \(String(format: "%.3f", loss(fitted, over: all))) "
        + "(shipped \(String(format: "%.3f", loss(shipped, over: all)))).")
print("Admissible points: \(grid.filter { admissible[$0] == true }.count) of \(grid.count).")
print("")
print("| left out | chosen without them |")
print("|---|---|")
for fold in folds { print("| \(fold.participant) | \(fold.point) |") }
print("")
print("Worst recording per group, leave-one-participant-out:")
for group in groups { print("- \(group): \(summaries[2][group]?.worstFile ?? "")") }
print("")
print("Negatives per grid point:")
for point in grid {
    print(
        "- \(point): \(negatives[point] ?? "") → \(admissible[point] == true ? "admissible" : "not admissible"), loss \(String(format: "%.3f", loss(point, over: all)))"
    )
}
