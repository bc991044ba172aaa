// harness.cuh for the CPU block model (tests/cpu): testdata/harness.cuh itself, built on the
// model's runtime (host memory for device memory, kernels run by pipefy_cpu.h). Inputs,
// reference and checksum are computed by the same code, so checksums compare across variants
// and thread orders.
#pragma once
#define PIPEFY_CPU_MODEL 1
#include "pipefy_cpu.h"
#include_next "harness.cuh"
