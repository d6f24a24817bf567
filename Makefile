# Fixed verbs around CMake. `make demo` and `make test` are the two commands a newcomer needs.
# Every verb installs missing Debian packages first (apt-get; sudo when not root).

SHELL := /bin/bash
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= $(HOME)/.local
WERROR := $(if $(CI),ON,OFF)
CMAKE_COMMON := -G Ninja -DMAILROOM_WARNINGS_AS_ERRORS=$(WERROR)

.PHONY: all build deps test unit asan release bench demo install format tidy check clean fuzz

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	cmake -S . -B build $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug
	cmake --build build -j $(JOBS)

test: build
	cd build && ctest --output-on-failure -j $(JOBS)

asan: deps
	cmake -S . -B build/asan $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug \
	  -DMAILROOM_ENABLE_ASAN=ON -DMAILROOM_ENABLE_UBSAN=ON
	cmake --build build/asan -j $(JOBS)
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

release: deps
	cmake -S . -B build/release $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BUILD_TESTS=OFF \
	  -DMAILROOM_FULLY_STATIC=$(if $(DYNAMIC),OFF,ON)
	cmake --build build/release -j $(JOBS) --target mailroom mailroom-bench-seed

bench: release
	bash testdata/bench/run.sh build/release/mailroom

# libFuzzer targets under ASan+UBSan, built with Debian's clang (installed here, not by deps),
# each run for FUZZ_SECONDS on a corpus kept in build/fuzz/corpus; crashes go to build/fuzz/crashes.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= sanitize reminder render address config exec_wire
FUZZ_DIR := internal/testing/fuzz

fuzz: deps
	@for p in clang libclang-rt-14-dev; do \
	  dpkg-query -W -f='$${Status}' $$p 2> /dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing > /dev/null; \
	fi
	cmake -S . -B build/fuzz $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DMAILROOM_FUZZ=ON -DMAILROOM_ENABLE_ASAN=ON -DMAILROOM_ENABLE_UBSAN=ON -DMAILROOM_BUILD_TESTS=OFF
	cmake --build build/fuzz -j $(JOBS) --target fuzz_all
	@mkdir -p build/fuzz/crashes; failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus/$$t; \
	  [ -d $(FUZZ_DIR)/seeds/$$t ] && cp -n $(FUZZ_DIR)/seeds/$$t/* build/fuzz/corpus/$$t/ 2> /dev/null; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    build/fuzz/$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -dict=$(FUZZ_DIR)/gate.dict -artifact_prefix=build/fuzz/crashes/$$t- build/fuzz/corpus/$$t \
	    2> build/fuzz/$$t.log; then \
	    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' build/fuzz/$$t.log; \
	  else \
	    grep -E -A12 '^==[0-9]+==ERROR|runtime error|invariant broken' build/fuzz/$$t.log | head -n 30; \
	    failed="$$failed $$t"; \
	  fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: crashes in:$$failed (inputs in build/fuzz/crashes)"; exit 1; fi

demo: build
	bash scripts/demo.sh build/mailroom

install: release
	install -d $(PREFIX)/bin
	install -m 0755 build/release/mailroom $(PREFIX)/bin/mailroom

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

tidy: build
	clang-tidy -p build --quiet $$(git ls-files '*.cpp' | grep -v _test.cpp)

check: test tidy
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build
