// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "taskproc",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex; irrelevant on Linux
    products: [
        .library(name: "SensorSignal", targets: ["SensorSignal"]),
        .library(name: "Archives", targets: ["Archives"]),
        .library(name: "StudyInputs", targets: ["StudyInputs"]),
        .library(name: "ActiveTasks", targets: ["ActiveTasks"]),
        .library(name: "StudyOutputs", targets: ["StudyOutputs"]),
        .library(name: "StudyBatch", targets: ["StudyBatch"]),
        .executable(name: "taskproc", targets: ["taskproc"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),  // batch SQLite output
    ],
    targets: [
        // MARK: - C libraries (thin shims only; CFFTW and CSndfile imported by SensorSignal/Interop alone, CZlib by
        // Archives/Zlib alone: .ci/run checks it)
        .systemLibrary(
            name: "CFFTW", pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        .systemLibrary(
            name: "CSndfile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // MARK: - Libraries
        .target(
            name: "SensorSignal",
            dependencies: [
                "CFFTW", "CSndfile",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ComplexModule", package: "swift-numerics"),
            ]),
        // ZIP and gzip behind our own limits (zip slip, links, sizes, CRC); no DSP. See README, "Architecture".
        .target(name: "Archives", dependencies: ["CZlib"]),

        // MARK: - Pipeline stages, each importing only the stages below it (.ci/run checks it):
        // inputs → analyses → outputs → batch → the CLI.
        // Recognise, load and model inputs: ResearchKit, recorder logs, mPower, MyDataHelps, CSV; consent; JSON.
        .target(name: "StudyInputs", dependencies: ["SensorSignal", "Archives"]),
        // The analyses only: one folder per task kind and the registry.
        .target(name: "ActiveTasks", dependencies: ["StudyInputs", "SensorSignal"]),
        // Rendering (json/table/csv), the exports (researchkit/mork/fhir) and the HTML report.
        .target(name: "StudyOutputs", dependencies: ["ActiveTasks", "StudyInputs", "SensorSignal"]),
        // Discovery, the run, the journal, the sinks (CSV, SQLite) and merge.
        .target(
            name: "StudyBatch",
            dependencies: [
                "StudyOutputs", "ActiveTasks", "StudyInputs", "SensorSignal", "Archives",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: ["EmbedColumnDictionary"]),

        // MARK: - Command-line tool
        .executableTarget(
            name: "taskproc",
            dependencies: [
                "StudyBatch", "StudyOutputs", "ActiveTasks", "StudyInputs", "Archives",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: - Build tools
        // Batch's column dictionary (Batch/ColumnDictionary.tsv, generated from docs/ by
        // Tools/reference/column_dictionary.py) checked and compiled into ActiveTasks at build time: `make install`
        // copies the binary alone, so a resource bundle would not be found. No tool target: see the plugin.
        .plugin(name: "EmbedColumnDictionary", capability: .buildTool()),

        // MARK: - Tests
        // Helpers every test target shares (shared-data and fixture paths, temporary folders, child processes); not a
        // product. The hand-made fixtures are in Tests/Fixtures, outside every target (read from disk, never bundled).
        .target(
            name: "TestSupport",
            dependencies: [
                "StudyInputs", "Archives", "SensorSignal",  // StudyInputs for the synthetic walks' logs
                .product(name: "GRDB", package: "GRDB.swift"),  // the batch tests' SQLite reads
            ],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "SensorSignalTests",
            dependencies: [
                "SensorSignal", "TestSupport", "Archives",  // Archives only to read gzip reference data
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ComplexModule", package: "swift-numerics"),
            ],
            exclude: ["Reference"]),  // the R/Python reference outputs, read from disk via #filePath, not bundled
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "TestSupport"]),
        // One test target per pipeline stage, each test in the folder of the code it tests (docs/testing.md). A
        // target depends on what its tests import: a stage's tests may drive it through the stages above it.
        .testTarget(
            name: "StudyInputsTests",
            dependencies: [
                "StudyInputs", "ActiveTasks", "StudyOutputs", "StudyBatch", "Archives", "SensorSignal", "TestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ]),
        .testTarget(
            name: "ActiveTasksTests",
            dependencies: [
                "ActiveTasks", "StudyInputs", "StudyOutputs", "Archives", "SensorSignal", "TestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
            ],
            exclude: ["Audiometry/Reference"]),  // the reference values (see its README), read from disk via #filePath
        .testTarget(
            name: "StudyOutputsTests",
            dependencies: ["StudyOutputs", "ActiveTasks", "StudyInputs", "SensorSignal", "Archives", "TestSupport"]),
        .testTarget(
            name: "StudyBatchTests",
            dependencies: ["StudyBatch", "ActiveTasks", "StudyInputs", "Archives", "TestSupport"]),
        .testTarget(
            name: "taskprocTests",
            dependencies: [
                "taskproc", "StudyBatch", "StudyOutputs", "ActiveTasks", "StudyInputs", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
