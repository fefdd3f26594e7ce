// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "taskproc",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex; irrelevant on Linux
    products: [
        .library(name: "SensorSignal", targets: ["SensorSignal"]),
        .library(name: "ActiveTasks", targets: ["ActiveTasks"]),
        .executable(name: "taskproc", targets: ["taskproc"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),  // batch SQLite output
    ],
    targets: [
        // MARK: - C libraries (thin shims only; imported by SensorSignal/Interop alone)
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
                "CFFTW", "CSndfile", "CZlib",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ComplexModule", package: "swift-numerics"),
            ]),
        .target(
            name: "ActiveTasks",
            dependencies: ["SensorSignal", .product(name: "GRDB", package: "GRDB.swift")]),

        // MARK: - Command-line tool
        .executableTarget(
            name: "taskproc",
            dependencies: [
                "ActiveTasks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: - Tests
        // Helpers every test target shares (shared-data paths, temporary folders, child processes); not a product.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "SensorSignalTests",
            dependencies: [
                "SensorSignal", "TestSupport",
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "ComplexModule", package: "swift-numerics"),
            ]),
        .testTarget(
            name: "ActiveTasksTests",
            dependencies: ["ActiveTasks", "SensorSignal", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"]),  // read from disk via #filePath, not bundled
        .testTarget(
            name: "taskprocTests",
            dependencies: [
                "taskproc", "ActiveTasks", "TestSupport",
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
