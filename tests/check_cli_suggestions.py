#!/usr/bin/env python3
"""Every command of the grappi command line, walked from its --help: an option it does not know
(a slip of two letters, or a made-up name) and a command word it does not know are refused with
exit status 2 and a message naming the word and, for a slip, the nearest known names
("explore: unknown option --protien; did you mean --protein?").

Usage: check_cli_suggestions.py GRAPPI
"""
import re
import subprocess
import sys

GRAPPI = sys.argv[1]


def run(*args):
    p = subprocess.run([GRAPPI, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def help_of(path):
    rc, out = run(*path, "--help")
    assert rc == 0, (path, rc, out)
    subs, options, section = [], [], None
    for line in out.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        if section == "Subcommands":
            m = re.match(r"^  ([a-z][\w-]*)\b", line)
            if m:
                subs.append(m.group(1))
        m = re.match(r"^\s{2,}(?:-\w,)?(--[a-z][\w-]*)", line)
        if m and section != "Subcommands":
            options.append(m.group(1))
    return subs, [o for o in options if o not in ("--help", "--version")]


def slip(word):
    """Two neighbouring letters swapped in the middle of a word ("--protein" -> "--protien")."""
    core = word.lstrip("-")
    dashes = word[: len(word) - len(core)]
    i = max(1, len(core) // 2 - 1)
    while i + 1 < len(core) and core[i] == core[i + 1]:
        i += 1
    if i + 1 >= len(core):
        return None
    return dashes + core[:i] + core[i + 1] + core[i] + core[i + 2 :]


failures, checked = [], 0


def expect(args, words):
    global checked
    checked += 1
    rc, out = run(*args)
    if rc != 2 or not all(w in out for w in words):
        failures.append("%s -> exit %d: %s (wanted %s)" % (" ".join(args), rc, out.strip()[:200], words))


def walk(path):
    subs, options = help_of(path)
    prefix = " ".join(path) + ": " if path else ""
    for sub in subs:
        typo = slip(sub)
        if typo and typo not in subs:
            expect([*path, typo], [prefix + "unknown command " + typo, "did you mean", sub])
    if not subs:
        for option in options[:3]:
            typo = slip(option)
            if typo and typo not in options:
                expect([*path, typo, "x"], [prefix + "unknown option " + typo + "; did you mean", option])
        expect([*path, "--zz-no-such-option"], [prefix + "unknown option --zz-no-such-option"])
    for sub in subs:
        walk([*path, sub])


walk([])
expect(["neigbors", "--db", "x.db", "TP53"], ["unknown command neigbors; did you mean neighbors?"])
expect(["explore", "--protien", "MAPT"], ["explore: unknown option --protien; did you mean --protein?"])
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d refusals checked" % checked)
