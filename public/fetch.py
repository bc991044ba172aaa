#!/usr/bin/env python3
"""Rebuild public/src/ from public/MANIFEST.md.

For every row of the corpus table (the table whose header starts
`| repository | path | commit | probe | headers |`), copy the listed file, and the
headers the row names, verbatim from a fetched mirror into
public/src/<probe>/<path in the repository>.  It only copies files: nothing is built
or run.

    public/fetch.py [MIRROR_ROOT] [--index-root DIR] [--src DIR]

MIRROR_ROOT (default /work/.mirror) holds bare git directories as the `fetch` tool
leaves them: MIRROR_ROOT/<owner>+<name>/repo (or repo/.git).  A repository that has no
snapshot there may have single files transcribed from the code index under
INDEX_ROOT/<owner>+<name>/<commit>/<path> (default /work/corpus/index); such files are
used as they are and reported.  Rows whose repository is neither fetched nor in the
index copy are listed at the end, and the exit status is then 1.

The headers column lists paths in the same repository, separated by spaces, each
optionally `@COMMIT` (a prefix git can resolve) when the header is taken at another
commit than the row's; `-` for none.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(manifest):
    """Yield dicts for the rows of the corpus table."""
    cols = None
    with open(manifest, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.startswith("|"):
                cols = None
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cols is None:
                if cells[:5] == ["repository", "path", "commit", "probe", "headers"]:
                    cols = cells
                continue
            if set("".join(cells)) <= set("-: "):
                continue  # the |---| line
            yield dict(zip(cols, cells))


def unq(s):
    return s.strip().strip("`")


def git_dir(mirror_root, repo):
    base = os.path.join(mirror_root, repo.replace("/", "+"))
    for d in (os.path.join(base, "repo", ".git"), os.path.join(base, "repo"), base):
        if os.path.isfile(os.path.join(d, "HEAD")) and os.path.isdir(os.path.join(d, "objects")):
            return d
    return None


def git(gd, *args):
    return subprocess.run(["git", "--git-dir=" + gd, *args], capture_output=True, check=False)


def blob(gd, commit, path):
    """(bytes, commit used, note) for path at commit, else at HEAD."""
    full = git(gd, "rev-parse", "--verify", "--quiet", commit + "^{commit}")
    if full.returncode == 0:
        c = full.stdout.decode().strip()
        r = git(gd, "show", c + ":" + path)
        if r.returncode == 0:
            return r.stdout, c, ""
        note = "not at %s" % commit[:12]
    else:
        note = "commit %s missing" % commit[:12]
    head = git(gd, "rev-parse", "HEAD").stdout.decode().strip()
    r = git(gd, "show", "HEAD:" + path)
    if r.returncode == 0:
        return r.stdout, head, note + "; newest version (HEAD %s) used" % head[:12]
    return None, None, note + "; not at HEAD either"


def from_index(index_root, repo, commit, path):
    d = os.path.join(index_root, repo.replace("/", "+"))
    if not os.path.isdir(d):
        return None, None
    for c in sorted(os.listdir(d)):
        if c.startswith(commit) or commit.startswith(c):
            p = os.path.join(d, c, path)
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    return f.read(), c
    return None, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mirror_root", nargs="?", default="/work/.mirror")
    ap.add_argument("--index-root", default="/work/corpus/index")
    ap.add_argument("--manifest", default=os.path.join(HERE, "MANIFEST.md"))
    ap.add_argument("--src", default=os.path.join(HERE, "src"))
    a = ap.parse_args()

    missing = {}  # repo -> probes
    notes = []
    copied = 0
    done = set()
    for r in rows(a.manifest):
        repo, path, commit, probe = (unq(r[k]) for k in ("repository", "path", "commit", "probe"))
        hdrs = unq(r.get("headers", "-"))
        key = (probe, path, commit, hdrs)
        if key in done:
            continue  # one row per K-loop: a probe's file is copied once
        done.add(key)
        wanted = [(path, commit)]
        if hdrs and hdrs != "-":
            for h in hdrs.split():
                hp, _, hc = h.partition("@")
                wanted.append((hp, hc or commit))
        gd = git_dir(a.mirror_root, repo)
        for p, c in wanted:
            data, used, note = None, None, ""
            if gd:
                data, used, note = blob(gd, c, p)
            else:
                data, used = from_index(a.index_root, repo, c, p)
                if data is not None:
                    note = "from the index copy (%s)" % os.path.join(
                        a.index_root, repo.replace("/", "+"), used, p)
            if data is None:
                if not gd:
                    missing.setdefault(repo, set()).add(probe)
                else:
                    notes.append("%s: %s %s: %s" % (probe, repo, p, note))
                continue
            if note:
                notes.append("%s: %s %s: %s" % (probe, repo, p, note))
            out = os.path.join(a.src, probe, p)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if os.path.exists(out):
                os.chmod(out, 0o644)
            with open(out, "wb") as f:
                f.write(data)
            copied += 1

    print("copied %d files into %s" % (copied, a.src))
    for n in notes:
        print("note: " + n)
    for repo in sorted(missing):
        print("not fetched yet: %s (rows: %s)" % (repo, " ".join(sorted(missing[repo]))))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
