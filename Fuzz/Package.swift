// swift-tools-version: 6.1
//
// libFuzzer targets for taskproc, kept in a nested package so the sanitizer build never touches the main
// package's build or tests. One executable per target, each defining `LLVMFuzzerTestOneInput` (libFuzzer brings
// `main`). Build and run from the repository root with `make fuzz` / `make fuzz-smoke`, or by hand:
//
//     swift build -c release --package-path Fuzz --scratch-path Fuzz/.build \
//         --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
//         -Xswiftc -enable-testing --disable-dead-strip
//     Fuzz/.build/release/FuzzJSON Fuzz/Corpus/FuzzJSON
//
// (`-Xswiftc -sanitize=fuzzer,address` must come last: swiftc keeps only its last `-sanitize=`, and without it the
// Swift code gets ASan but no coverage.)
//
// `--sanitize` applies to every module of the build, the root package's (and its C shims') included, so that
// libFuzzer sees their coverage and ASan checks their memory; `-enable-testing` lets the targets reach internal
// entry points (`@testable import`). See docs/fuzzing.md.
import PackageDescription

let package = Package(
    name: "taskproc-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` pins the identity: otherwise it is the checkout's directory name, which varies.
        .package(name: "taskproc", path: "../")
    ],
    targets: [
        // Typed hostile values from fuzz bytes, scratch files, and `analyze`'s load → analyse → render pipeline.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "StudyInputs", package: "taskproc"), .product(name: "ActiveTasks", package: "taskproc"),
                .product(name: "StudyOutputs", package: "taskproc"), .product(name: "StudyBatch", package: "taskproc"),
            ],
            path: "Sources/FuzzSupport")
    ],
    swiftLanguageModes: [.v6]
)

/// The fuzz targets, each at `Sources/<Target>/<Target>.swift` (docs/fuzzing.md says what each covers).
let fuzzTargets = [
    "FuzzJSON", "FuzzDecimal",
    "FuzzResearchKit", "FuzzRecorderLog", "FuzzMPower", "FuzzMyDataHelps", "FuzzCSV",
    "FuzzZip", "FuzzGzip", "FuzzAudio", "FuzzFFprobe",
    "FuzzWalking", "FuzzTapping", "FuzzSoundLevel", "FuzzSPLMeter", "FuzzAudiometry",
    "FuzzExport", "FuzzReport",
]

for name in fuzzTargets {
    package.targets.append(
        .executableTarget(
            name: name,
            dependencies: [
                "FuzzSupport",
                .product(name: "StudyInputs", package: "taskproc"), .product(name: "ActiveTasks", package: "taskproc"),
                .product(name: "StudyOutputs", package: "taskproc"), .product(name: "StudyBatch", package: "taskproc"),
                .product(name: "SensorSignal", package: "taskproc"),
                .product(name: "Archives", package: "taskproc"),
            ],
            path: "Sources/\(name)"))
}
