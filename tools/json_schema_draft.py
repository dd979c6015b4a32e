#!/usr/bin/env python3
"""Drafts a JSON Schema (2020-12) from sample documents of one kind of output.

Usage: json_schema_draft.py TITLE DESCRIPTION SAMPLE.json [SAMPLE.json ...] > schema.json

Objects list their properties with the types seen; the keys present in every sample are required
at the top level and in the items of its arrays (deeper objects may vary with the data). A field
seen only as null is left unconstrained.
Objects keyed by data (ids, relation names: keys that are not lower_case identifiers) become
maps. Doubles are "number", integers "integer" (the library writes a double with a decimal
point). The drafts in docs/schemas/ were made with it and edited; the tests validate real
outputs against them (tests/check_json_schema.py).
"""
import json
import re
import sys

IDENT = re.compile(r"^[a-z_][a-z0-9_]*$")


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def infer(values, depth, required_here):
    kinds = sorted({kind(v) for v in values})
    if "number" in kinds and "integer" in kinds:
        kinds.remove("integer")
    if kinds == ["null"]:  # (only null seen: what it holds otherwise is not known from the samples)
        return {"description": "null in the samples; other values are not constrained"}
    out = {"type": kinds[0] if len(kinds) == 1 else kinds}
    objects = [v for v in values if isinstance(v, dict)]
    if objects:
        keys = sorted({k for o in objects for k in o})
        if keys and not all(IDENT.match(k) for k in keys):
            out["additionalProperties"] = infer([x for o in objects for x in o.values()], depth + 1, False)
        else:
            out["properties"] = {k: infer([o[k] for o in objects if k in o], depth + 1, False) for k in keys}
            if required_here:
                req = [k for k in keys if all(k in o for o in objects)]
                if req:
                    out["required"] = req
    arrays = [v for v in values if isinstance(v, list)]
    if arrays:
        items = [x for a in arrays for x in a]
        if items:
            out["items"] = infer(items, depth + 1, depth <= 1)
    return out


def main():
    title, description, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    samples = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            samples.append(json.load(f))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
              "description": description}
    schema.update(infer(samples, 0, True))
    json.dump(schema, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
