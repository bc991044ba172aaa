# The two set-up commands: `make demo` and `make check`. Everything else is CMake's.
BUILD ?= build
JOBS ?= $(shell nproc)

.PHONY: all bootstrap build demo check goldens gpu-check clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Rewrite the bundled SGEMM and show the result and the remarks.
demo: build
	@echo "== pipefy testdata/sgemm_tiled.cu  (rewritten kernel, then the remarks)"
	@$(BUILD)/pipefy testdata/sgemm_tiled.cu 2>$(BUILD)/demo.remarks | sed -n '/__global__/,/^}/p'
	@echo "== remarks"
	@cat $(BUILD)/demo.remarks

check: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Rewrite every golden after a deliberate change; review `git diff golden/` before committing.
goldens: build
	@tests/golden.sh --update $(BUILD)/pipefy

clean:
	rm -rf $(BUILD)
