#!/bin/bash
# facts.sh: the GPU check of the programs behind the fact-based gate (issue 35), and the rewrites
# the build before it made of them (build/gpu-before: pipefy 2026-12-01 before the gate, nvcc
# -arch=sm_90), run with a timeout: a hang is rc 124.
#   tests/gpu/probes/facts.sh   (on the GPU machine; OUT set)
set -u
tests/gpu/env.sh > $OUT/env.txt 2>&1
JOBS=8 tests/gpu/run.sh build/gpu-new $OUT/new > $OUT/new.summary 2>&1
cp $OUT/new/results.tsv $OUT/results.tsv
b=build/gpu-before
{
echo "== before: neg_participation.orig 40 40 48 (edge blocks; the kernel as written ends)"; timeout 30 $b/neg_participation.orig 40 40 48 2>&1 | head -4; echo "rc $?"
echo "== before: neg_participation.tma 40 40 48 (tma x2 of the build before)"; timeout 30 $b/neg_participation.tma 40 40 48 2>&1 | head -4; echo "rc ${PIPESTATUS[0]}"
echo "== before: neg_wide_elements.tma 32 48 32"; timeout 30 $b/neg_wide_elements.tma 32 48 32 2>&1 | head -4; echo "rc ${PIPESTATUS[0]}"
echo "== before: neg_ws_barriers.ws 64 32 64"; timeout 30 $b/neg_ws_barriers.ws 64 32 64 2>&1 | head -8; echo "rc ${PIPESTATUS[0]}"
echo "== before: dynamic_storage.auto 32 48 32"; timeout 30 $b/dynamic_storage.auto 32 48 32 2>&1 | head -12; echo "rc ${PIPESTATUS[0]}"
echo "== before: chain_between.queue 32 64 48"; timeout 30 $b/chain_between.queue 32 64 48 2>&1 | head -4; echo "rc ${PIPESTATUS[0]}"
} > $OUT/before.txt 2>&1
