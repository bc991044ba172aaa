# The two set-up commands: `make demo` and `make check`. Everything else is CMake's.
BUILD ?= build
JOBS ?= $(shell nproc)
# warnings fail the build only where asked: CI runs `make check WERROR=ON`
WERROR ?= OFF

.PHONY: all bootstrap build demo check check-more gen gen-check gpu-fuzz-build gpu-fuzz check-asan check-valgrind fuzz tool-speed goldens gpu-build gpu-check gpu-stress bench-build bench bench-chains-build bench-chains public clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPIPEFY_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Rewrite the bundled SGEMM and show the result and the remarks.
demo: build
	@echo "== pipefy testdata/sgemm_tiled.cu  (rewritten kernel, then the remarks)"
	@$(BUILD)/pipefy testdata/sgemm_tiled.cu 2>$(BUILD)/demo.remarks | sed -n '/__global__/,/^}/p'
	@echo "== remarks"
	@cat $(BUILD)/demo.remarks

check: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE more

# The tests too long for `make check`'s 8 minutes (nvcc's compiles of every program and golden,
# the block model's runs of each program, generated programs' seeds 21-160, the cache's and the
# build integrations' tests); CI runs them.
check-more: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L more

# One generated program (tests/gen/gen.py): `make gen SEED=42`; and any number of them through
# pipefy and the CPU block model: `make gen-check SEEDS=1000` (make check runs seeds 1-20,
# make check-more 21-160).
SEED ?= 1
SEEDS ?= 1000
gen:
	@python3 tests/gen/gen.py $(SEED)
gen-check: build
	@GEN_ALL_RERUNS=1 tests/gen/check.sh $(BUILD)/pipefy 1 $(SEEDS)

# pipefy over the public kernels of public/MANIFEST.md (public/src/, filled by public/fetch.py
# from the fetched repositories), and the tally by remark class; TALLY_CONFIGS=default: sm_80 only.
public: build
	@public/tally.sh $(BUILD)/pipefy

# The CPU-side suite again with AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan: bootstrap
	@cmake -S . -B $(BUILD)-asan -DPIPEFY_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build $(BUILD)-asan -j $(JOBS)
	@cd $(BUILD)-asan && ctest --output-on-failure -j $(JOBS) -R '^(unit|cli|cli/.*|runs|cache|fuzz-regressions|golden/.*)$$'

# The command-line tests with every pipefy run under valgrind memcheck (slow: minutes).
check-valgrind: build
	tests/valgrind.sh $(BUILD)/pipefy

# libFuzzer over the library for FUZZ_SECONDS (CI: 60); the corpus is kept in $(BUILD)-fuzz.
# A long campaign that records findings and goes on:
#   make fuzz FUZZ_SECONDS=3600 FUZZ_FLAGS="-fork=1 -ignore_crashes=1 -ignore_timeouts=1"
FUZZ_SECONDS ?= 60
fuzz: bootstrap
	@cmake -S . -B $(BUILD)-fuzz -DPIPEFY_FUZZ=ON -DCMAKE_C_COMPILER=clang-19 >/dev/null
	@cmake --build $(BUILD)-fuzz -j $(JOBS) --target fuzz_pipefy
	FUZZ_FLAGS="$(FUZZ_FLAGS)" tests/fuzz/run.sh $(BUILD)-fuzz/fuzz_pipefy $(FUZZ_SECONDS) $(BUILD)-fuzz

# Rewrite every golden after a deliberate change; review `git diff golden/` before committing.
goldens: build
	@tests/golden.sh --update $(BUILD)/pipefy

# The GPU check and the benchmark. Building needs only nvcc; running needs an NVIDIA GPU
# (with cuobjdump and compute-sanitizer). On a machine without one, build here, copy the
# tree with build/gpu and build/bench to the GPU machine, and run the same targets there.
GPU_OUT ?= $(BUILD)/gpu-results
BENCH_OUT ?= $(BUILD)/bench-results

gpu-build: build
	tests/gpu/build.sh $(BUILD)/gpu
	$(CC) -std=c11 -O2 -static -o $(BUILD)/gpu/pipefy-verify-sass tool/verify_sass.c

gpu-check:
	@[ -d $(BUILD)/gpu/bin ] || $(MAKE) gpu-build
	@command -v nvidia-smi >/dev/null || { echo "gpu-check: no NVIDIA GPU here; binaries are in $(BUILD)/gpu"; exit 1; }
	tests/gpu/env.sh > $(GPU_OUT).env
	tests/gpu/run.sh $(BUILD)/gpu $(GPU_OUT)
	tests/gpu/sass.sh $(BUILD)/gpu/pipefy-verify-sass $(GPU_OUT)
	cp $(GPU_OUT).env $(GPU_OUT)/env.txt
	tests/gpu/report.sh $(GPU_OUT) > tests/gpu/RESULTS.md

# Generated programs on a GPU: `make gpu-fuzz SEEDS=N`. The sources (originals and pipefy's
# rewrites, batched) are made here; building with nvcc and running need the GPU machine.
GPU_FUZZ_OUT ?= $(BUILD)/gpu-fuzz-results
FUZZ_SAN ?= 30 # compute-sanitizer on every FUZZ_SAN-th seed's programs
gpu-fuzz-build: build
	tests/gpu/fuzz_prepare.sh $(BUILD)/pipefy $(BUILD)/gpu-fuzz 1 $(SEEDS)

gpu-fuzz:
	@[ -f $(BUILD)/gpu-fuzz/manifest.tsv ] || $(MAKE) gpu-fuzz-build
	@command -v nvidia-smi >/dev/null || { echo "gpu-fuzz: no NVIDIA GPU here; sources are in $(BUILD)/gpu-fuzz"; exit 1; }
	tests/gpu/fuzz_run.sh $(BUILD)/gpu-fuzz $(GPU_FUZZ_OUT) $(FUZZ_SAN)
	tests/gpu/env.sh > $(GPU_FUZZ_OUT)/env.txt
	tests/gpu/fuzz_report.sh $(BUILD)/gpu-fuzz $(GPU_FUZZ_OUT) > tests/gpu/FUZZ.md

bench-build: build
	bench/build.sh $(BUILD)/pipefy $(BUILD)/bench

bench:
	@[ -d $(BUILD)/bench/bin ] || $(MAKE) bench-build
	@command -v nvidia-smi >/dev/null || { echo "bench: no NVIDIA GPU here; binaries are in $(BUILD)/bench"; exit 1; }
	bench/run.sh $(BUILD)/bench $(BENCH_OUT)
	tests/gpu/env.sh > $(BENCH_OUT)/env.txt
	cp $(BUILD)/bench/refused.txt $(BUILD)/bench/auto.txt $(BENCH_OUT)/
	bench/report.sh $(BENCH_OUT) > $(BENCH_OUT)/RESULTS.md
	cp $(BENCH_OUT)/RESULTS.md bench/RESULTS.md

# Kernel chains end to end (launches back to back): as written, overlapped, with pipelined GEMMs.
bench-chains-build: build
	bench/chains.sh build $(BUILD)/pipefy $(BUILD)/chains

bench-chains:
	@[ -d $(BUILD)/chains/bin ] || $(MAKE) bench-chains-build
	@command -v nvidia-smi >/dev/null || { echo "bench-chains: no NVIDIA GPU here; binaries are in $(BUILD)/chains"; exit 1; }
	bench/chains.sh run $(BUILD)/chains > $(BUILD)/chains.txt
	bench/chains.sh report $(BUILD)/chains > bench/CHAINS.md

# Races that show in some runs only: every Hopper-copy variant of the bench, and auto's choice,
# run REPEAT more times at 8192³, each output equal to the first and the original's.
gpu-stress:
	@[ -d $(BUILD)/bench/bin ] || $(MAKE) bench-build
	@command -v nvidia-smi >/dev/null || { echo "gpu-stress: no NVIDIA GPU here; binaries are in $(BUILD)/bench"; exit 1; }
	{ echo "# Repeated runs (make gpu-stress)"; echo; echo "$$(date -u '+%Y-%m-%d %H:%M UTC'), $$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"; \
	  echo; bench/stress.sh $(BUILD)/bench; } > $(BUILD)/stress.md; rc=$$?; cp $(BUILD)/stress.md tests/gpu/STRESS.md; exit $$rc

# pipefy's wall time against nvcc --cubin (no GPU needed): a section of bench/RESULTS.md.
tool-speed: build
	bench/tool-speed.sh $(BUILD)/pipefy

clean:
	rm -rf $(BUILD)
