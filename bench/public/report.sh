#!/bin/bash
# bench/public/report.sh OUTDIR [RESULTS]: a markdown table of the public-kernel benchmark that
# bench/public/build.sh built in OUTDIR and OUTDIR/run.sh ran (RESULTS: the folder run.sh
# wrote, default OUTDIR/out: time.txt, check.txt, optional sanitize.txt, env.txt).
#
# Per kernel: auto's plan (from its remark), the original's time (median over the rounds of
# each round's median of 20 launches), original / auto and original / each forced variant
# (> 1: the build is faster; "= X": the same kernel body as build X, text for text, so X's
# number; "refused": the variant left the loop as written), the best legal build (the fastest
# of the original and every build timed) as original / it, best / auto as a time ratio (< 1:
# something beat auto by that much), the largest spread of one build's medians over the
# rounds (max - min over median: the noise to read the ratios against), and the checks.
# Then geometric means, and the lines of check.txt that FAIL.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [RESULTS]" >&2; exit 2; }
out=$1
res=${2:-$out/out}
python3 - "$out" "$res" <<'EOF'
import math, os, sys, collections
out, res = sys.argv[1], sys.argv[2]
builds = ["auto", "ldg1", "ldg2", "cp2", "cp3", "cp4"]
label = {"orig": "original", "auto": "auto", "ldg1": "ldg x1", "ldg2": "ldg x2",
         "cp2": "cp.async x2", "cp3": "cp.async x3", "cp4": "cp.async x4"}

plans = collections.OrderedDict()  # (probe, kernel) -> build -> (status, plan, remark)
with open(os.path.join(out, "plans.tsv")) as f:
    next(f)
    for line in f:
        p, k, b, st, plan, rem = (line.rstrip("\n").split("\t") + [""] * 6)[:6]
        plans.setdefault((p, k), {})[b] = (st, plan, rem)

times = collections.defaultdict(list)  # (kernel, build) -> [ms per round]
size = {}
tpath = os.path.join(res, "time.txt")
if os.path.exists(tpath):
    for line in open(tpath):
        f = line.split()
        if len(f) == 4:
            try:
                times[(f[0], f[1])].append(float(f[3]))
                size[f[0]] = f[2]
            except ValueError:
                pass

checks = collections.defaultdict(lambda: [0, 0])
fails = []
cpath = os.path.join(res, "check.txt")
if os.path.exists(cpath):
    for line in open(cpath):
        f = line.split()
        if len(f) == 5 and f[0] == "check":
            checks[f[1]][0 if f[4] == "PASS" else 1] += 1
            if f[4] != "PASS":
                fails.append(line.strip())

def med(v):
    v = sorted(v)
    n = len(v)
    return None if n == 0 else (v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2]))

def fmt(x):
    return "—" if x is None else "%.3f" % x

def gmean(v):
    v = [x for x in v if x]
    return (math.exp(sum(math.log(x) for x in v) / len(v)), len(v)) if v else (None, 0)

print("| probe | kernel | size | auto's plan | original ms | orig / auto | " +
      " | ".join("orig / " + label[b] for b in builds[1:]) +
      " | best legal (orig / it) | best / auto (time) | spread | check |")
print("|" + "---|" * (10 + len(builds) - 1))
col = collections.defaultdict(list)
col_piped = []
for (p, k), bmap in plans.items():
    t = {b: med(times.get((k, b), [])) for b in ["orig"] + builds}
    to = t["orig"]
    def ratio(b):
        st = bmap.get(b, ("", "", ""))[0]
        if st == "time":
            return (to / t[b]) if (to and t[b]) else None, ""
        if st.startswith("="):
            src = st[1:]
            if src == "orig":
                return 1.0, ""
            return ((to / t[src]) if (to and t[src]) else None), "= " + label.get(src, src)
        if st in ("left", "refused"):
            return (1.0 if b == "auto" else None), st
        return None, st or "?"
    st_auto, plan_auto, rem_auto = bmap.get("auto", ("", "", ""))
    ra, _ = ratio("auto")
    if st_auto == "left":
        auto_cell = "1.000 (left)"
        t_auto = to
    else:
        auto_cell = fmt(ra)
        t_auto = to / ra if (to and ra) else None
    cells = []
    for b in builds[1:]:
        r, note = ratio(b)
        plan_b = bmap.get(b, ("", "", ""))[1]
        if plan_b and plan_b != "as written" and plan_b != label[b] and note != "= " + plan_b:
            note = (note + "; " if note else "") + "ran as " + plan_b
        if note.split(";")[0] in ("refused", "failed", "?"):
            cells.append(note)
        elif note:
            cells.append("%s (%s)" % (fmt(r), note))
        else:
            cells.append(fmt(r))
        if r is not None:
            col[b].append(r)
    col["auto"].append(ra)
    if st_auto != "left":
        col_piped.append(ra)
    # best legal: the original and every build timed for this kernel
    cand = [("orig", to)] + [(b, t[b]) for b in builds if bmap.get(b, ("",))[0] == "time" and t[b]]
    cand = [(b, x) for b, x in cand if x]
    if cand and to:
        bb, bt = min(cand, key=lambda c: c[1])
        best_cell = "%s %.3f" % (label[bb], to / bt)
        ba = bt / t_auto if t_auto else None
        col["best"].append(to / bt)
        col["best/auto"].append(ba)
    else:
        best_cell, ba = "—", None
    spread = None
    for b in ["orig"] + builds:
        v = times.get((k, b), [])
        if len(v) > 1 and med(v):
            s = (max(v) - min(v)) / med(v)
            spread = s if spread is None else max(spread, s)
    c = checks.get(k, [0, 0])
    chk = ("%d PASS" % c[0]) + (", **%d FAIL**" % c[1] if c[1] else "")
    plan_cell = plan_auto
    if st_auto == "left":
        why = rem_auto.split("not pipelined: ", 1)[-1]
        why = why.split(";")[0].split(" (--report")[0]
        plan_cell = "as written (%s)" % why[:70]
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        p, k.replace("<", "\\<"), size.get(k, "—"), plan_cell, "—" if to is None else "%.4f" % to,
        auto_cell, " | ".join(cells), best_cell, fmt(ba),
        "—" if spread is None else "%.1f %%" % (100 * spread), chk))

g = lambda key: gmean(col[key])
ga, na = g("auto")
gp, npp = gmean(col_piped)
gb, nb = g("best")
gba, nba = g("best/auto")
print()
print("Geometric means (> 1: faster than the original; a forced column over the kernels it has a "
      "number for, \"= X\" counted as X):")
print()
print("- original / auto, all %d kernels: **%s**; the %d auto pipelined: %s" % (na, fmt(ga), npp, fmt(gp)))
for b in builds[1:]:
    v, n = g(b)
    print("- original / %s: %s (%d kernels)" % (label[b], fmt(v), n))
print("- original / best legal: %s (%d kernels); best / auto (time): %s" % (fmt(gb), nb, fmt(gba)))
print()
tot = [sum(c[0] for c in checks.values()), sum(c[1] for c in checks.values())]
print("Checks: %d PASS, %d FAIL." % (tot[0], tot[1]))
for l in fails:
    print("    " + l)
spath = os.path.join(res, "sanitize.txt")
if os.path.exists(spath):
    lines = [l.strip() for l in open(spath) if l.strip()]
    bad = [l for l in lines if not l.endswith("rc=0")]
    print("compute-sanitizer: %d of %d runs clean%s" % (len(lines) - len(bad), len(lines),
          "" if not bad else ": " + "; ".join(bad)))
epath = os.path.join(res, "env.txt")
if os.path.exists(epath):
    print()
    print("```")
    print(open(epath).read().rstrip())
    print("```")
EOF
