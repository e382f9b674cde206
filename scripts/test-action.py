#!/usr/bin/env python3
"""Runs action.yml's shell steps here, as GitHub's runner would, against a tarball from `make dist`
(`make dist-check` calls this). GitHub Actions cannot run on this machine, so this script:

1. validates action.yml and Examples/github-actions.yml (YAML, a composite action with the inputs
   config, output, restore-state and version; a cached download; a workflow with no Swift
   toolchain, no container and no apt step that uses the action);
2. serves the tarball, its .sha256 and two sample feeds from 127.0.0.1, and runs every step in
   order with the environment the runner would give it (`${{ inputs.x }}`, `${{ steps.id.outputs.y
   }}`, `${{ runner.* }}` and `${{ github.* }}` evaluated here; GITHUB_OUTPUT, GITHUB_PATH and
   RUNNER_TEMP files; the actions/cache step simulated as a miss, then a hit);
3. runs it twice, the second time as a fresh runner (no state, no site) whose cache has the binary
   and whose restore-state URL serves the state the first run published: no second download,
   the state is restored, the site is built.

    scripts/test-action.py dist/feedsite-0.1.0-linux-x86_64.tar.gz
"""
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(message):
    sys.stderr.write("test-action: FAIL: %s\n" % message)
    sys.exit(1)


def check_definitions():
    with open(os.path.join(ROOT, "action.yml")) as handle:
        action = yaml.safe_load(handle)
    with open(os.path.join(ROOT, "Examples", "github-actions.yml")) as handle:
        workflow = yaml.safe_load(handle)
    if action.get("runs", {}).get("using") != "composite":
        fail("action.yml is not a composite action")
    for name in ("config", "output", "restore-state", "version"):
        if name not in action.get("inputs", {}):
            fail("action.yml has no input '%s'" % name)
    steps = action["runs"]["steps"]
    caches = [s for s in steps if str(s.get("uses", "")).startswith("actions/cache@")]
    if len(caches) != 1 or "inputs.version" not in caches[0]["with"]["key"]:
        fail("action.yml must cache the binary with actions/cache, keyed by inputs.version")
    for step in steps:
        if "run" in step and step.get("shell") != "bash":
            fail("step %s: composite run steps need shell: bash" % step.get("id"))
    for job_name, job in workflow["jobs"].items():
        if "container" in job:
            fail("Examples/github-actions.yml job %s runs in a container" % job_name)
        for step in job.get("steps", []):
            script = step.get("run", "")
            if re.search(r"\b(apt-get|apt|swift|install-deps)\b", script):
                fail("Examples/github-actions.yml runs %r: it must need no toolchain and no apt" % script)
    uses = [s for s in workflow["jobs"]["build"]["steps"] if str(s.get("uses", "")).split("@")[0].endswith("/feedsite")]
    if len(uses) != 1:
        fail("Examples/github-actions.yml does not use the feedsite action")
    unknown = set(uses[0].get("with", {})) - set(action["inputs"])
    if unknown:
        fail("Examples/github-actions.yml passes inputs the action does not have: %s" % sorted(unknown))
    return action, uses[0]


class Server:
    """A quiet http.server on 127.0.0.1 that records the paths it was asked for."""

    def __init__(self, directory):
        self.requests = []
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *arguments):
                server.requests.append(self.path)

        handler = functools.partial(Handler, directory=directory)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


def evaluate(text, context):
    """Replaces each ${{ a.b.c }} with its value from context (missing: empty, as on GitHub)."""

    def value(match):
        current = context
        for part in match.group(1).strip().split("."):
            current = current.get(part, "") if isinstance(current, dict) else ""
        return str(current)

    return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))


def run_action(action, inputs, work, tool_cache, cache_hit):
    context = {
        "inputs": {name: spec.get("default", "") for name, spec in action["inputs"].items()},
        "steps": {},
        "runner": {"tool_cache": tool_cache, "temp": os.path.join(work, "runner-temp"), "os": "Linux"},
        "github": {"action_repository": ""},
    }
    context["inputs"].update(inputs)
    os.makedirs(context["runner"]["temp"], exist_ok=True)
    path_file = os.path.join(work, "github-path")
    open(path_file, "w").close()
    for step in action["runs"]["steps"]:
        step_id = step.get("id", "")
        if "uses" in step:  # actions/cache: restore is simulated by keeping tool_cache between runs
            context["steps"][step_id] = {"outputs": {"cache-hit": "true" if cache_hit else ""}}
            continue
        output_file = os.path.join(work, "output-%s" % step_id)
        open(output_file, "w").close()
        environment = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        environment.update({k: evaluate(v, context) for k, v in step.get("env", {}).items()})
        environment.update(
            GITHUB_OUTPUT=output_file, GITHUB_PATH=path_file, RUNNER_TEMP=context["runner"]["temp"], CI="true"
        )
        script = evaluate(step["run"], context)
        result = subprocess.run(["bash", "-e", "-c", script], cwd=work, env=environment, capture_output=True, text=True)
        if result.returncode != 0:
            fail("step %s exited %d:\n%s%s" % (step_id, result.returncode, result.stdout, result.stderr))
        outputs = {}
        with open(output_file) as handle:
            for line in handle.read().splitlines():
                key, _, val = line.partition("=")
                outputs[key] = val
        context["steps"][step_id] = {"outputs": outputs, "stdout": result.stdout, "stderr": result.stderr}
    with open(path_file) as handle:
        return context["steps"], handle.read().split()


def main(tarball):
    action, usage = check_definitions()
    match = re.match(r"feedsite-(.+)-linux-([^-]+)\.tar\.gz$", os.path.basename(tarball))
    if not match:
        fail("%s is not named feedsite-<version>-linux-<arch>.tar.gz" % tarball)
    version, arch = match.groups()
    if str(action["inputs"]["version"].get("default")) != version:
        fail("action.yml's default version %r is not the release's %r" % (action["inputs"]["version"].get("default"), version))
    if str(usage.get("with", {}).get("version", version)) != version:
        fail("Examples/github-actions.yml pins version %r, not %r" % (usage["with"]["version"], version))
    top = tempfile.mkdtemp(prefix="feedsite-action-")
    try:
        www = os.path.join(top, "www")
        os.makedirs(os.path.join(www, "live"))
        for name in (os.path.basename(tarball), os.path.basename(tarball) + ".sha256"):
            shutil.copy(os.path.join(os.path.dirname(os.path.abspath(tarball)), name), www)
        for feed in ("dont-hit-save.xml", "feed-rs-releases.atom"):
            shutil.copy(os.path.join(ROOT, "Examples", "sample-feeds", feed), www)
        server = Server(www)
        base = "http://127.0.0.1:%d" % server.port
        work = os.path.join(top, "repository")
        os.makedirs(work)
        with open(os.path.join(work, "feeds.yml"), "w") as handle:
            handle.write("title: Action Planet\nbase_url: https://planet.example.org/\nfeeds:\n")
            handle.write("  - url: %s/dont-hit-save.xml\n  - url: %s/feed-rs-releases.atom\n" % (base, base))
        inputs = {
            "version": version,
            "restore-state": base + "/live/status/state.json",
            "download-url": base + "/feedsite-{version}-linux-{arch}.tar.gz",
            "args": "--verbose",
        }
        tool_cache = os.path.join(top, "tool-cache")

        # First run: nothing cached, nothing published yet.
        steps, path = run_action(action, inputs, work, tool_cache, cache_hit=False)
        binary = steps["install"]["outputs"].get("feedsite", "")
        if not os.access(binary, os.X_OK) or os.path.dirname(binary) not in path:
            fail("the install step did not provide feedsite on PATH: %r %r" % (binary, path))
        if not os.path.isfile(os.path.join(work, "Site", "index.html")):
            fail("the first run wrote no Site/index.html:\n%s" % steps["build"]["stderr"])
        downloads = [r for r in server.requests if r.endswith(".tar.gz")]
        if len(downloads) != 1:
            fail("the first run downloaded the tarball %d times" % len(downloads))

        # Publish, then a fresh runner: no .feedsite/, no Site/, the binary in the cache.
        shutil.copytree(os.path.join(work, "Site", "status"), os.path.join(www, "live", "status"))
        shutil.rmtree(os.path.join(work, "Site"))
        shutil.rmtree(os.path.join(work, ".feedsite"))
        steps, path = run_action(action, inputs, work, tool_cache, cache_hit=True)
        downloads = [r for r in server.requests if r.endswith(".tar.gz")]
        if len(downloads) != 1:
            fail("a cache hit still downloaded the tarball")
        if "/live/status/state.json" not in server.requests:
            fail("restore-state was not fetched")
        if not os.path.isfile(os.path.join(work, ".feedsite", "state.json")):
            fail("the second run has no state")
        if not os.path.isfile(os.path.join(work, "Site", "index.html")):
            fail("the second run wrote no Site/index.html")
        server.httpd.shutdown()
        print("test-action: ok: action.yml and Examples/github-actions.yml valid; download, cache hit, restore-state and build run")
    finally:
        shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: scripts/test-action.py dist/feedsite-<version>-linux-<arch>.tar.gz\n")
        sys.exit(64)
    main(sys.argv[1])
