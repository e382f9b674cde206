#!/usr/bin/env python3
"""Writes the template glue of feedsite's view models from their declarations.

Reads every top-level `struct` and `final class` in `Sources/FeedsiteKit/Render/PageViews*.swift`
(the generated file excepted) and writes `Sources/FeedsiteKit/Render/PageViews+Template.swift`:

- `TemplateKey`, every field name the view types have, so a template's names are resolved once,
  when it is parsed;
- each view type's `TemplateView` conformance: its `templateFields`, a table from key to the
  field's key path (`TemplateValue.swift` does the lookup, and tells each field's kind from its
  Swift type);
- `TemplateSchema.viewTypes`, the list of view types whose fields the load-time check of a
  theme's names knows (`Template+Checking.swift`).

A field is a property of a view type (`let`/`var`, stored or computed; not `static`, not
`private`) whose type is `String`, `Int`, `Bool`, `SanitisedHTML`, another view type, or an
optional or array of these. A type declared `: TemplateFieldGroup` is not a view type but fields
several share (`PageHead`): a property of that type gives its holder the group's fields. Adding a field to a view type and running this script is all a new
template variable takes; `PageViewsTests` fails when the generated file is stale.

Usage: python3 scripts/generate-template-glue.py [--output FILE]
"""

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RENDER = ROOT / "Sources" / "FeedsiteKit" / "Render"
GENERATED = RENDER / "PageViews+Template.swift"

# The types a field may have besides view types (and optionals and arrays).
SCALARS = {"String", "Int", "Bool", "SanitisedHTML"}

TYPE_DECLARATION = re.compile(r"^(?:(?:public|package|internal)\s+)?(?:final\s+class|struct)\s+(\w+)\b")
PROPERTY = re.compile(
    r"^\s*(?:(?:public|package|internal)\s+)?(?:let|var)\s+(\w+)\s*:\s*([^={]+?)\s*(?:=.*|\{.*)?$"
)
EXCLUDED = re.compile(r"^\s*(?:@\w+\s+)*(?:(?:public|package|internal)\s+)?(?:static|class|private|fileprivate)\b")


class GlueError(Exception):
    pass


def strip_code(line):
    """The line without its `//` comment and with string literals blanked, for brace counting."""
    out = []
    in_string = False
    index = 0
    while index < len(line):
        char = line[index]
        if in_string:
            if char == "\\":
                index += 2
                continue
            if char == '"':
                in_string = False
            out.append(" ")
        elif char == '"':
            in_string = True
            out.append(" ")
        elif line.startswith("//", index):
            break
        else:
            out.append(char)
        index += 1
    return "".join(out)


def read_view_types(paths):
    """[(type name, [(field name, swift type, file, line)], is a field group)] in declaration order."""
    types = []
    for path in paths:
        depth = 0
        current = None
        in_block_comment = False
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            line = raw
            if in_block_comment:
                if "*/" not in line:
                    continue
                line = line.split("*/", 1)[1]
                in_block_comment = False
            if "/*" in strip_code(line):
                in_block_comment = "*/" not in line.split("/*", 1)[1]
                line = line.split("/*", 1)[0]
            code = strip_code(line)
            if depth == 0:
                match = TYPE_DECLARATION.match(code)
                if match and "{" in code:
                    is_group = re.search(r":[^{]*\bTemplateFieldGroup\b", code) is not None
                    current = (match.group(1), [], is_group)
                    types.append(current)
            elif depth == 1 and current is not None and not EXCLUDED.match(code):
                match = PROPERTY.match(code)
                if match:
                    current[1].append((match.group(1), match.group(2).strip(), path.name, number))
            depth += code.count("{") - code.count("}")
            if depth < 0:
                raise GlueError(f"{path.name}:{number}: unbalanced braces")
            if depth == 0:
                current = None
    return types


def check(swift_type, view_names, where):
    """Raises unless a template can read a field of `swift_type`."""
    swift_type = swift_type.replace(" ", "")
    if swift_type.endswith("?"):
        if swift_type.endswith("??"):
            raise GlueError(f"{where}: a double optional ('{swift_type}') cannot be read by a template")
        return check(swift_type[:-1], view_names, where)
    if swift_type.startswith("[") and swift_type.endswith("]") and ":" not in swift_type:
        return check(swift_type[1:-1], view_names, where)
    if swift_type not in SCALARS and swift_type not in view_names:
        raise GlueError(
            f"{where}: '{swift_type}' is not a type a template can read; use String, Int, Bool, SanitisedHTML, "
            "a view type from PageViews*.swift, or an optional or array of these (or make the property private)"
        )


def wrap(words, indent, width=120):
    """Comma-separated words on lines of at most `width` columns."""
    lines = []
    line = indent
    for word in words:
        piece = word + ","
        if line != indent and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = indent
        line += ("" if line == indent else " ") + piece
    lines.append(line)
    return lines


def inline_groups(types):
    """[(view type, [(key, key path)])]: each field group property replaced by the group's fields."""
    groups = {name: fields for name, fields, is_group in types if is_group}
    view_names = {name for name, _, is_group in types if not is_group}
    views = []
    for name, fields, is_group in types:
        if is_group:
            continue
        if not fields:
            raise GlueError(f"view type '{name}' has no fields")
        entries = []
        for field, swift_type, file, number in fields:
            if swift_type in groups:
                entries += [(inner, f"{field}.{inner}") for inner, *_ in groups[swift_type]]
            else:
                check(swift_type, view_names, f"{file}:{number}")
                entries.append((field, field))
        keys = [key for key, _ in entries]
        if len(set(keys)) != len(keys):
            raise GlueError(f"view type '{name}' has a field twice (its own and a group's?)")
        views.append((name, entries))
    for name, fields in groups.items():
        for field, swift_type, file, number in fields:
            check(swift_type, view_names, f"{file}:{number}")
    return views


def generate(types):
    views = inline_groups(types)
    lines = [
        "// Generated by scripts/generate-template-glue.py from the view types in PageViews*.swift: do not edit.",
        "// A new template variable is a new property of a view type; then run",
        "// `python3 scripts/generate-template-glue.py` (PageViewsTests fails while this file is stale).",
        "",
        "/// Every name a view type answers: a template's names are resolved to these once, when it is",
        "/// parsed, so a lookup is an index into a view type's `templateFields`.",
        "enum TemplateKey: Int, CaseIterable, Sendable {",
    ]
    keys = sorted({key for _, entries in views for key, _ in entries})
    lines += [line.rstrip(",") for line in wrap(keys, "    case ")]
    lines.append("}")
    for name, entries in views:
        lines += ["", f"extension {name}: TemplateView {{", "    static let templateFields: TemplateFields<Self> = ["]
        lines += wrap([f".{key}: .init(\\.{path})" for key, path in entries], "        ")
        lines += ["    ]", "}"]
    lines += [
        "",
        "extension TemplateSchema {",
        "    /// Each view type's fields and what they hold.",
        "    static let viewTypes = fields(of: [",
    ]
    lines += wrap([f"{name}.self" for name, _ in views], "        ")
    lines += ["    ])", "}", ""]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=pathlib.Path, default=GENERATED, help="where to write (default: %(default)s)")
    arguments = parser.parse_args()
    sources = sorted(path for path in RENDER.glob("PageViews*.swift") if path != GENERATED)
    try:
        text = generate(read_view_types(sources))
    except GlueError as error:
        print(f"generate-template-glue: error: {error}", file=sys.stderr)
        return 1
    arguments.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
