import PackagePlugin

/// Generates the template glue of FeedsiteKit's view models at build time: `TemplateKey`, each view
/// type's `value(_:at:)` and `TemplateSchema.viewTypes`, from the view types in `PageViews*.swift`
/// (TemplateGlueCore says how). The output is compiled into the target and lives only in the build
/// folder, `.build/plugins/outputs/<package folder>/FeedsiteKit/destination/TemplateGlue/PageViews+Template.swift`;
/// it is regenerated whenever a view-model file (or the generator) changes.
@main
struct TemplateGlue: BuildToolPlugin {
    /// The generated file's name, which no source file of the target may have.
    static let outputName = "PageViews+Template.swift"

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles(withSuffix: "swift").map(\.url).filter {
            let name = $0.lastPathComponent
            return name.hasPrefix("PageViews") && name != Self.outputName
        }.sorted { $0.lastPathComponent.unicodeScalars.lexicographicallyPrecedes($1.lastPathComponent.unicodeScalars) }
        let output = context.pluginWorkDirectoryURL.appending(path: Self.outputName)
        return [
            .buildCommand(
                displayName: "Generating the template glue of \(target.name)'s view models",
                executable: try context.tool(named: "TemplateGlueGenerator").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
