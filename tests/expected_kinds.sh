#!/bin/sh
# expected_kinds.sh: the --expect arguments for pipefy-verify-sass from a remarks file: one
# KIND=N per variant pipefy reported ("K-loop pipelined: cp.async" -> cp.async=N).
#   tests/expected_kinds.sh golden/NAME.VARIANT.remarks
f=$1
ca=$(grep -c 'K-loop pipelined: cp.async' "$f")
ldg=$(grep -c 'K-loop pipelined: ldg' "$f")
echo "--expect cp.async=$ca --expect ldg=$ldg"
