#!/usr/bin/env python3
"""Questions of every answer form `grappi ask` reads (docs/ask.md "Question forms"), with answers taken
from a STRING network itself, for `grappi eval qa`:

  yes_no       "Does A interact with B?"                         gold: true when an edge of score >= 400 joins
                                                                  them, false when none does (no edge, or one
                                                                  below 400: STRING's medium confidence)
  count        "How many proteins interact with X with high confidence?"
                                                                  gold: X's partners at the confidence the
                                                                  question states (low 150, medium 400, high 700,
                                                                  highest 900; medium when it states none)
  exclusion    "Which partners of X are not kinases?"            gold: X's partners (>= --min-score) that are no
                                                                  kinase by their EC numbers (the aliases file:
                                                                  a source grappi does not read)
  path         "How is A connected to B through high-confidence interactions?"
                                                                  gold: the inner proteins of the routes of at
                                                                  most three edges, every edge >= 700, between
                                                                  two proteins no shorter such route joins (and
                                                                  that a shorter route of weaker edges joins:
                                                                  the trap the confidence words avoid)
  unsupported  "What is the molecular weight of X?"              a question no form answers: right when the
                                                                  answer says it cannot answer

Each form is asked in several phrasings, in rounds: --phrasings dev (what the rules were written and fixed
against), heldout (written with dev, before the rules), fresh, fresh2 ... fresh11 (each written after the previous
round's fixes). Each round was measured once, first, before anything it showed was fixed (BENCHMARKS.md gives
those first figures); after that it is tuning material like dev. "all": every round. --proteins splits by
protein as bench/make_string_questions.py does.

    python3 bench/make_form_questions.py data/4932.protein.physical.links.v12.0.txt.gz \\
        data/4932.protein.info.v12.0.txt.gz --aliases data/4932.protein.aliases.v12.0.txt.gz > qa_forms.jsonl

Each line: {"id", "question", "kind", "form", "answers", "set", "phrasing", "entities", "written"} (and for
exclusion questions "excluded": X's partners of the excluded class, at any score); count
questions are of kind "count", yes/no ones "true_false", unsupported ones "unsupported".
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_string_questions import CLASSES, load_network, pick_style, write_questions, written  # noqa: E402

DEV = {
    "yes_no": [
        "Does {A} interact with {B}?",
        "Is there an interaction between {A} and {B}?",
        "Do {A} and {B} interact?",
        "Does {A} bind {B}?",
        "{A} interacts with {B}: true or false?",
    ],
    "count": [
        ("How many proteins interact with {X} with high confidence?", 700),
        ("How many interaction partners does {X} have?", 400),
        ("What is the number of proteins that bind {X} with the highest confidence?", 900),
        ("How many proteins interact with {X} at low confidence?", 150),
    ],
    "exclusion": [
        "Which partners of {X} are not kinases?",
        "Which non-kinase proteins interact with {X}?",
        "List the partners of {X} other than kinases.",
    ],
    "path": [
        "How is {A} connected to {B} through high-confidence interactions?",
        "What is the high-confidence path from {A} to {B}?",
        "How does {A} reach {B} through interactions of high confidence?",
    ],
    "unsupported": [
        "What is the molecular weight of {X}?",
        "When was {X} discovered?",
        "Which drugs target {X}?",
        "What is the three-dimensional structure of {X}?",
        "In which tissues is {X} expressed?",
    ],
}
HELDOUT = {
    "yes_no": [
        "Is {A} an interaction partner of {B}?",
        "Are {A} and {B} known to interact?",
        "Can {A} bind to {B}?",
        "Is it true that {A} interacts with {B}?",
    ],
    "count": [
        ("How many high-confidence partners does {X} have?", 700),
        ("Count the proteins interacting with {X} at medium confidence.", 400),
        ("What number of proteins does {X} interact with at the highest confidence?", 900),
    ],
    "exclusion": [
        "Which proteins apart from kinases bind {X}?",
        "Name the interactors of {X} that aren't kinases.",
        "Which of {X}'s partners are not kinases?",
    ],
    "path": [
        "Through which high-confidence interactions is {A} linked to {B}?",
        "Show the route from {A} to {B} over high-confidence interactions.",
        "How is {A} connected to {B} with high confidence?",
    ],
    "unsupported": [
        "What is the half-life of {X}?",
        "Who first cloned {X}?",
        "Which mutations in {X} cause disease?",
        "What is the amino acid sequence of {X}?",
    ],
}

# Written after the held-out round's fixes (BENCHMARKS.md), before measuring them; measured once.
FRESH = {
    "yes_no": [
        "Has an interaction between {A} and {B} been reported?",
        "Does {B} associate with {A}?",
        "Would {A} bind {B}?",
        "{A} and {B}: do they interact?",
    ],
    "count": [
        ("How many partners does {X} have with a high confidence score?", 700),
        ("Give the number of {X} interactors with at least medium confidence.", 400),
        ("How many proteins are linked to {X} at the highest confidence level?", 900),
        ("How many low-confidence interactions does {X} have?", 150),
    ],
    "exclusion": [
        "List {X} partners excluding kinases.",
        "Which interactors of {X} are non-kinases?",
        "Apart from kinases, what binds {X}?",
        "What proteins except kinases does {X} interact with?",
    ],
    "path": [
        "Via which high-confidence interactions can {A} reach {B}?",
        "Find a high-confidence route between {A} and {B}.",
        "How are {A} and {B} linked through confident interactions?",
    ],
    "unsupported": [
        "What is the isoelectric point of {X}?",
        "Which KEGG pathways include {X}?",
        "How is {X} regulated transcriptionally?",
        "What phenotype does deleting {X} cause?",
    ],
}

# Written after the fresh round's fixes, before measuring them; measured once.
FRESH2 = {
    "yes_no": [
        "Could {A} physically interact with {B}?",
        "Tell me whether {A} interacts with {B}.",
        "Is {B} among the interactors of {A}?",
        "Do {A} and {B} associate with each other?",
    ],
    "count": [
        ("How many partners with high-confidence evidence does {X} have?", 700),
        ("What's the total number of interaction partners of {X}?", 400),
        ("Number of proteins interacting with {X} at the highest confidence?", 900),
    ],
    "exclusion": [
        "Other than kinases, which proteins interact with {X}?",
        "Give me the partners of {X}, but not the kinases.",
        "Which {X} interactors are not protein kinases?",
    ],
    "path": [
        "Is there a high-confidence path from {A} to {B}? Show it.",
        "Which proteins connect {A} to {B} through high-confidence interactions?",
        "What is the strongest route from {A} to {B} using high-confidence interactions?",
    ],
    "unsupported": [
        "What is the subcellular localization of {X} in neurons?",
        "Which antibodies recognize {X}?",
        "When is {X} expressed during the cell cycle?",
        "What is the evolutionary origin of {X}?",
    ],
}

# Written after the second fresh round's fixes, before measuring them; measured once.
FRESH3 = {
    "yes_no": [
        "Is an interaction between {A} and {B} known?",
        "Do we know of any interaction of {A} with {B}?",
        "{A} binds {B}, right?",
        "Are {A} and {B} interaction partners?",
    ],
    "count": [
        ("How many binding partners of {X} have a score of at least 0.7?", 700),
        ("How many proteins does {X} physically interact with?", 400),
        ("In total, how many high-confidence interactors does {X} have?", 700),
        ("How many proteins interact with {X} with very high confidence?", 900),
    ],
    "exclusion": [
        "Which partners of {X} are not kinases themselves?",
        "Show non-kinase interactors of {X}.",
        "Except for kinases, what does {X} bind?",
    ],
    "path": [
        "How can {A} be linked to {B} by high-confidence interactions?",
        "Trace a high-confidence path between {A} and {B}.",
        "What high-confidence interaction chain connects {A} and {B}?",
    ],
    "unsupported": [
        "What is the crystal structure resolution of {X}?",
        "What is the copy number of {X} per cell?",
        "How stable is {X}?",
        "What disease is associated with {X}?",
    ],
}

# Written after the third fresh round's fix, before measuring it; measured once.
FRESH4 = {
    "yes_no": [
        "I'd like to know if {A} and {B} interact.",
        "Is {A} known to bind {B}?",
        "Any evidence that {A} interacts with {B}?",
        "Check whether {A} is a binding partner of {B}.",
    ],
    "count": [
        ("How many interactors does {X} have at a confidence of 0.9 or more?", 900),
        ("How many direct binding partners does {X} have?", 400),
        ("Please count the high confidence interaction partners of {X}.", 700),
    ],
    "exclusion": [
        "Which interaction partners of {X} are not classified as kinases?",
        "Name {X}'s binding partners, leaving out kinases.",
        "Which proteins that are not kinases interact with {X}?",
    ],
    "path": [
        "Connect {A} to {B} using only high-confidence interactions.",
        "Is there a chain of high-confidence interactions from {A} to {B}?",
        "Which high-confidence interactions lead from {A} to {B}?",
    ],
    "unsupported": [
        "What is the Km of {X} for its substrate?",
        "Which residues of {X} are phosphorylated?",
        "What does the {X} knockout mouse look like?",
        "Why is {X} essential?",
    ],
}

# Written after the fourth fresh round's fixes, before measuring them; measured once.
FRESH5 = {
    "yes_no": [
        "Is there evidence for a physical interaction between {A} and {B}?",
        "Does {A} form a complex with {B}?",
        "{A} - {B}: interaction or not?",
        "Has {A} been shown to interact with {B}?",
    ],
    "count": [
        ("How many interaction partners are listed for {X}?", 400),
        ("How many proteins have a high-confidence interaction with {X}?", 700),
        ("For {X}, how many partners reach the highest confidence?", 900),
    ],
    "exclusion": [
        "List the interactors of {X}, kinases excluded.",
        "Which {X} partners are something other than a kinase?",
        "Which proteins except kinases are partners of {X}?",
    ],
    "path": [
        "By which high-confidence interactions is {A} tied to {B}?",
        "Show me how {A} connects to {B} through high-confidence edges.",
        "Which intermediates join {A} and {B} with high confidence?",
    ],
    "unsupported": [
        "What is the enzymatic activity of {X} in vitro?",
        "How old is the gene {X}?",
        "Which labs study {X}?",
        "What is the pI of {X}?",
    ],
}

# (written after fresh5's fixes, measured once)
FRESH6 = {
    "yes_no": [
        "Do {A} and {B} physically associate?",
        "Are {A} and {B} known interaction partners?",
        "Is {B} a binding partner of {A}?",
        "Could {A} be interacting with {B}?",
        "Any evidence that {A} binds {B}?",
    ],
    "count": [
        ("What's the number of high-confidence partners of {X}?", 700),
        ("How many medium-confidence interactors does {X} have?", 400),
        ("Give me the count of {X} interactors with a combined score of at least 0.9", 900),
        ("How many proteins does {X} talk to?", 400),
    ],
    "exclusion": [
        "Which interactors of {X} are not protein kinases?",
        "Show the partners of {X} but leave out the kinases.",
        "What does {X} bind, excluding kinases?",
    ],
    "path": [
        "Trace a high-confidence route from {A} to {B}.",
        "Through which proteins is {A} linked to {B} at high confidence?",
        "What is the chain of high-confidence interactions between {A} and {B}?",
    ],
    "unsupported": [
        "What is the half-life of {X}?",
        "In which tissues is {X} most highly expressed?",
        "What is the crystal structure resolution of {X}?",
        "Which mutations in {X} cause disease?",
    ],
}

# (written after fresh6's fixes, before measuring them; measured once)
FRESH7 = {
    "yes_no": [
        "Is {A} known to interact with {B}?",
        "Do {A} and {B} bind each other?",
        "Can {A} bind to {B}?",
        "Is {A} an interactor of {B}?",
        "Does {A} associate with {B}?",
    ],
    "count": [
        ("How many high confidence interactors of {X} are there?", 700),
        ("Count the proteins that interact with {X}.", 400),
        ("How many binding partners does {X} have with a score of at least 0.7?", 700),
        ("Number of {X} interaction partners at the highest confidence?", 900),
    ],
    "exclusion": [
        "Apart from kinases, what does {X} interact with?",
        "Name the non-kinase interactors of {X}.",
        "Which proteins bind {X} and are not kinases?",
        "List {X}'s partners other than kinases.",
    ],
    "path": [
        "How does {A} link to {B} via high-confidence interactions?",
        "What high-confidence path connects {A} with {B}?",
        "Find the proteins bridging {A} and {B} with high-confidence links.",
        "Connect {A} to {B} using only high-confidence interactions.",
    ],
    "unsupported": [
        "What is the subcellular localization of {X}?",
        "When was {X} first cloned?",
        "What drugs target {X}?",
        "Is {X} conserved in plants?",
        "What is the amino acid length of {X}?",
    ],
}

# (written after fresh7 was measured, with no fix between; measured once)
FRESH8 = {
    "yes_no": [
        "{A} {B} interaction?",
        "Is it true that {A} binds {B}?",
        "Are {A} and {B} in contact physically?",
        "Do we have evidence of {A} interacting with {B}?",
    ],
    "count": [
        ("{X}: how many partners at high confidence?", 700),
        ("Tell me how many proteins {X} interacts with.", 400),
        ("How many interactions with a score of 0.9 or more does {X} have?", 900),
        ("What is the total number of partners of {X} at low confidence?", 150),
    ],
    "exclusion": [
        "{X} partners, no kinases please.",
        "Which of the proteins interacting with {X} are not kinases?",
        "Give the interactors of {X} except for the kinases.",
        "Besides kinases, which proteins interact with {X}?",
    ],
    "path": [
        "Is there a high-confidence path between {A} and {B}, and through which proteins?",
        "Which proteins mediate the high-confidence connection between {A} and {B}?",
        "Route from {A} to {B} over high-confidence interactions?",
        "Explain how {A} relates to {B} using only high-confidence edges.",
    ],
    "unsupported": [
        "What is the expression level of {X} in heat shock?",
        "Who discovered {X}?",
        "How is {X} regulated transcriptionally?",
        "What is the mass of {X} in daltons?",
    ],
}

# (written after fresh8's fix, before measuring; measured once)
FRESH9 = {
    "yes_no": [
        "Has an interaction between {A} and {B} been reported?",
        "{A} binds {B}, right?",
        "Would you say {A} interacts with {B}?",
        "Any evidence that {A} and {B} form a complex?",
        "Is {B} a partner of {A}?",
    ],
    "count": [
        ("How many proteins does {X} bind with high confidence?", 700),
        ("What's the number of {X} interactors?", 400),
        ("Give me the count of {X} partners above 0.9.", 900),
        ("{X} has how many interaction partners at medium confidence?", 400),
    ],
    "exclusion": [
        "Interactors of {X} excluding any kinase?",
        "Show {X} partners but leave out the kinases.",
        "What non-kinase proteins does {X} bind?",
        "Which partners of {X} aren't kinases?",
    ],
    "path": [
        "Through which proteins is {A} connected to {B} at high confidence?",
        "Shortest high-confidence route between {A} and {B}?",
        "Trace a high-confidence interaction path from {A} to {B}.",
        "What links {A} and {B} if only high-confidence interactions count?",
    ],
    "unsupported": [
        "What is the half-life of {X}?",
        "Which tissues express {X} most?",
        "What disease is caused by mutations in {X}?",
        "What is the crystal structure of {X}?",
    ],
}


FRESH10 = {
    "yes_no": [
        "Do {A} and {B} physically associate?",
        "Is there a known interaction of {A} with {B}?",
        "Does {A} pair with {B}?",
        "Can {A} bind to {B}?",
        "{A} and {B}: interacting or not?",
    ],
    "count": [
        ("How many high-confidence interactors has {X} got?", 700),
        ("Number of proteins interacting with {X}?", 400),
        ("Count the partners of {X} with a score of at least 0.7.", 700),
        ("In total, how many binding partners does {X} have?", 400),
    ],
    "exclusion": [
        "List {X}'s interactors other than kinases.",
        "Which {X} binders are not protein kinases?",
        "Partners of {X}, kinases excluded.",
        "Give the interactors of {X} that are not kinases, please.",
    ],
    "path": [
        "How does {A} reach {B} via high-confidence interactions?",
        "Find a chain of high-confidence interactions linking {A} to {B}.",
        "Which intermediates connect {A} with {B} at high confidence?",
        "Is there a high-confidence path from {A} to {B}, and through which proteins?",
    ],
    "unsupported": [
        "What is the subcellular localization of {X}?",
        "How abundant is {X} in yeast cells?",
        "Which drugs inhibit {X}?",
        "What post-translational modifications does {X} carry?",
    ],
}


# (written after fresh10's fix, before measuring; measured once)
FRESH11 = {
    "yes_no": [
        "Is {A} known to interact with {B}?",
        "Are {A} and {B} binding partners?",
        "Does {A} form a complex with {B}?",
        "Is {B} among the interactors of {A}?",
        "Any physical interaction between {A} and {B}?",
    ],
    "count": [
        ("How many interaction partners of {X} have high confidence?", 700),
        ("How many proteins are linked to {X}?", 400),
        ("What is the total number of {X} partners with a score above 0.7?", 700),
        ("Tell me how many interactors {X} has.", 400),
    ],
    "exclusion": [
        "Name the binding partners of {X} that are not kinases.",
        "Which proteins interact with {X}, leaving kinases aside?",
        "{X} interactors, no kinases please.",
        "Apart from kinases, what does {X} interact with?",
    ],
    "path": [
        "Which proteins lie on a high-confidence path between {A} and {B}?",
        "Connect {A} to {B} using only high-confidence interactions.",
        "What is the high-confidence route from {A} to {B}?",
        "Show how {A} and {B} are linked through high-confidence partners.",
    ],
    "unsupported": [
        "What is the melting temperature of {X}?",
        "Which chromosome carries the {X} gene?",
        "What phenotype does a {X} deletion strain show?",
        "How long is the {X} mRNA?",
    ],
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("links")
    ap.add_argument("info")
    ap.add_argument("--aliases", help="the aliases file (systematic names, EC numbers)")
    ap.add_argument("--min-score", type=float, default=700, help="the exclusion questions' gold partners (0-1000)")
    ap.add_argument("--per-form", type=int, default=60)
    ap.add_argument("--phrasings", choices=["dev", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "all"],
                    default="all",
                    help="fresh: a round written after the held-out round's fixes, measured once")
    ap.add_argument("--forms", default="yes_no,count,exclusion,path,unsupported")
    ap.add_argument("--proteins", choices=["all", "train", "test"], default="all")
    ap.add_argument("--test-share", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=13)
    a = ap.parse_args()

    rng = random.Random(a.seed)
    net = load_network(a)
    name, systematic, ec = net.name, net.systematic, net.ec
    partners, askable, first, styles = net.partners, net.askable, net.first, net.styles
    groups = {"dev": [("dev", DEV)], "heldout": [("heldout", HELDOUT)], "fresh": [("fresh", FRESH)],
              "fresh2": [("fresh2", FRESH2)], "fresh3": [("fresh3", FRESH3)],
              "fresh4": [("fresh4", FRESH4)], "fresh5": [("fresh5", FRESH5)], "fresh6": [("fresh6", FRESH6)], "fresh7": [("fresh7", FRESH7)],
              "fresh8": [("fresh8", FRESH8)], "fresh9": [("fresh9", FRESH9)],
              "fresh10": [("fresh10", FRESH10)], "fresh11": [("fresh11", FRESH11)],
              "all": [("dev", DEV), ("heldout", HELDOUT), ("fresh", FRESH), ("fresh2", FRESH2), ("fresh3", FRESH3),
                      ("fresh4", FRESH4), ("fresh5", FRESH5), ("fresh6", FRESH6), ("fresh7", FRESH7),
                      ("fresh8", FRESH8), ("fresh9", FRESH9), ("fresh10", FRESH10), ("fresh11", FRESH11)]}
    phr = groups[a.phrasings]
    wanted = a.forms.split(",")
    out = []

    def phrasing(form):
        pool = [(g, i, t) for g, p in phr for i, t in enumerate(p[form])]
        return rng.choice(pool)

    def style_of(p):
        return pick_style(rng, styles, systematic, p)

    def emit(form, kind, answers, prot, template, where, **extra):
        texts, shown = {}, []
        for key, p in prot.items():
            st = style_of(p)
            texts[key] = written(p, name, systematic, st)
            shown.append(st)
        out.append({"question": template.format(**texts), "kind": kind,
                    "form": {"exclusion": "list"}.get(form, form), "answers": answers, "set": form,
                    "phrasing": where, "entities": [name[p] for p in prot.values()], "written": shown, **extra})

    kinase = CLASSES[0][1]
    is_kinase = lambda p: any(kinase(e) for e in ec.get(p, ()))
    if "yes_no" in wanted:
        n, tries = 0, 0
        while n < a.per_form and tries < 100000:
            tries += 1
            x = rng.choice(first)
            kind = rng.random()
            if kind < 0.5:  # an edge at medium confidence or more: true
                strong = [q for q, s in partners[x].items() if s >= 400 and q in askable]
                if not strong:
                    continue
                y, gold = rng.choice(strong), "true"
            elif kind < 0.7:  # an edge below medium confidence: false
                weak = [q for q, s in partners[x].items() if s < 400 and q in askable]
                if not weak:
                    continue
                y, gold = rng.choice(weak), "false"
            else:  # no edge at all between two proteins that have some: false
                y = rng.choice(askable)
                if y == x or y in partners[x]:
                    continue
                gold = "false"
            g, k, t = phrasing("yes_no")
            emit("yes_no", "true_false", [gold], {"A": x, "B": y}, t, f"{g}-yes_no-{k}")
            n += 1
    if "count" in wanted:
        for x in rng.sample(first, min(a.per_form, len(first))):
            g, k, (t, threshold) = phrasing("count")
            count = sum(1 for s in partners[x].values() if s >= threshold)
            emit("count", "count", [str(count)], {"X": x}, t, f"{g}-count-{k}")
    if "exclusion" in wanted and ec:
        pool = []
        for x in first:
            strong = [q for q, s in partners[x].items() if s >= a.min_score]
            kin = [q for q in strong if is_kinase(q)]
            other = [q for q in strong if not is_kinase(q)]
            if kin and other:
                pool.append((x, other))
        for x, other in rng.sample(pool, min(a.per_form, len(pool))):
            g, k, t = phrasing("exclusion")
            kin = sorted(name[q] for q in partners[x] if is_kinase(q))
            emit("exclusion", "entities", sorted(name[q] for q in other), {"X": x}, t, f"{g}-exclusion-{k}", excluded=kin)
    if "path" in wanted:
        high = {p: {q for q, s in partners[p].items() if s >= 700} for p in partners}
        pairs, tries = set(), 0
        while len(pairs) < a.per_form and tries < 200000:
            tries += 1
            x = rng.choice(first)
            one = high[x]
            two = {r for m in one for r in high[m]} - one - {x}
            three = {}
            for m1 in one:
                for m2 in high[m1]:
                    if m2 in (x,) or m2 in one:
                        continue
                    for y in high[m2]:
                        if y != x and y not in one and y not in two and y != m1:
                            three.setdefault(y, set()).update((m1, m2))
            # (a pair a weaker two-step route also joins: the trap)
            candidates = [y for y in three if y in askable and any(
                m in partners[y] and partners[x][m] < 700 or partners[y].get(m, 1000) < 700
                for m in partners[x] if m in partners[y])]
            if not candidates:
                continue
            y = rng.choice(sorted(candidates))
            if (x, y) in pairs or (y, x) in pairs or len(three[y]) > 20:
                continue
            pairs.add((x, y))
            g, k, t = phrasing("path")
            emit("path", "entities", sorted(name[m] for m in three[y]), {"A": x, "B": y}, t, f"{g}-path-{k}")
    if "unsupported" in wanted:
        for x in rng.sample(first, min(a.per_form, len(first))):
            g, k, t = phrasing("unsupported")
            emit("unsupported", "unsupported", [], {"X": x}, t, f"{g}-unsupported-{k}")
    write_questions(out, "f")


if __name__ == "__main__":
    main()
