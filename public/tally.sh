#!/bin/bash
# public/tally.sh PIPEFY [PROBE...]
#
# Runs PIPEFY over the K-loop file of every probe in public/MANIFEST.md's corpus table
# (as public/fetch.py left them in public/src/<probe>/), once per configuration:
#   default   (sm_80, auto)
#   sm_90     --arch=sm_90
#   cp.async  --variant=cp.async
#   ldg       --variant=ldg
# (TALLY_CONFIGS="default ldg" runs those alone)
# and prints, per file, each loop's remark per configuration ("LINE CONFIG: verdict"),
# then a tally of the default configuration: loops pipelined / left as written, per
# remark class (the remark with names, numbers and positions taken out).  The output is
# sorted and holds no timings or absolute paths, so two sessions' outputs diff cleanly.
#
# Extra parser arguments for a probe come from public/args: "PROBE ARG..." per line
# (# comments); they are passed after the file, and run from public/src/<probe>/, so a
# relative -I names a folder of the probe's copy.  Each pipefy runs under nice -n 10,
# one at a time, with a 300 s limit; PIPEFY_CACHE_DIR defaults to /work/corpus/cache.
# TALLY_RAW=DIR keeps each run's stderr as DIR/<probe>.<path, / and blanks as _>.<config>.txt; with TALLY_REUSE=1 a
# run whose output is already in DIR is not repeated (same binary assumed).
set -u
[ $# -ge 1 ] || { echo "usage: $0 PIPEFY [PROBE...]" >&2; exit 2; }
PIPEFY=$(readlink -f "$1"); shift
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/src
export PIPEFY_CACHE_DIR=${PIPEFY_CACHE_DIR:-/work/corpus/cache}
mkdir -p "$PIPEFY_CACHE_DIR"
RAW=${TALLY_RAW:-$(mktemp -d)}
mkdir -p "$RAW"
[ -n "${TALLY_RAW:-}" ] || trap 'rm -rf "$RAW"' EXIT

# probe <TAB> path, one per probe, from the corpus table
python3 - "$HERE/MANIFEST.md" "$@" >"$RAW/.probes" <<'EOF'
import sys
man, only = sys.argv[1], set(sys.argv[2:])
cols, seen = None, set()
for line in open(man, encoding="utf-8"):
    if not line.startswith("|"):
        cols = None; continue
    c = [x.strip().strip("`") for x in line.strip().strip("|").split("|")]
    if cols is None:
        if c[:5] == ["repository", "path", "commit", "probe", "headers"]: cols = c
        continue
    if set("".join(c)) <= set("-: "): continue
    r = dict(zip(cols, c))
    k = (r["probe"], r["path"])
    if k in seen or (only and r["probe"] not in only): continue
    seen.add(k); print("%s\t%s" % k)
EOF

CONFIGS=${TALLY_CONFIGS:-"default sm_90 cp.async ldg"} # (TALLY_CONFIGS=default: the default alone)
opts() {
  case $1 in
    default) ;;
    sm_90) echo --arch=sm_90 ;;
    cp.async) echo --variant=cp.async ;;
    ldg) echo --variant=ldg ;;
  esac
}
while IFS=$'\t' read -r probe path; do
  dir=$SRC/$probe
  key=$probe.${path//[\/ ]/_} # (a probe may hold several files: one run each)
  if [ ! -f "$dir/$path" ]; then
    echo "missing" >"$RAW/$key.missing"
    continue
  fi
  args=$(awk -v p="$probe" '$1 == p { $1 = ""; print }' "$HERE/args" 2>/dev/null)
  for c in $CONFIGS; do
    [ "${TALLY_REUSE:-}" = 1 ] && [ -s "$RAW/$key.$c.rc" ] && continue
    # shellcheck disable=SC2046,SC2086
    (cd "$dir" && timeout 300 nice -n 10 "$PIPEFY" $(opts $c) "$path" -o /dev/null -- $args) \
      >"$RAW/$key.$c.txt" 2>&1
    echo "$?" >"$RAW/$key.$c.rc"
  done
done <"$RAW/.probes"

python3 - "$RAW" "$SRC" "$CONFIGS" <<'EOF'
import os, re, sys, collections
raw, src, configs = sys.argv[1], sys.argv[2], sys.argv[3].split()
REM = re.compile(r"^(.*?):(\d+):(\d+): remark: (.*)$")
WARN = re.compile(r"^(.*?):(\d+):(\d+): (warning|error): (.*)$")

def norm(reason):
    """The remark's class: names, numbers, positions and quoted text taken out."""
    s = re.sub(r"\[pipefy(-missed)?\]$", "", reason).strip()
    s = re.sub(r"'[^'\s]*'", "'X'", s)
    s = re.sub(r"`[^`]*`", "`X`", s)
    s = re.sub(r"\d+(\.\d+)?", "N", s)
    s = re.sub(r"\([^()]*\)", "(..)", s)
    return s[:110]

def key(probe, path):
    return probe + "." + re.sub(r"[/ ]", "_", path)

def parse(probe, path, cfg):
    fn = os.path.join(raw, "%s.%s.txt" % (key(probe, path), cfg))
    lines = open(fn, encoding="utf-8", errors="replace").read().splitlines()
    rc = open(os.path.join(raw, "%s.%s.rc" % (key(probe, path), cfg))).read().strip()
    try:
        srclines = open(os.path.join(src, probe, path), encoding="utf-8", errors="replace").read().splitlines()
    except OSError:
        srclines = []
    out, warns, other = [], 0, []
    i = 0
    while i < len(lines):
        m = REM.match(lines[i])
        if m:
            f, ln, col, text = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
            want = srclines[ln - 1] if f == path and 0 < ln <= len(srclines) else None
            j, extra = i + 1, []
            while j < len(lines) and not REM.match(lines[j]) and not WARN.match(lines[j]) and lines[j] != want:
                extra.append(lines[j]); j += 1
            if want is not None and j < len(lines) and lines[j] == want:
                j += 2  # the source line and the caret
            elif want is None:
                extra = []; j = i + 1
            out.append((f, ln, col, text, extra))
            i = j
            continue
        w = WARN.match(lines[i])
        if w:
            warns += 1
            if w.group(4) == "error" or "internal error" in lines[i]:
                other.append(lines[i])
        elif "internal error" in lines[i] or "crash" in lines[i]:
            other.append(lines[i])
        i += 1
    return rc, out, warns, other

probes = [l.rstrip("\n").split("\t") for l in open(os.path.join(raw, ".probes"))]
tally = collections.Counter()
cls_left, cls_pip = collections.Counter(), collections.Counter()
cfg_tally = {c: collections.Counter() for c in configs}
notes = []
for probe, path in sorted(probes):
    print("== %s  %s" % (probe, path))
    if os.path.exists(os.path.join(raw, key(probe, path) + ".missing")):
        print("   (not in public/src: run public/fetch.py)")
        notes.append("%s: not in public/src" % probe)
        continue
    per = {}
    flagged = {}
    for c in configs:
        rc, rems, warns, other = parse(probe, path, c)
        if rc not in ("0",):
            notes.append("%s %s: exit status %s%s" % (probe, c, rc, " (timeout)" if rc == "124" else ""))
        for o in other:
            notes.append("%s %s: %s" % (probe, c, o[:200]))
        if c == "default":
            print("   parse warnings: %d" % warns)
        for f, ln, col, text, extra in rems:
            per.setdefault((f, ln), {})[c] = (text, extra)
    for (f, ln) in sorted(per, key=lambda k: (k[0] != path, k[0], k[1])):
        where = ("" if f == path else f + ":") + str(ln)
        for c in configs:
            if c not in per[(f, ln)]:
                print("   %s %-8s (no remark)" % (where, c))
                continue
            text, extra = per[(f, ln)][c]
            text = re.sub(r"\s*\[pipefy(-missed)?\]$", "", text)
            t = re.sub(r"^K-loop ", "", text)
            flags = []
            if len(text) > 200: flags.append("long:%d" % len(text))
            if extra: flags.append("spans %d more lines" % len(extra))
            if "''" in text: flags.append("names ''")
            print("   %s %-8s %s%s" % (where, c, t, ("  <<" + ", ".join(flags) + ">>") if flags else ""))
            for e in extra:
                print("   %s %-8s | %s" % (where, c, e))
            if flags:
                flagged.setdefault((probe, where, ", ".join(flags)), []).append(c)
            kind = ("pipelined" if text.startswith("K-loop pipelined") else
                    "left" if text.startswith("K-loop not pipelined") else
                    "loop" if text.startswith("loop not pipelined") else "other")
            cfg_tally[c][kind] += 1
            if c == "default":
                tally[kind] += 1
                body = re.sub(r"^K-loop (not )?pipelined: ", "", text)
                if kind == "pipelined":
                    cls_pip[re.match(r"[^:]*", body).group(0)] += 1
                elif kind == "left":
                    cls_left[norm(body)] += 1
                else:
                    cls_left["(%s) %s" % (kind, norm(text))] += 1
    for (p, w, f), cs in flagged.items():
        notes.append("%s %s: %s (%s)" % (p, w, f, " ".join(cs)))

print()
print("== tally (default: sm_80, auto)")
print("K-loops: %d  pipelined: %d  left as written: %d  other remarks: %d" % (
    tally["pipelined"] + tally["left"], tally["pipelined"], tally["left"], tally["loop"] + tally["other"]))
print("-- pipelined, by variant and stages")
for k, n in sorted(cls_pip.items(), key=lambda x: (-x[1], x[0])):
    print("%4d  %s" % (n, k))
print("-- left as written, by remark class")
for k, n in sorted(cls_left.items(), key=lambda x: (-x[1], x[0])):
    print("%4d  %s" % (n, k))
print("-- per configuration: pipelined / left / other")
for c in configs:
    t = cfg_tally[c]
    print("   %-8s %d / %d / %d" % (c, t["pipelined"], t["left"], t["loop"] + t["other"]))
print("-- notes (exit status, crashes, long or multi-line remarks)")
for n in sorted(set(notes)):
    print("   " + n)
EOF
