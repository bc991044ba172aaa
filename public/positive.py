#!/usr/bin/env python3
"""The positive rows of the corpus that a tally leaves as written, and the share pipelined.

    public/positive.py TALLY [MANIFEST]

TALLY is public/tally.sh's output (its default configuration is read); MANIFEST defaults to
public/MANIFEST.md, whose corpus table (the table whose header starts `| repository | path |
commit | probe | headers |`) gives each K-loop row its probe, path, line and verdict. A row is
positive where its verdict column starts with "positive" (a pipeline could legally take the
loop). Prints one line per positive row left as written (probe, line, kernel, the remark),
then `positive N pipelined P (S%)`. A row whose line has no remark in the tally takes the
remark of the nearest loop of its file, marked `(~)`.
"""
import os
import re
import sys


def corpus_rows(manifest):
    rows, cols = [], None
    for line in open(manifest, encoding="utf-8"):
        if not line.startswith("|"):
            cols = None
            continue
        cells = [x.strip().strip("`") for x in line.strip().strip("|").split("|")]
        if cols is None:
            if cells[:5] == ["repository", "path", "commit", "probe", "headers"]:
                cols = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        row = dict(zip(cols, cells))
        verdict = [v for k, v in row.items() if k.startswith("verdict")]
        rows.append((row["probe"], row["path"], row.get("line", ""), row.get("kernel", ""),
                     verdict[0] if verdict else ""))
    return rows


def remarks(tally):
    found, current = {}, None
    for line in open(tally, encoding="utf-8"):
        if line.startswith("== "):
            probe, path = line[3:].rstrip("\n").split(None, 1)
            current = (probe, path.strip())
            continue
        m = re.match(r"\s+(\d+) default\s+(.*)", line)
        if m and current:
            found[current + (m.group(1),)] = m.group(2)
    return found


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    manifest = argv[2] if len(argv) > 2 else os.path.join(here, "MANIFEST.md")
    found = remarks(argv[1])
    positive = pipelined = 0
    for probe, path, line, kernel, verdict in corpus_rows(manifest):
        if not verdict.startswith("positive"):
            continue
        positive += 1
        remark = found.get((probe, path, line))
        if remark is None:
            near = [(abs(int(k[2]) - int(line)), v) for k, v in found.items()
                    if k[0] == probe and k[1] == path and line.isdigit()]
            remark = min(near)[1] + " (~)" if near else "(no remark)"
        if remark.startswith("pipelined"):
            pipelined += 1
        else:
            print("%-28s %5s %-28s %s" % (probe, line, kernel[:28], remark[:170]))
    share = 100.0 * pipelined / positive if positive else 0.0
    print("positive %d pipelined %d (%.1f%%)" % (positive, pipelined, share))


if __name__ == "__main__":
    main(sys.argv)
