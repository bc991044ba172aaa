// cuda_pipeline.h for the CPU block model: the __pipeline_* calls live in pipefy_cpu.h.
#pragma once
#include "pipefy_cpu.h"
