#!/usr/bin/env python3
"""Writes feedsite's man page (roff, section 1) to standard output, from the command tree that
swift-argument-parser itself describes (`feedsite --experimental-dump-help`): every subcommand with
its abstract, discussion, arguments and options, so the page always matches `--help`.

    scripts/manpage.py .build/release/feedsite > feedsite.1

(argument-parser's own `generate-manual` SwiftPM plugin does the same, but it needs the plugin
tool built first; this reads the same description straight from the binary.)
"""
import json
import subprocess
import sys


def roff(text):
    """Escapes text for roff: backslashes, and a leading dot or quote on any line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def synopsis_of(argument):
    names = argument.get("names") or []
    preferred = argument.get("preferredName") or (names[0] if names else None)
    value = argument.get("valueName", "value")
    if argument["kind"] == "positional":
        text = "\\fI%s\\fR" % roff(value)
    else:
        dash = "-" if preferred["kind"] == "short" or preferred["kind"] == "longWithSingleDash" else "--"
        text = "\\fB%s%s\\fR" % (roff(dash), roff(preferred["name"]))
        if argument["kind"] == "option":
            text += " \\fI%s\\fR" % roff(value)
    if argument.get("isRepeating"):
        text += " ..."
    if argument.get("isOptional"):
        text = "[" + text + "]"
    return text


def flags_of(argument):
    if argument["kind"] == "positional":
        return "\\fI%s\\fR" % roff(argument.get("valueName", "value"))
    parts = []
    for name in argument.get("names") or []:
        dash = "-" if name["kind"] in ("short", "longWithSingleDash") else "--"
        part = "\\fB%s%s\\fR" % (roff(dash), roff(name["name"]))
        if argument["kind"] == "option":
            part += " \\fI%s\\fR" % roff(argument.get("valueName", "value"))
        parts.append(part)
    return ", ".join(parts)


def section(command, path, out):
    arguments = [
        a
        for a in command.get("arguments") or []
        if a.get("shouldDisplay", True) and (a.get("preferredName") or {}).get("name") not in ("help", "version")
    ]
    name = " ".join(path)
    if len(path) > 1:
        out.append(".SS %s" % roff(name))
        if command.get("abstract"):
            out.append(roff(command["abstract"]))
            out.append(".PP")
    out.append(".B %s" % roff(name))
    out.append(" ".join(synopsis_of(a) for a in arguments))
    if command.get("discussion"):
        out.append(".PP")
        out.append(roff(command["discussion"]))
    for argument in arguments:
        out.append(".TP")
        out.append(flags_of(argument))
        help_text = argument.get("abstract", "")
        if argument.get("defaultValue") not in (None, ""):
            help_text += " (default: %s)" % argument["defaultValue"]
        out.append(roff(help_text))
        if argument.get("discussion"):
            out.append(roff(argument["discussion"] if isinstance(argument["discussion"], str) else ""))
    for sub in command.get("subcommands") or []:
        if sub["commandName"] == "help":
            continue
        section(sub, path + [sub["commandName"]], out)


def main(binary):
    tool = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    command = tool["command"]
    out = [
        '.TH FEEDSITE 1 "" "feedsite %s" "User Commands"' % roff(version),
        ".SH NAME",
        "feedsite \\- %s" % roff(command.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B feedsite",
        "\\fIsubcommand\\fR [\\fIoptions\\fR]",
        ".SH DESCRIPTION",
        roff(command.get("discussion", "")),
        ".SH COMMANDS",
    ]
    for sub in command.get("subcommands") or []:
        if sub["commandName"] != "help":
            section(sub, ["feedsite", sub["commandName"]], out)
    out += [
        ".SH FILES",
        ".TP",
        "\\fBfeeds.yml\\fR",
        "The configuration: the site's settings and its list of feeds.",
        ".TP",
        "\\fBTemplates/\\fR",
        "Beside feeds.yml: files that override the built\\-in theme, one by one (feedsite init \\-\\-theme writes them).",
        ".TP",
        "\\fB.feedsite/\\fR",
        "The state kept between builds.",
        ".SH OPTIONS",
        "Every command also takes \\fB\\-\\-help\\fR (\\fB\\-h\\fR) and \\fB\\-\\-version\\fR.",
        ".SH SEE ALSO",
        "The README of feedsite, which documents every key of feeds.yml.",
    ]
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: scripts/manpage.py FEEDSITE_BINARY > feedsite.1\n")
        sys.exit(64)
    main(sys.argv[1])
