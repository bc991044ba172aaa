// bench/public/common/pre.h: what a wrap.cu includes before it puts a repository's file in a
// namespace (PUB_NS): the system and toolkit headers those files (and pipefy's rewrites of
// them) include, so that their #include inside the namespace finds them already included
// (include guards) instead of declaring the toolkit inside the namespace.
#pragma once
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cuda_pipeline.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <cublas_v2.h>
#include <curand.h>
#include <assert.h>
#include <memory.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

// The repository file's own main() (if any) is renamed, so it can sit in a namespace.
#define main pub_repo_main
