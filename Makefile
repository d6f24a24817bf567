# Fixed verbs around CMake. `make demo` and `make test` are the two commands a newcomer needs.
# Every verb installs missing Debian packages first (apt-get; sudo when not root).

SHELL := /bin/bash
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= $(HOME)/.local
WERROR := $(if $(CI),ON,OFF)
CMAKE_COMMON := -G Ninja -DMAILROOM_WARNINGS_AS_ERRORS=$(WERROR)

.PHONY: all build deps test unit asan release bench demo install format tidy check clean

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
