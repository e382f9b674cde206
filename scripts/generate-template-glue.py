#!/usr/bin/env python3
"""Writes the template glue of feedsite's view models from their declarations.

Reads every top-level `struct` and `final class` in `Sources/FeedsiteKit/Render/PageViews*.swift`
(the generated file excepted) and writes `Sources/FeedsiteKit/Render/PageViews+Template.swift`:

- `TemplateKey`, every field name the view types have, so a template's names are resolved once,
  when it is parsed;
- each view type's `value(_:at:)`, a `switch` on that key (what `{{name}}` answers), handing the
  rest of a dotted name to the field's own type;
- `TemplateSchema.viewTypes`, each type's fields and what they hold, for the load-time check of
  a theme's names (`Template+Checking.swift`).

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

# The Swift type of a field → its `TemplateSchema.Kind` case.
SCALARS = {"String": ".string", "Int": ".int", "Bool": ".bool", "SanitisedHTML": ".html"}

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
    """[(type name, [(field name, swift type, file, line)])] in declaration order, field groups'
    properties replaced by the group's fields (the path to such a field is `group.field`)."""
    types = []
    groups = {}
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
                    current = (match.group(1), [])
                    if re.search(r":[^{]*\bTemplateFieldGroup\b", code):
                        groups[match.group(1)] = current[1]
                    else:
                        types.append(current)
            elif depth == 1 and current is not None and not EXCLUDED.match(code):
                match = PROPERTY.match(code)
                if match:
                    current[1].append((match.group(1), match.group(2).strip(), path.name, number, match.group(1)))
            depth += code.count("{") - code.count("}")
            if depth < 0:
                raise GlueError(f"{path.name}:{number}: unbalanced braces")
            if depth == 0:
                current = None
    inlined = []
    for name, fields in types:
        expanded = []
        for field, swift_type, file, number, path in fields:
            if swift_type in groups:
                expanded += [(inner, t, f, n, f"{field}.{inner}") for inner, t, f, n, _ in groups[swift_type]]
            else:
                expanded.append((field, swift_type, file, number, path))
        if len({field for field, *_ in expanded}) != len(expanded):
            raise GlueError(f"view type '{name}' has a field twice (its own and a group's?)")
        inlined.append((name, expanded))
    return inlined


def kind(swift_type, view_names, where):
    """The `TemplateSchema.Kind` expression for a Swift type."""
    swift_type = swift_type.replace(" ", "")
    if swift_type.endswith("?"):
        inner = swift_type[:-1]
        if inner.endswith("?"):
            raise GlueError(f"{where}: a double optional ('{swift_type}') cannot be read by a template")
        return f".optional({kind(inner, view_names, where)})"
    if swift_type.startswith("[") and swift_type.endswith("]") and ":" not in swift_type:
        return f".list({kind(swift_type[1:-1], view_names, where)})"
    if swift_type in SCALARS:
        return SCALARS[swift_type]
    if swift_type in view_names:
        return f'.object("{swift_type}")'
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


def generate(types):
    view_names = {name for name, _ in types}
    lines = [
        "// Generated by scripts/generate-template-glue.py from the view types in PageViews*.swift: do not edit.",
        "// A new template variable is a new property of a view type; then run",
        "// `python3 scripts/generate-template-glue.py` (PageViewsTests fails while this file is stale).",
        "",
        "/// Every name a view type answers: a template's names are resolved to these once, when it is",
        "/// parsed, so a lookup is a `switch`, not string comparisons.",
        "enum TemplateKey: String, Sendable {",
    ]
    keys = sorted({field for _, fields in types for field, *_ in fields})
    lines += [line.rstrip(",") for line in wrap(keys, "    case ")]
    lines.append("}")
    for name, fields in types:
        if not fields:
            raise GlueError(f"view type '{name}' has no fields")
        lines += [
            "",
            f"extension {name}: TemplateObject {{",
            "    func value(_ name: Template.Name, at position: Int) -> TemplateValue? {",
            "        switch name.keys[position] {",
        ]
        for field, swift_type, _, _, path in fields:
            optional = "?" if swift_type.replace(" ", "").endswith("?") else ""
            lines.append(f"        case .{field}?: self.{path}{optional}.value(name, after: position)")
        lines += ["        default: nil", "        }", "    }", "}"]
    lines += [
        "",
        "extension TemplateSchema {",
        "    /// Each view type's fields and what they hold.",
        "    static let viewTypes: [String: [String: Kind]] = [",
    ]
    for name, fields in types:
        lines.append(f'        "{name}": [')
        for field, swift_type, file, number, _ in fields:
            lines.append(f'            "{field}": {kind(swift_type, view_names, f"{file}:{number}")},')
        lines.append("        ],")
    lines += ["    ]", "}", ""]
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
