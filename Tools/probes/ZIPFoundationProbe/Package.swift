// swift-tools-version: 6.1
// Evidence for docs/architecture.md's "Why our own ZIP reader, not ZIPFoundation": not part of taskproc's build.
import PackageDescription

let package = Package(
    name: "ZIPFoundationProbe",
    dependencies: [.package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20")],
    targets: [.executableTarget(name: "ZIPFoundationProbe", dependencies: ["ZIPFoundation"])],
    swiftLanguageModes: [.v6]
)
