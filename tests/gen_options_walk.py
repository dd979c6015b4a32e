#!/usr/bin/env python3
"""Writes the field tables of every options struct of grappi.h for the options walk.

    gen_options_walk.py include/grappi/grappi.h OUT.h

For each `typedef struct grappi_X_options { ... } grappi_X_options;` the output holds a table of its
fields (name, offset, kind), a function filling the struct with its defaults (grappi_X_options_init
at GRAPPI_X_OPTIONS_VERSION) and the declaration of `walk_call_grappi_X_options`, which the walk
(tests/capi_options_walk.c) must define: a struct added to the header without a call there fails
the build. A struct without a version of its own (grappi_budget_options) is embedded in others: its
fields are walked as theirs ("budget.max_calls"). Pointers to arrays, callbacks and nested structs
are listed as skipped: the walk varies scalars and strings (an array's count is varied with its
pointer left NULL).
"""
import os
import re
import sys

KINDS = {
    "uint32_t": "WALK_U32",
    "int32_t": "WALK_I32",
    "uint64_t": "WALK_U64",
    "int64_t": "WALK_I64",
    "size_t": "WALK_SIZE",
    "double": "WALK_DOUBLE",
    "const char *": "WALK_TEXT",
}


def structs(header):
    text = re.sub(r"/\*.*?\*/", " ", header, flags=re.S)
    for m in re.finditer(r"typedef struct (grappi_\w+_options) \{(.*?)\} \1;", text, re.S):
        fields = []
        for decl in m.group(2).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            f = re.fullmatch(r"(.*?)\s*\b(\w+)", decl)
            if not f:
                sys.exit("gen_options_walk.py: cannot read the field '%s' of %s" % (decl, m.group(1)))
            ctype = re.sub(r"\s*\*\s*", " *", f.group(1)).strip()
            fields.append((ctype, f.group(2)))
        yield m.group(1), fields


def kind(ctype, name):
    if name == "version" and ctype == "uint32_t":
        return "WALK_VERSION"
    k = KINDS.get(ctype)
    if k == "WALK_TEXT" and re.search(r"(path|_dir)$", name):
        return "WALK_PATH"  # (no invalid UTF-8: it would name a file)
    return k


def main():
    header_path, out_path = sys.argv[1], sys.argv[2]
    with open(header_path, encoding="utf-8") as f:
        found = list(structs(f.read()))
    embedded = {s: fields for s, fields in found if not any(name == "version" for _, name in fields)}

    def flat(fields):
        for ctype, name in fields:
            if ctype in embedded:
                yield from ((t, "%s.%s" % (name, inner)) for t, inner in embedded[ctype])
            else:
                yield ctype, name

    found = [(s, list(flat(fields))) for s, fields in found if s not in embedded]
    if len(found) < 10:
        sys.exit("gen_options_walk.py: only %d options structs in %s" % (len(found), header_path))
    out = ["/* Written by tests/gen_options_walk.py from grappi.h: do not edit. */",
           "#ifndef GRAPPI_OPTIONS_WALK_FIELDS_H", "#define GRAPPI_OPTIONS_WALK_FIELDS_H", ""]
    entries = []
    for struct, fields in found:
        stem = struct[len("grappi_"):]
        rows, skipped = [], []
        for ctype, name in fields:
            k = kind(ctype, name)
            if k:
                rows.append('  {"%s", offsetof(%s, %s), %s},' % (name, struct, name, k))
            else:
                skipped.append("%s (%s)" % (name, ctype))
        out.append("/* %s; not varied: %s */" % (struct, ", ".join(skipped) or "none"))
        out.append("static const walk_field walk_fields_%s[] = {" % stem)
        out.extend(rows)
        out.append("};")
        out.append("static grappi_status walk_init_%s(void *p) {" % stem)
        out.append("  return grappi_%s_init((%s *)p, GRAPPI_%s_VERSION);" % (stem, struct, stem.upper()))
        out.append("}")
        out.append("static grappi_status walk_call_%s(const void *opts);" % struct)
        out.append("")
        entries.append('  {"%s", sizeof(%s), walk_fields_%s, sizeof walk_fields_%s / sizeof walk_fields_%s[0], '
                       "walk_init_%s, walk_call_%s}," % (struct, struct, stem, stem, stem, stem, struct))
    out.append("static const walk_struct walk_structs[] = {")
    out.extend(entries)
    out.append("};")
    out.append("")
    out.append("#endif")
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
