#!/bin/sh
# env.sh: the date and the machine a GPU result was measured on, as Markdown lines.
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "Device: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/, / · driver /; s/, / · /')"
echo
echo "CUDA: $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p') (nvcc on the GPU machine); binaries built with nvcc $(cat "$(dirname "$0")/../../build/gpu/nvcc-version" 2>/dev/null || echo 13.0)"
