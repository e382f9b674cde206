// The TemplateGlue plugin's tool: `TemplateGlueGenerator OUTPUT VIEW-MODEL-FILE…` writes the
// template glue of the view types in the files (TemplateGlueCore) to OUTPUT. On a declaration it
// cannot read it writes nothing, prints compiler-style errors (`path:line:column: error: …`) and
// exits with 1, which fails the build at that line.

import TemplateGlueCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `text` and a newline on standard error.
func printError(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        written += count
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count > 1 else {
    printError("usage: TemplateGlueGenerator OUTPUT VIEW-MODEL-FILE…")
    exit(2)
}
var sources: [ViewModelSource] = []
var unreadable: [TemplateGlueDiagnostic] = []
for path in arguments.dropFirst() {
    do {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let text = String(validating: data, as: UTF8.self) else {
            unreadable.append(TemplateGlueDiagnostic(file: path, message: "not UTF-8 text"))
            continue
        }
        sources.append(ViewModelSource(path: path, text: text))
    } catch {
        unreadable.append(TemplateGlueDiagnostic(file: path, message: "cannot read: \(error)"))
    }
}
do {
    guard unreadable.isEmpty else { throw TemplateGlueFailure(diagnostics: unreadable) }
    let glue = try TemplateGlueWriter().glue(for: sources)
    try Data(glue.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch let failure as TemplateGlueFailure {
    printError(failure.description)
    exit(1)
} catch {
    printError("\(output): error: cannot write the template glue: \(error)")
    exit(1)
}
