#!/bin/bash
# cache.sh: the precompiled-preamble cache changes speed, never results.
#   tests/cache.sh PIPEFY
set -u
cd "$(dirname "$0")/.." || exit
pipefy=$(realpath "$1")
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
. tests/lib.sh
export PIPEFY_CACHE_DIR=$tmp/cache

# The first program (by name) of each include list, as the cache holds one preamble per list:
# uncached, cache being built, cache read (and, where the rewrite adds an #include, the
# rewritten file's preamble built for validation), both read — same output, same messages.
# (The preamble is all the cache holds; what follows it is parsed anew.)
seen=
for k in testdata/*.cu; do
	n=$(basename "$k" .cu)
	includes=$(grep '^#include' "$k" | md5sum | cut -c1-32)
	case $seen in *"$includes"*) continue ;; esac
	seen="$seen $includes"
	"$pipefy" --no-cache --report=json "$k" >"$tmp/$n.0" 2>"$tmp/$n.0.err"; rc0=$?
	"$pipefy" --report=json "$k" >"$tmp/$n.1" 2>"$tmp/$n.1.err"; rc1=$?
	"$pipefy" --report=json "$k" >"$tmp/$n.2" 2>"$tmp/$n.2.err"; rc2=$?
	"$pipefy" --report=json "$k" >"$tmp/$n.3" 2>"$tmp/$n.3.err"; rc3=$?
	expect "$n: same output and messages uncached, building and reading the cache" ' [ $rc0 = $rc1 ] && [ $rc1 = $rc2 ] && [ $rc2 = $rc3 ] && cmp -s "$tmp/$n.0" "$tmp/$n.1" && cmp -s "$tmp/$n.0" "$tmp/$n.2" && cmp -s "$tmp/$n.0" "$tmp/$n.3" && cmp -s "$tmp/$n.0.err" "$tmp/$n.1.err" && cmp -s "$tmp/$n.0.err" "$tmp/$n.2.err" && cmp -s "$tmp/$n.0.err" "$tmp/$n.3.err"'
done
sets=$(for k in testdata/*.cu; do grep '^#include' "$k" | md5sum; done | sort -u | wc -l)
expect "at most two headers per distinct include list ($sets), not per file" '[ "$(ls "$tmp/cache" | grep -c '\''\.pch$'\'')" -le $((2 * sets)) ]'
expect "no temporary files are left in the cache" '[ "$(ls "$tmp/cache" | grep -c tmp)" = 0 ]'

# A header edited after the preamble was cached: clang notices, pipefy rebuilds it.
mkdir "$tmp/proj"
cp testdata/sgemm_tiled.cu testdata/harness.cuh "$tmp/proj/"
"$pipefy" -q "$tmp/proj/sgemm_tiled.cu" >/dev/null 2>&1
sleep 1
echo '#define TILE_FROM_HEADER_IS_A_REDEFINITION 1' >>"$tmp/proj/harness.cuh"
echo 'static_assert(sizeof(float) == 3, "harness.cuh changed");' >>"$tmp/proj/harness.cuh"
"$pipefy" -q "$tmp/proj/sgemm_tiled.cu" >/dev/null 2>"$tmp/stale.err"
expect "a changed header is parsed anew, not read from the stale cache" 'grep -q '\''harness.cuh changed'\'' "$tmp/stale.err"'

# A header that appears earlier in the search path after the preamble was cached shadows the
# cached one: the entry no longer says what the includes resolve to, and is rebuilt.
mkdir -p "$tmp/shadow/early" "$tmp/shadow/late"
printf '#define TILE 32\n' >"$tmp/shadow/late/tile.h"
sed 's|#include "harness.cuh"|#include "harness.cuh"\n#include "tile.h"|; /^#define TILE 32/d' testdata/sgemm_tiled.cu >"$tmp/shadow/k.cu"
cp testdata/harness.cuh "$tmp/shadow/"
# (The report carries the tile's bytes: the rewritten text names TILE and may not differ.)
"$pipefy" --report=json "$tmp/shadow/k.cu" -- -I "$tmp/shadow/early" -I "$tmp/shadow/late" >"$tmp/shadow/before" 2>&1
printf '#define TILE 16\n' >"$tmp/shadow/early/tile.h"
"$pipefy" --report=json --no-cache "$tmp/shadow/k.cu" -- -I "$tmp/shadow/early" -I "$tmp/shadow/late" >"$tmp/shadow/want" 2>&1
"$pipefy" --report=json "$tmp/shadow/k.cu" -- -I "$tmp/shadow/early" -I "$tmp/shadow/late" >"$tmp/shadow/got" 2>&1
expect "a header that shadows a cached one (earlier in the search path) is noticed" '! cmp -s "$tmp/shadow/before" "$tmp/shadow/want" && cmp -s "$tmp/shadow/want" "$tmp/shadow/got"'

# A preamble whose header fails (#error) is not saved; it is remembered as failed, so later
# runs do not build it again only to throw it away, until a header it read changes.
rm -rf "$tmp/cache"; mkdir -p "$tmp/fail"
cp testdata/sgemm_tiled.cu testdata/harness.cuh "$tmp/fail/"
printf '#ifndef READY\n#error "define READY"\n#endif\n' >"$tmp/fail/ready.h"
sed -i 's|#include "harness.cuh"|#include "harness.cuh"\n#include "ready.h"|' "$tmp/fail/sgemm_tiled.cu"
"$pipefy" -q --no-cache "$tmp/fail/sgemm_tiled.cu" >"$tmp/fail/want" 2>"$tmp/fail/want.err"; rc0=$?
"$pipefy" -q "$tmp/fail/sgemm_tiled.cu" >"$tmp/fail/got1" 2>"$tmp/fail/got1.err"; rc1=$?
marker=$(ls "$tmp"/cache/*.failed 2>/dev/null | head -n 1)
stamp=$(stat -c %Y.%y "$marker" 2>/dev/null)
sleep 1
"$pipefy" -q "$tmp/fail/sgemm_tiled.cu" >"$tmp/fail/got2" 2>"$tmp/fail/got2.err"; rc2=$?
expect "a failing preamble: same result as uncached, remembered, and not built again" '[ $rc0 = $rc1 ] && [ $rc1 = $rc2 ] && cmp -s "$tmp/fail/want" "$tmp/fail/got2" && cmp -s "$tmp/fail/want.err" "$tmp/fail/got2.err" && [ -n "$marker" ] && [ "$(stat -c %Y.%y "$marker")" = "$stamp" ] && [ -z "$(ls "$tmp"/cache/*.pch 2>/dev/null)" ]'
printf '#define READY 1\n' >"$tmp/fail/ready.h"
"$pipefy" -q "$tmp/fail/sgemm_tiled.cu" >"$tmp/fail/fixed" 2>/dev/null; rc=$?
expect "once the header is fixed the preamble is built and the failure forgotten" '[ $rc = 0 ] && grep -q pipefy_fetch "$tmp/fail/fixed" && [ -n "$(ls "$tmp"/cache/*.pch)" ] && [ ! -e "$marker" ]'

# Concurrent runs (make -j) on an empty cache: each gets the right answer.
rm -rf "$tmp/cache"
"$pipefy" -q --no-cache testdata/hgemm_wmma.cu >"$tmp/want"
for i in 1 2 3 4; do "$pipefy" -q testdata/hgemm_wmma.cu >"$tmp/par$i" 2>"$tmp/par$i.err" & done
wait
same=1
for i in 1 2 3 4; do cmp -s "$tmp/want" "$tmp/par$i" && [ ! -s "$tmp/par$i.err" ] || same=0; done
expect "four concurrent runs on an empty cache agree" '[ $same = 1 ]'
# one for the input's includes, which validation parses the rewritten file through too (the
# include of cuda_pipeline.h it adds after them is parsed with the rest): a first run
# precompiles once
expect "on a first run one header serves the input and the output" '[ "$(ls "$tmp/cache" | grep -c '\''\.pch$'\'')" = 1 ]'
# a repeated run precompiles the rewritten file's preamble, added include and all, once; the
# runs after it read both headers
"$pipefy" -q testdata/hgemm_wmma.cu >"$tmp/rep1"
"$pipefy" -q testdata/hgemm_wmma.cu >"$tmp/rep2"
expect "a repeated run adds the rewritten file's header, read from then on" '[ "$(ls "$tmp/cache" | grep -c '\''\.pch$'\'')" = 2 ] && cmp -s "$tmp/want" "$tmp/rep1" && cmp -s "$tmp/want" "$tmp/rep2" && grep -q "#include <cuda_pipeline.h>" "$tmp/rep2"'

# The cache is bounded: a month unused goes, and beyond 64 headers the least recently used.
rm -rf "$tmp/cache"; mkdir "$tmp/cache"
for i in $(seq 1 70); do touch -d "$i hours ago" "$tmp/cache/preamble-fake$i.pch"; done
touch -d "40 days ago" "$tmp/cache/preamble-stale.pch"
"$pipefy" -q testdata/sgemm_tiled.cu >/dev/null
expect "a header unused for a month is removed" '[ ! -e "$tmp/cache/preamble-stale.pch" ]'
expect "at most 64 headers are kept" '[ "$(ls "$tmp/cache" | grep -c '\''\.pch$'\'')" = 64 ]'
expect "the least recently used go first" '[ ! -e "$tmp/cache/preamble-fake70.pch" ] && [ -e "$tmp/cache/preamble-fake1.pch" ]'

# Nowhere to cache: pipefy parses the slow way and says nothing about it.
PIPEFY_CACHE_DIR=/proc/pipefy-cannot-be-here "$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/nocache" 2>"$tmp/nocache.err"
expect "an unusable cache folder is not an error" 'cmp -s "$tmp/nocache" golden/sgemm_tiled.auto.cu'
expect "and not a message" '[ ! -s "$tmp/nocache.err" ]'

# A corrupt entry (8 bytes of 0xFF in the middle: a bad disk, a crash while copying) is
# noticed by its checksum and rebuilt; it once crashed every later run.
rm -rf "$tmp/cache"
"$pipefy" -q testdata/sgemm_tiled.cu >/dev/null
for f in "$tmp"/cache/*.pch; do
	printf '\377\377\377\377\377\377\377\377' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") / 2)) conv=notrunc 2>/dev/null
done
"$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/corrupt.out" 2>"$tmp/corrupt.err"; rc=$?
expect "a corrupt cache entry is rebuilt, not loaded" '[ $rc = 0 ] && cmp -s "$tmp/corrupt.out" golden/sgemm_tiled.auto.cu'
"$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/corrupt2.out"; rc=$?
expect "and the rebuilt entry is good" '[ $rc = 0 ] && cmp -s "$tmp/corrupt2.out" golden/sgemm_tiled.auto.cu'
# The folder is created private, and one that others can write is not used (a planted
# precompiled header could change what the file's macros mean): one warning, no cache.
rm -rf "$tmp/cache"
"$pipefy" -q testdata/sgemm_tiled.cu >/dev/null
expect "the cache folder is created 0700" '[ "$(stat -c %a "$tmp/cache")" = 700 ]'
expect "entries are 0600" '[ -z "$(find "$tmp/cache" -type f ! -perm 600)" ]'
chmod 777 "$tmp/cache"
"$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/open.out" 2>"$tmp/open.err"; rc=$?
expect "a world-writable cache folder is not used, with one warning" '[ $rc = 0 ] && cmp -s "$tmp/open.out" golden/sgemm_tiled.auto.cu && [ "$(grep -c "not private to you" "$tmp/open.err")" = 1 ]'
chmod 700 "$tmp/cache"
for f in "$tmp"/cache/*.pch; do chmod 666 "$f"; done
"$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/open2.out"; rc=$?
expect "a group- or world-writable entry is rebuilt, not loaded" '[ $rc = 0 ] && [ -z "$(find "$tmp/cache" -name "*.pch" -perm -022)" ]'
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	mkdir -p "$tmp/theirs"
	ln -s "$tmp/cache" "$tmp/link-theirs"
	chown -h nobody "$tmp/link-theirs"
	PIPEFY_CACHE_DIR=$tmp/link-theirs "$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/link.out" 2>"$tmp/link.err"; rc=$?
	expect "a cache reached through another user's link is not used" '[ $rc = 0 ] && grep -q "not private to you" "$tmp/link.err"'
	mkdir "$tmp/nobodys"; chown nobody "$tmp/nobodys"; chmod 700 "$tmp/nobodys"
	PIPEFY_CACHE_DIR=$tmp/nobodys "$pipefy" -q testdata/sgemm_tiled.cu >"$tmp/own.out" 2>"$tmp/own.err"; rc=$?
	expect "a cache folder owned by another user is not used" '[ $rc = 0 ] && grep -q "not private to you" "$tmp/own.err" && cmp -s "$tmp/own.out" golden/sgemm_tiled.auto.cu'
fi
# An interrupted write leaves a temporary: not an entry, and gone after an hour.
touch -d "2 hours ago" "$tmp/cache/preamble-0000000000000000.pch.123.tmp"
touch "$tmp/cache/preamble-0000000000000001.pch.124.tmp"
rm -f "$tmp"/cache/*.pch
"$pipefy" -q testdata/sgemm_tiled.cu >/dev/null
expect "an old temporary is removed, a fresh one (a run in progress) kept" '[ ! -e "$tmp/cache/preamble-0000000000000000.pch.123.tmp" ] && [ -e "$tmp/cache/preamble-0000000000000001.pch.124.tmp" ]'

echo "$pass passed, $fail failed"
[ $fail = 0 ]
