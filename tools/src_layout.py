#!/usr/bin/env python3
"""The folders of src/ and the layers they form, bottom to top (tools/check_layers.py reads them).

A source may include its own folder's headers and those of folders on lower layers; the agents'
folders (agents/<name>) are one layer and include none of each other.
"""

# Layers, bottom to top: each a list of folders under src/.
LAYERS = [
    ["common"],      # errors, text, JSON, parallel loops, file reading, HTTP, hashing
    ["formats"],     # readers and writers of files (BEL, CX2, papers, MITAB, OBO)
    ["store"],       # SQLite, schema, the knowledge graph and its snapshot, import, export, names
    ["retrieval"],   # embeddings, vector index, windows, paths, PageRank, PCST
    ["analysis"],    # functional enrichment, network enrichment, clusters
    ["models"],      # language models, prompts, the budgeted and cached model calls
    ["agents/explore", "agents/ground", "agents/extract", "agents/literature", "agents/ask"],
    ["eval"],        # the agents' evaluations against curated labels
    ["report"],      # HTML reports and their views
    ["service"],     # the MCP server: the library's functions as tools for language-model clients
]

# Public headers (include/grappi/) by the folder that implements them.
PUBLIC = {
    "error.hpp": "common", "types.hpp": "common", "json_text.hpp": "common",
    "export.h": "common", "version.h": "common", "files.hpp": "common",
    "documents.hpp": "formats", "bel.hpp": "formats", "bel_json.hpp": "formats",
    "knowledge_graph.hpp": "store", "snapshot.hpp": "store", "import.hpp": "store",
    "graph_export.hpp": "store", "ontology.hpp": "store", "entities.hpp": "store", "store_json.hpp": "store",
    "retriever.hpp": "retrieval", "pcst.hpp": "retrieval", "vector_index.hpp": "retrieval", "retrieval_json.hpp": "retrieval",
    "embedding.hpp": "retrieval", "graph_embeddings.hpp": "retrieval", "embed_parts.hpp": "retrieval",
    "enrichment.hpp": "analysis", "clustering.hpp": "analysis",
    "llm.hpp": "models", "run_control.hpp": "models",
    "pipeline.hpp": "agents/explore",
    "grounding.hpp": "agents/ground",
    "extraction.hpp": "agents/extract",
    "cooccurrence.hpp": "agents/literature", "hypothesis.hpp": "agents/literature",
    "path_ranker.hpp": "agents/literature",
    "answer.hpp": "agents/ask", "communities.hpp": "agents/ask", "question.hpp": "agents/ask", "reader.hpp": "agents/ask",
    "html_report.hpp": "report",
    "mcp.hpp": "service",
}

# Arrows that still run up, each with the reason and the issue that removes it. The check
# fails on any other, and on an entry here that no longer occurs (so the list only shrinks).
KNOWN_UPWARD = {
}
