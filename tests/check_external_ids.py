#!/usr/bin/env python3
"""Every JSON output that names a node gives its stable external id (docs/schemas/README.md).

Walks every JSON Schema in docs/schemas and fails, naming the schema and the path, where an
object names a node by row id without its external id beside it, as a required field:
- an integer `id` needs `external_id` (an object whose integer `id` is no node is listed below);
- an integer `node` needs a string `id` or `external_id`;
- `parent_id` needs `parent_external_id`;
- an array of row ids (`nodes`, `node_ids`) or of node names (`names`, `proteins`) needs
  `external_ids`, `seeds` needs
  `seed_external_ids`, an array of paths of row ids (`paths`) needs `path_external_ids`;
- an edge naming its ends by name (`source` and `target` strings beside `edge_id` or
  `relation`) needs `source_external_id` and `target_external_id`; a `root` name needs
  `root_external_id`.

    python3 tests/check_external_ids.py docs/schemas
"""
import glob
import json
import os
import sys

# Integer ids that are no node: (schema, path of the object).
NOT_NODES = {
    ("explore", "/provenance/datasets[]"): "a dataset",
    ("info", "/datasets[]"): "a dataset",
    ("hypothesize", "/paths[]/edges[]"): "an edge (its ends are the path's nodes)",
    ("cluster", "/clusters[]"): "a cluster (its index; its members are external ids)",
    ("explore", "/clusters[]"): "a cluster (its index; its members are external ids)",
}
# A `root` that is itself an external id: (schema, path of the object).
ROOT_IS_ID = {("ground", ""): "the ontology subtree's root term id (MI:0190)"}
# Arrays named `proteins` or `names` that hold external ids themselves: (schema, path of the object).
IDS_THEMSELVES = {("enrich", ""): "the set's proteins by external id",
                  ("enrich", "/terms[]"): "a term's proteins by external id",
                  ("ppi-enrichment", ""): "the set's proteins by external id",
                  ("cluster", "/clusters[]"): "names beside members, the same nodes' external ids in the same order",
                  ("cluster", "/clusters[]/terms[]"): "a term's proteins by external id",
                  ("explore", "/windows[]/terms[]"): "a term's proteins by external id",
                  ("communities", "/reports[]"): "names beside members, the same nodes' external ids in the same order"}
# Arrays of row ids (`nodes`) beside another field holding the same nodes' external ids: (schema, path of the object).
ROW_IDS_BESIDE = {("communities", "/reports[]"): "members: the same nodes' external ids in the same order"}


def types(x):
    t = x.get("type") if isinstance(x, dict) else None
    return set(t) if isinstance(t, list) else {t}


def integer_array(x, depth=1):
    for _ in range(depth):
        if "array" not in types(x):
            return False
        x = x.get("items", {})
    return "integer" in types(x)


def check(name, schema):
    problems = []

    def need(path, obj, field, why, named_by):
        # (required when the field naming the node is: an optional one may go with its id)
        props, required = obj.get("properties", {}), obj.get("required", [])
        if field not in props:
            problems.append(f"{name}: {path or '/'}: {why} without '{field}'")
        elif field not in required and named_by in required:
            problems.append(f"{name}: {path or '/'}: '{field}' is not required, '{named_by}' is")

    def walk(x, path):
        if not isinstance(x, dict):
            return
        props = x.get("properties", {})
        if props:
            if "integer" in types(props.get("id", {})) and (name, path) not in NOT_NODES:
                need(path, x, "external_id", "an integer id", "id")
            if "integer" in types(props.get("node", {})) and "string" not in types(props.get("id", {})):
                need(path, x, "external_id", "a node's row id", "node")
            if "parent_id" in props:
                need(path, x, "parent_external_id", "a parent's row id", "parent_id")
            for field, ids in (("nodes", "external_ids"), ("node_ids", "external_ids"), ("seeds", "seed_external_ids")):
                if field in props and integer_array(props[field]) and (name, path) not in ROW_IDS_BESIDE:
                    need(path, x, ids, f"an array of row ids '{field}'", field)
            for field in ("names", "proteins"):
                if field in props and "string" in types(props[field].get("items", {})) and \
                        (name, path) not in IDS_THEMSELVES:
                    need(path, x, "external_ids", f"an array of node names '{field}'", field)
            if "paths" in props and integer_array(props["paths"], 2):
                need(path, x, "path_external_ids", "paths of row ids", "paths")
            if ("string" in types(props.get("source", {})) and "string" in types(props.get("target", {})) and
                    ("edge_id" in props or "relation" in props)):
                need(path, x, "source_external_id", "an edge's source by name", "source")
                need(path, x, "target_external_id", "an edge's target by name", "target")
            if "string" in types(props.get("root", {})) and (name, path) not in ROOT_IS_ID:
                need(path, x, "root_external_id", "a root by name", "root")
        for k, v in props.items():
            walk(v, f"{path}/{k}")
        if isinstance(x.get("items"), dict):
            walk(x["items"], path + "[]")
        if isinstance(x.get("additionalProperties"), dict):
            walk(x["additionalProperties"], path + "{}")
        for k in ("oneOf", "anyOf", "allOf"):
            for v in x.get(k, []):
                walk(v, path)
        for k, v in x.get("$defs", {}).items():
            walk(v, f"#{k}")

    walk(schema, "")
    return problems


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "docs/schemas"
    files = sorted(glob.glob(os.path.join(folder, "*.schema.json")))
    if not files:
        sys.exit(f"no schemas in {folder}")
    problems = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            problems += check(os.path.basename(f)[: -len(".schema.json")], json.load(fh))
    for p in problems:
        print(p)
    print(f"{len(files)} schemas, {len(problems)} node(s) named without an external id")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
