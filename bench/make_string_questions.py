#!/usr/bin/env python3
"""Questions about a STRING network with answers taken from the network itself, one set per
intent grappi ask recognises, for `grappi eval qa`.

From a STRING links file (physical or full, `protein1 protein2 combined_score`, 0-1000) or a
STRING website export (scores 0-1), its protein.info file (names and annotation texts) and,
optionally, its aliases file (systematic names):

  partners   "Which proteins interact with X?"            gold: X's partners with score >= --partner-score
  connects   "What connects A and B?"                     gold: A's and B's common partners, both edges >= --min-score
  class      "Which kinases interact with X?"             gold: X's partners (>= --min-score) of the class by their
                                                           EC numbers (the aliases file's KEGG_EC and UniProt EC
                                                           entries: kinases EC 2.7 but 2.7.7/2.7.8, phosphatases
                                                           3.1.3, ubiquitin ligases 2.3.2.26/27/31-33, helicases
                                                           3.6.4.12/13 and 5.6.2, GTPases 3.6.5): a source
                                                           independent of the annotation texts grappi reads
  topic      "Which proteins involved in DNA repair interact with X?"
                                                          gold: X's partners (>= --min-score) whose annotation
                                                           names the topic (the text grappi reads: a check of
                                                           the question's reading and the ranking, not of
                                                           knowledge)

Each intent is asked in several phrasings (--phrasings dev: the phrasings the rules were written
against; heldout: phrasings written afterwards, never used to tune anything; all: both), and
each protein is written as the question would write it: its preferred name in upper case, in
lower case, capitalised, yeast's protein style ("Cdc28p"), or its systematic (ordered locus)
name from the aliases file. Nobody chose an answer: they are the network's edges and
annotations.

    python3 bench/make_string_questions.py data/4932.protein.physical.links.v12.0.txt.gz \
        data/4932.protein.info.v12.0.txt.gz --aliases data/4932.protein.aliases.v12.0.txt.gz > qa_yeast.jsonl

--phrasings and --proteins split a set for training the graph reader: train on the dev
phrasings of 80% of the proteins, test on the held-out phrasings of the other 20%.

Each line: {"id", "question", "answers": [preferred names], "set", "intent", "phrasing",
"entities", "written"}; "intent" is the intent the question asks as grappi names it (a topic
question is of intent "class"; eval qa reports how often grappi recognised it), "set" which of
the four sets above it belongs to.
"""
import argparse
import collections
import csv
import gzip
import json
import random
import re
import sys
import types
import zlib

DEV = {
    "partners": [
        "Which proteins interact with {X}?",
        "What are the interaction partners of {X}?",
        "List the physical interactors of {X}.",
        "What does {X} interact with?",
        "Which proteins bind {X}?",
    ],
    "connects": [
        "What connects {A} and {B}?",
        "Which proteins interact with both {A} and {B}?",
        "What are the common interaction partners of {A} and {B}?",
        "Which proteins link {A} to {B}?",
    ],
    "class": [
        "Which {cls} interact with {X}?",
        "Which {cls} bind {X}?",
        "What {cls} are interaction partners of {X}?",
        "Which of the partners of {X} are {cls}?",
    ],
    "topic": [
        "Which proteins involved in {T} interact with {X}?",
        "Which interaction partners of {X} are involved in {T}?",
    ],
}
HELDOUT = {
    "partners": [
        "Name the binding partners of {X}.",
        "{X} interacts with which proteins?",
        "Find proteins that physically associate with {X}.",
        "Who are the interactors of {X}?",
        "Show me proteins that form complexes with {X}",
    ],
    "connects": [
        "Which proteins bridge {A} and {B}?",
        "What do {A} and {B} have in common?",
        "Find the shared interactors of {A} and {B}.",
        "Which proteins are linked to both {A} and {B}?",
    ],
    "class": [
        "List {cls} that interact with {X}.",
        "Are there {cls} among the binding partners of {X}? Which?",
        "Name the {cls} that associate with {X}.",
        "{X} interacts with which {cls}?",
    ],
    "topic": [
        "List partners of {X} that take part in {T}.",
        "Which {X} interactors function in {T}?",
    ],
}

# Written after the rules, measured once and never used to change them (BENCHMARKS.md).
FRESH = {
    "partners": [
        "Tell me which proteins {X} binds.",
        "Which gene products are reported to associate with {X}?",
        "Get the interactome of {X}.",
        "What are {X}'s direct interactors?",
        "{X} binding partners?",
    ],
    "connects": [
        "Which proteins sit between {A} and {B} in the network?",
        "What proteins do {A} and {B} share as partners?",
        "Are there proteins that interact with {A} as well as {B}?",
        "Name proteins connecting {A} with {B}.",
    ],
    "class": [
        "Among {X}'s partners, which ones are {cls}?",
        "Show the {cls} in {X}'s interaction neighbourhood.",
        "Which {cls} does {X} interact with?",
        "Find {cls} that bind to {X}.",
    ],
    "topic": [
        "Which proteins that work in {T} does {X} bind?",
        "Among the interactors of {X}, which are related to {T}?",
    ],
}

# A second round, written after the first fresh round's two fixes; measured once.
FRESH2 = {
    "partners": [
        "Please list every known interactor of {X}.",
        "I need the proteins that {X} physically contacts.",
        "What does {X} bind to?",
        "Which proteins co-purify with {X}?",
    ],
    "connects": [
        "Which partners do {A} and {B} have in common?",
        "What links {A} to {B}?",
        "Through which proteins are {A} and {B} connected?",
        "Give the mutual interactors of {A} and {B}.",
    ],
    "class": [
        "Does {X} interact with any {cls}? Name them.",
        "Which {cls} associate with {X}?",
        "Report the {cls} among {X} interactors.",
    ],
    "topic": [
        "Which {X} partners participate in {T}?",
        "What proteins involved in {T} bind {X}?",
    ],
}

# Classes: the plural asked and its members' EC numbers (prefixes).
CLASSES = [("kinases", lambda ec: ec.startswith("2.7.") and not ec.startswith(("2.7.7.", "2.7.8."))),
           ("phosphatases", lambda ec: ec.startswith("3.1.3.")),
           ("ubiquitin ligases", lambda ec: ec in ("2.3.2.26", "2.3.2.27", "2.3.2.31", "2.3.2.32", "2.3.2.33")),
           ("helicases", lambda ec: ec in ("3.6.4.12", "3.6.4.13") or ec.startswith("5.6.2.")),
           ("GTPases", lambda ec: ec.startswith("3.6.5."))]
TOPICS = ["DNA repair", "autophagy", "ribosome biogenesis", "mRNA splicing", "endocytosis", "meiosis",
          "DNA replication", "chromatin remodeling", "protein folding", "mitochondrial translation",
          "vesicle transport", "cell wall", "nuclear pore", "proteasome", "spindle pole body", "tRNA"]


def opener(path):
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def read_links(path):
    """(a, b) -> score on 0-1000, both directions."""
    score = {}
    with opener(path) as f:
        first = f.readline()
        export = first.startswith("#node1")
        for line in f:
            row = line.rstrip("\n").split("\t" if export else " ")
            if len(row) < 3:
                continue
            a, b = (row[2], row[3]) if export else (row[0], row[1])
            s = float(row[-1]) * (1000 if export else 1)
            score[a, b] = score[b, a] = max(s, score.get((a, b), 0))
    return score


def read_info(path):
    name, annotation = {}, {}
    with opener(path) as f:
        for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if not row or row[0].startswith("#"):
                continue
            name[row[0]] = row[1]
            annotation[row[0]] = row[3] if len(row) > 3 else ""
    return name, annotation


def read_systematic(path):
    """protein -> its ordered locus name (yeast's YBR160W), from the aliases file."""
    out = {}
    if not path:
        return out
    with opener(path) as f:
        for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(row) >= 3 and not row[0].startswith("#") and "UniProt_OrderedLocusNames" in row[2]:
                out.setdefault(row[0], row[1])
    return out


def read_ec(path):
    """protein -> its EC numbers, from the aliases file."""
    out = collections.defaultdict(set)
    if not path:
        return out
    with opener(path) as f:
        for row in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(row) >= 3 and not row[0].startswith("#") and ("KEGG_EC" in row[2] or "UniProt_DE" in row[2] and "_EC" in row[2]):
                ec = row[1].replace("EC ", "").strip()
                if re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9n-]+", ec):
                    out[row[0]].add(ec)
    return out


def written(protein, name, systematic, style):
    n = name[protein]
    if style == "upper":
        return n.upper()
    if style == "lower":
        return n.lower()
    if style == "capital":
        return n[:1].upper() + n[1:].lower()
    if style == "yeast":
        return n[:1].upper() + n[1:].lower() + "p"
    if style == "systematic":
        return systematic.get(protein, n)
    return n


def load_network(a):
    """The network and the proteins to ask about, from the arguments both generators share (links, info,
    aliases, proteins, test_share): names, annotations, systematic names, EC numbers, partners by score,
    the proteins with a name of their own (askable), those of the split asked for (first) and the ways
    to write them (styles)."""
    score = read_links(a.links)
    name, annotation = read_info(a.info)
    systematic = read_systematic(a.aliases)
    ec = read_ec(a.aliases)
    partners = collections.defaultdict(dict)
    for (x, y), s in score.items():
        if x in name and y in name and x != y:
            partners[x][y] = s
    proteins = sorted(partners)
    # Names that several proteins share are no way to ask about one of them.
    name_count = collections.Counter(n.lower() for n in name.values())
    askable = [p for p in proteins if name_count[name[p].lower()] == 1 and not re.fullmatch(r"[0-9.]+", name[p])]
    in_test = lambda p: zlib.crc32(name[p].encode()) % 1000 < a.test_share * 1000
    first = askable if a.proteins == "all" else [p for p in askable if in_test(p) == (a.proteins == "test")]
    styles = ["upper", "lower", "capital"] + (["yeast"] if proteins and proteins[0].startswith("4932.") else []) + (
        ["systematic"] if systematic else [])
    return types.SimpleNamespace(name=name, annotation=annotation, systematic=systematic, ec=ec, partners=partners,
                                 proteins=proteins, askable=askable, first=first, styles=styles)


def pick_style(rng, styles, systematic, protein):
    """A way to write the protein, drawn from `styles` (its systematic name only when it has one)."""
    st = rng.choice(styles)
    return st if st != "systematic" or protein in systematic else "upper"


def write_questions(out, prefix):
    """The questions as JSON lines on standard output, numbered with `prefix`; their count per set on
    standard error."""
    for i, q in enumerate(out, 1):
        q["id"] = f"{prefix}{i}"
        sys.stdout.write(json.dumps(q) + "\n")
    counts = collections.Counter(q["set"] for q in out)
    print(f"{len(out)} questions: " + ", ".join(f"{k} {v}" for k, v in counts.items()), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("links")
    ap.add_argument("info")
    ap.add_argument("--aliases", help="the aliases file (systematic names)")
    ap.add_argument("--partner-score", type=float, default=900, help="gold partners of partners questions (0-1000)")
    ap.add_argument("--min-score", type=float, default=700, help="edges of the other intents' gold (0-1000)")
    ap.add_argument("--per-intent", type=int, default=60)
    ap.add_argument("--phrasings", choices=["dev", "heldout", "all", "fresh", "fresh2"], default="all",
                    help="fresh, fresh2: phrasings written after the rules, each round measured once (BENCHMARKS.md)")
    ap.add_argument("--intents", default="partners,connects,class,topic")
    ap.add_argument("--proteins", choices=["all", "train", "test"], default="all",
                    help="split by protein: the questions whose first protein falls in the test share (a stable hash of "
                         "its name) or the others")
    ap.add_argument("--test-share", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    n = load_network(a)
    name, annotation, systematic, ec = n.name, n.annotation, n.systematic, n.ec
    partners, proteins, askable, first, styles = n.partners, n.proteins, n.askable, n.first, n.styles
    first_set = set(first)
    phr = {"dev": [DEV], "heldout": [HELDOUT], "all": [DEV, HELDOUT], "fresh": [FRESH], "fresh2": [FRESH2]}[a.phrasings]
    wanted = a.intents.split(",")
    out = []

    def phrasing(intent):
        group = {id(DEV): "dev", id(HELDOUT): "heldout", id(FRESH): "fresh", id(FRESH2): "fresh2"}
        pool = [(group[id(p)], i, t) for p in phr for i, t in enumerate(p[intent])]
        return rng.choice(pool)

    def style_of(p):
        return pick_style(rng, styles, systematic, p)

    def emit(intent, gold, fields, prot):
        where, k, template = phrasing(intent)
        texts, shown = {}, []
        for key, p in prot.items():
            st = style_of(p)
            texts[key] = written(p, name, systematic, st)
            shown.append(st)
        q = template.format(**texts, **fields)
        out.append({"question": q, "answers": sorted(name[g] for g in gold), "set": intent,
                    "intent": "class" if intent == "topic" else intent,
                    "phrasing": f"{where}-{intent}-{k}", "entities": [name[p] for p in prot.values()],
                    "written": shown})

    if "partners" in wanted:
        pool = [p for p in first if any(s >= a.partner_score for s in partners[p].values())]
        for p in rng.sample(pool, min(a.per_intent, len(pool))):
            emit("partners", [q for q, s in partners[p].items() if s >= a.partner_score], {}, {"X": p})
    if "connects" in wanted:
        pairs, tries = set(), 0
        while len(pairs) < a.per_intent and tries < 200000:
            tries += 1
            m = rng.choice(askable)  # a middle protein, then two of its partners
            strong = sorted(q for q, s in partners[m].items() if s >= a.min_score and q in askable)
            if len(strong) < 2:
                continue
            x, y = rng.sample(strong, 2)
            if x not in first_set:
                continue
            common = [c for c in partners[x] if partners[x][c] >= a.min_score and partners[y].get(c, 0) >= a.min_score
                      and c not in (x, y)]
            if 1 <= len(common) <= 15 and (x, y) not in pairs and (y, x) not in pairs:
                pairs.add((x, y))
                emit("connects", common, {}, {"A": x, "B": y})
    if "class" in wanted and ec:
        items = []
        for p in first:
            strong = [q for q, s in partners[p].items() if s >= a.min_score]
            for plural, member in CLASSES:
                members = [q for q in strong if any(member(e) for e in ec.get(q, ()))]
                if members and len(members) < len(strong):
                    items.append((p, plural, members))
        rng.shuffle(items)
        # Kinases first: the question the issue names; then the other classes.
        items.sort(key=lambda t: t[1] != "kinases")
        kin = [t for t in items if t[1] == "kinases"][: a.per_intent * 2 // 3]
        other = [t for t in items if t[1] != "kinases"][: a.per_intent - len(kin)]
        for p, plural, members in kin + other:
            emit("class", members, {"cls": plural}, {"X": p})
    if "topic" in wanted:
        items = []
        for p in first:
            strong = [q for q, s in partners[p].items() if s >= a.min_score]
            for t in TOPICS:
                members = [q for q in strong if t.lower() in annotation.get(q, "").lower()]
                if members and len(members) < len(strong):
                    items.append((p, t, members))
        rng.shuffle(items)
        for p, t, members in items[: a.per_intent]:
            emit("topic", members, {"T": t}, {"X": p})
    write_questions(out, "q")


if __name__ == "__main__":
    main()
