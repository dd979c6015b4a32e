#!/usr/bin/env python3
"""Validates JSON outputs against their schema in docs/schemas/ (JSON Schema 2020-12, Debian's
python3-jsonschema).

Usage: check_json_schema.py SCHEMA.json [--each] FILE [FILE ...]
  --each: the files hold arrays (or JSON lines) whose every element is validated.
Exit 1 naming the file, the place in it and the rule broken.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("check_json_schema.py: python3-jsonschema is not installed (tools/install-deps.sh installs it)")

args = sys.argv[1:]
schema_path = args.pop(0)
each = "--each" in args
files = [a for a in args if a != "--each"]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in files:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = json.loads(text)
        docs = doc if each else [doc]
    except json.JSONDecodeError:
        docs = [json.loads(line) for line in text.splitlines() if line.strip()]  # JSON lines
    for i, d in enumerate(docs):
        for e in validator.iter_errors(d):
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print("%s%s: %s: %s (schema %s)" % (path, "[%d]" % i if each else "", where, e.message,
                                                 "/".join(str(p) for p in e.absolute_schema_path)))
            bad += 1
if bad:
    sys.exit(1)
print("%d file(s) valid against %s" % (len(files), schema_path))
