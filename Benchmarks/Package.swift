// swift-tools-version: 6.1
//
// Performance suites for taskproc, kept in a nested package so the benchmark dependency (and its
// release build) never touches the main package's build or tests. Run from this directory:
//
//     swift package --allow-writing-to-package-directory benchmark
//
// and the side-by-side comparison with FFTW, libsndfile, numpy and scipy from the repository root:
//
//     python3 Tools/peers/compare.py
//
// See README.md beside this file, and Tools/peers/README.md for the comparison.
import PackageDescription

let package = Package(
    name: "taskproc-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` pins the identity: otherwise it is the checkout's directory name, which varies.
        .package(name: "taskproc", path: "../"),
        // The trait list replaces the default set on purpose: the default also enables
        // `RuntimeInterposer`, whose package cannot be resolved on our machines.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Metric/threshold policy, deterministic inputs and setup fixtures shared by the suites.
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Sources/BenchmarkSupport"),
        // Deterministic ResearchKit recorder logs (the Swift twin of Tools/peers/make_recorder_logs.py).
        .target(name: "RecorderLogFixtures", path: "Sources/RecorderLogFixtures"),
        // The release-mode timing side of Tools/peers/compare.py (not a benchmark suite: no plugin).
        .executableTarget(
            name: "CompareHarness",
            dependencies: [
                "RecorderLogFixtures",
                .product(name: "SensorSignal", package: "taskproc"),
                .product(name: "StudyInputs", package: "taskproc"), .product(name: "ActiveTasks", package: "taskproc"),
                .product(name: "StudyOutputs", package: "taskproc"), .product(name: "StudyBatch", package: "taskproc"),
            ],
            path: "Sources/CompareHarness"),
        // Leave-one-participant-out check of the step detector's data-chosen parameters (docs/walking.md).
        .executableTarget(
            name: "WalkingCrossValidation",
            dependencies: [
                .product(name: "SensorSignal", package: "taskproc"),
                .product(name: "StudyInputs", package: "taskproc"), .product(name: "ActiveTasks", package: "taskproc"),
            ],
            path: "Sources/WalkingCrossValidation"),
    ],
    swiftLanguageModes: [.v6]
)

/// The root package's pipeline-stage libraries (inputs → analyses → outputs → batch).
let stages: [Target.Dependency] = ["StudyInputs", "ActiveTasks", "StudyOutputs", "StudyBatch"].map {
    .product(name: $0, package: "taskproc")
}

/// One executable target per suite, at `Benchmarks/<Target>/<Target>.swift` (package-benchmark layout),
/// with the dependencies it needs beyond BenchmarkSupport, Benchmark and SensorSignal.
let suites: [(name: String, extra: [Target.Dependency])] = [
    ("FFTBenchmarks", []),
    ("FilterBenchmarks", []),
    ("SpectralBenchmarks", []),
    ("StatisticsBenchmarks", []),
    ("AudioIOBenchmarks", []),
    ("RecorderLogBenchmarks", ["RecorderLogFixtures"] + stages),
    ("WalkingBenchmarks", stages),
    ("TappingBenchmarks", stages),
    ("SoundLevelBenchmarks", stages),
    ("ExportBenchmarks", stages),
]

for (suite, extra) in suites {
    package.targets.append(
        .executableTarget(
            name: suite,
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SensorSignal", package: "taskproc"),
            ] + extra,
            path: "Benchmarks/\(suite)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
}
