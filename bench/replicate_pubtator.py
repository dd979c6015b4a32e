#!/usr/bin/env python3
"""A larger PubTator corpus for the co-occurrence benchmark: the given files concatenated, the
whole repeated N times with the PubMed ids shifted by 10^8 each time (new documents, the same
concepts).

    python3 bench/replicate_pubtator.py N OUT FILE...
"""
import sys


def main():
    n, out_path, sources = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    with open(out_path, "w", encoding="utf-8") as out:
        for rep in range(n):
            for path in sources:
                for line in open(path, encoding="utf-8"):
                    if not line.strip():
                        out.write("\n")
                        continue
                    head = line.split("|", 1)
                    if len(head) == 2 and head[0].isdigit() and head[1][:2] in ("t|", "a|"):
                        out.write(str(int(head[0]) + rep * 100000000) + "|" + head[1])
                    else:
                        f = line.split("\t")
                        f[0] = str(int(f[0]) + rep * 100000000)
                        out.write("\t".join(f))
                out.write("\n")


if __name__ == "__main__":
    main()
