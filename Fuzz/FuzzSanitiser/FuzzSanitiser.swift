import Foundation
import FuzzerDriver

@testable import FeedsiteKit
@testable import FeedsiteSanitise

/// libFuzzer entry point: bytes → `HTMLSanitiser` (the HTML and the plain-text path), asserting
/// what must hold for every input:
/// - the output is inside the allowlist, checked by parsing it again with gumbo (no `script`, no
///   `on…` attribute, no URL other than http(s) or mailto);
/// - the nesting limit holds for gumbo's own tree (checked at a small limit, where the fuzzer
///   reaches it with short inputs).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSanitiser(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: data == nil ? 0 : count)
    let text = String(decoding: bytes, as: UTF8.self)
    let sanitiser = HTMLSanitiser()
    let base = URL(string: "https://fuzz.example/post/")
    let html = sanitiser.sanitise(html: text, baseURL: base)
    SanitiserOracle.check(html.html.html, input: text, path: "html")
    let plain = sanitiser.sanitise(plainText: text, baseURL: base)
    SanitiserOracle.check(plain.html.html, input: text, path: "plain text")

    let limit = 8
    let limited = NestingLimiter.limited(text, maxDepth: limit, opaqueElements: ContentBuilder.droppedElements) ?? text
    if let depth = HTMLFragment.gumboDepth(parsing: limited), depth > limit + 1 {
        SanitiserOracle.fail("gumbo nests \(depth) deep past the limit \(limit)", input: text)
    }
    return 0
}

enum SanitiserOracle {
    static let elements: Set<String> = [
        "p", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code", "em", "strong",
        "del", "a", "img", "br", "hr", "table", "thead", "tbody", "tr", "th", "td",
    ]
    static let attributes: Set<String> = [
        "href", "src", "alt", "title", "rel", "loading", "decoding", "referrerpolicy", "start", "class", "align",
    ]

    static func check(_ output: String, input: String, path: String) {
        // Text may spell out `javascript:` (escaped markup is displayed, never run); markup may not.
        let lower = output.lowercased()
        for needle in ["<script", "<iframe", "<svg", "<style", "<object", "<embed", "<form", "<meta", "<base"]
        where lower.contains(needle) {
            fail("\(path) output contains \(needle): \(output.debugDescription)", input: input)
        }
        var stack = HTMLFragment.gumboNodes(parsing: output, maxDepth: 100_000, opaqueElements: [])
        while let node = stack.popLast() {
            guard case .element(let element) = node else { continue }
            stack += element.children
            guard element.isHTML, elements.contains(element.name) else {
                fail("\(path) output has <\(element.name)>: \(output.debugDescription)", input: input)
                continue
            }
            for (name, value) in element.attributes {
                guard attributes.contains(name) else {
                    fail("\(path) output has attribute \(name) on <\(element.name)>", input: input)
                    continue
                }
                if name.hasPrefix("on") {
                    fail("\(path) output has handler \(name) on <\(element.name)>", input: input)
                }
                if name == "href" || name == "src" {
                    let url = value.lowercased()
                    let allowed = ["http://", "https://"] + (name == "href" ? ["mailto:"] : [])
                    if !allowed.contains(where: url.hasPrefix) {
                        fail("\(path) output has \(name)=\(value.debugDescription)", input: input)
                    }
                }
            }
        }
    }

    /// A sanitiser escape is a crash to libFuzzer: it keeps the input as a reproducer.
    static func fail(_ message: String, input: String) -> Never {
        FileHandle.standardError.write(Data("sanitiser escape: \(message)\ninput: \(input.debugDescription)\n".utf8))
        abort()
    }
}

/// Runs libFuzzer's driver (`Fuzz/FuzzerDriver`) with `fuzzSanitiser` as the target.
@main
enum Main {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzSanitiser(data, size) })
    }
}
