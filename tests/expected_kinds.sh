#!/bin/sh
# expected_kinds.sh: the --expect arguments for pipefy-verify-sass from a remarks file: one
# KIND=N per variant pipefy reported ("K-loop pipelined: cp.async" -> cp.async=N; ldg, tma, bulk, ws-cp.async likewise), times the
# instances of each kernel in the PTX (a template launched with two instantiations: 2).
#   tests/expected_kinds.sh golden/NAME.VARIANT.remarks [INSTANCES]
f=$1 n=${2:-1}
ca=$(($(grep -c 'K-loop pipelined: cp.async' "$f") * n))
ldg=$(($(grep -c 'K-loop pipelined: ldg' "$f") * n))
tma=$(($(grep -c -E 'K-loop pipelined: (tma|ws),' "$f") * n)) # (a producer warp issues tensor copies)
wsa=$(($(grep -c 'K-loop pipelined: ws-cp.async,' "$f") * n))
bulk=$(($(grep -c 'K-loop pipelined: bulk' "$f") * n))
echo "--expect cp.async=$ca --expect ldg=$ldg --expect tma=$tma --expect bulk=$bulk --expect ws-cp.async=$wsa"
