import Foundation
import PackagePlugin

/// Compiles batch's column dictionary into the target that holds it: `ColumnDictionary.tsv` (generated from the
/// documentation by `Tools/reference/column_dictionary.py`) becomes `ColumnDictionary.swift`, defining
/// `ColumnDictionary.table`.
///
/// The data stays a data file in the source tree, yet needs nothing beside the binary at run time: `make install`
/// copies the binary alone, where a SwiftPM resource bundle (`Bundle.module`) would not be found. The file is found
/// by name among the target's files, so it moves with its folder. The build step is `Plugins/
/// embed_column_dictionary.swift`, run by the toolchain's `swift` when the table or the script changes (that file
/// says why it is no tool target).
@main
struct EmbedColumnDictionary: BuildToolPlugin {
    static let fileName = "ColumnDictionary.tsv"

    struct Missing: Error, CustomStringConvertible {
        let target: String
        var description: String { "target \(target) uses EmbedColumnDictionary but holds no \(fileName)" }
    }

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget,
            let table = module.sourceFiles.first(where: { $0.url.lastPathComponent == Self.fileName })?.url
        else { throw Missing(target: target.name) }
        let script = context.package.directoryURL.appending(path: "Plugins/embed_column_dictionary.swift")
        let output = context.pluginWorkDirectoryURL.appending(path: "ColumnDictionary.swift")
        let moduleCache = context.pluginWorkDirectoryURL.appending(path: "ModuleCache")
        return [
            .buildCommand(
                displayName: "Embedding \(Self.fileName) into \(target.name)",
                executable: try context.tool(named: "swift").url,
                arguments: [
                    "-module-cache-path", moduleCache.path(percentEncoded: false), script.path(percentEncoded: false),
                    table.path(percentEncoded: false), output.path(percentEncoded: false),
                ],
                inputFiles: [table, script],
                outputFiles: [output])
        ]
    }
}
