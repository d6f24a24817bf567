# Fixed verbs around CMake. `make demo` and `make test` are the two commands a newcomer needs.
# Every verb installs the Debian packages it needs first (scripts/install-deps.sh: apt-get, through
# sudo when not root; without sudo it prints the apt-get line and exits 2).

SHELL := /bin/bash
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= $(HOME)/.local
WERROR := $(if $(CI),ON,OFF)
# Under CI the libraries build as one unit each (CMakeLists.txt, "Unity build"): a cold build in
# minutes on two cores. UNITY=ON or OFF overrides.
UNITY ?= $(if $(CI),ON,OFF)
CMAKE_COMMON := -G Ninja -DMAILROOM_WARNINGS_AS_ERRORS=$(WERROR)

.PHONY: all build deps lint test test-no-postgres unit golden-sql asan release package bench demo install uninstall format tidy check clean fuzz

all: build

deps:
	@bash scripts/install-deps.sh

# Under CI the unit tests are compiled once, with ASan and UBSan, and run by `make asan`; the Debug
# tree then builds the binaries the integration scripts run (README, "Tests").
UNIT_IN_DEBUG ?= $(if $(CI),OFF,ON)
CONFIGURE_DEBUG = cmake -S . -B build $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DMAILROOM_UNITY=$(UNITY) \
  -DMAILROOM_UNIT_TESTS=$(UNIT_IN_DEBUG)

build: deps
	$(CONFIGURE_DEBUG)
	cmake --build build -j $(JOBS)

# Every test, the package's included (integration/package.sh: its contents and lintian; as root
# under CI=true or MAILROOM_TEST_PACKAGE=1, integration/package_install.sh installs it, sends and
# reads mail with it in a temporary HOME, and removes it). Under CI=true the unit tests are left to
# `make asan`, which compiles them once, sanitized (UNIT_IN_DEBUG above).
test: build package
	cd build && MAILROOM_DEB="$(abspath $(DEB))" ctest --output-on-failure -j $(JOBS)

# The inner loop: the unit tests on SQLite (the contract suite on a memory and a file store
# included), the layering check and the Unicode tables: the tests labelled `fast` (README).
unit: deps
	$(CONFIGURE_DEBUG) -DMAILROOM_UNIT_TESTS=ON
	cmake --build build -j $(JOBS) --target mailroom mailroom_unittest
	cd build && ctest --output-on-failure -j $(JOBS) -L '^fast$$'

# Rewrites the golden files of every SQL statement of both engines (testdata/sql/beads.sql and
# postgres.sql, docs/store.md "Reading the SQL") from the statements this tree builds; review the diff.
golden-sql: deps
	$(CONFIGURE_DEBUG) -DMAILROOM_UNIT_TESTS=ON
	cmake --build build -j $(JOBS) --target mailroom_unittest
	UPDATE_GOLDEN=1 build/mailroom_unittest -ts='*sql golden*'

# The build without the PostgreSQL store (no libpq): the binary and the unit tests, which leave
# out the PostgreSQL ones (tests/CMakeLists.txt). `make check` runs it.
test-no-postgres: deps
	cmake -S . -B build/no-postgres $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DMAILROOM_POSTGRES=OFF
	cmake --build build/no-postgres -j $(JOBS)
	cd build/no-postgres && ctest --output-on-failure -j $(JOBS) -R '^(unit|layering)'

# ASan and UBSan over the unit tests (the provider contract on SQLite, on a PostgreSQL server and
# through the exec provider included) and the integration scripts that feed hostile input to the
# hook, the MCP server and the HTTP server. The other scripts start a sanitized binary hundreds of
# times, each tens of times slower, through code the unit tests cover (README, "Tests").
# ASAN_TESTS (a ctest -R regex) chooses otherwise.
ASAN_TESTS ?= ^(unit|unit\.exec_contract|unit\.postgres|unit\.postgres_contract|integration\.(deep_json|hostile_body|check_inject_tags|import_hostile_ids|serve_hostile_requests|mcp_protocol))$$
asan: deps
	cmake -S . -B build/asan $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Debug -DMAILROOM_UNITY=$(UNITY) \
	  -DMAILROOM_UNIT_TESTS=ON -DMAILROOM_ENABLE_ASAN=ON -DMAILROOM_ENABLE_UBSAN=ON
	cmake --build build/asan -j $(JOBS) --target mailroom mailroom_unittest
	cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -R '$(ASAN_TESTS)'

release:
	@bash scripts/install-deps.sh package
	cmake -S . -B build/release $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BUILD_TESTS=OFF \
	  -DMAILROOM_FULLY_STATIC=$(if $(DYNAMIC),OFF,ON)
	cmake --build build/release -j $(JOBS) --target mailroom mailroom-bench-seed mailroom-bench-corpus mailroom-bench-pg-seed

# The Debian package (scripts/package.sh, packaging/deb/): the fully static release binary, built
# in a tree of its own as a unity build (a fraction of the CPU time of `make release`; it is also the
# build that keeps make demo's unity build compiling), checked by lintian. Warnings are not errors
# here even in CI: at -O2 GCC 12 reports false positives inside libstdc++, Boost.Asio and JSON for
# Modern C++ (-Wrestrict, -Wnull-dereference); the Debug and ASan builds hold the warnings line.
DEB = build/package/mailroom_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_VERSION = $(shell sed -n '1s/^mailroom (\([^ ]*\)) .*/\1/p' packaging/deb/changelog)
DEB_ARCH = $(shell dpkg --print-architecture)

package:
	@bash scripts/install-deps.sh package
	cmake -S . -B build/package/release $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Release -DMAILROOM_UNITY=ON \
	  -DMAILROOM_BUILD_TESTS=OFF -DMAILROOM_FULLY_STATIC=ON -DMAILROOM_WARNINGS_AS_ERRORS=OFF
	cmake --build build/package/release -j $(JOBS) --target mailroom
	bash scripts/package.sh build/package/release/mailroom build/package

bench: release
	bash testdata/bench/run.sh build/release/mailroom

# libFuzzer targets under ASan+UBSan, built with Debian's clang (installed here, not by deps),
# each run for FUZZ_SECONDS on a corpus kept in build/fuzz/corpus; crashes go to build/fuzz/crashes.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= sanitize reminder render address config exec_wire
FUZZ_DIR := tests/fuzz

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

# The newcomer's tour: only the build packages, only the mailroom binary, in the Demo build type
# (no optimisation, no debug information, a unity build, no PostgreSQL store), then
# scripts/demo.sh. BENCHMARKS.md, "Build time", has what it costs.
demo:
	@bash scripts/install-deps.sh demo
	cmake -S . -B build/demo $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=Demo -DMAILROOM_UNITY=ON -DMAILROOM_POSTGRES=OFF \
	  -DMAILROOM_BUILD_TESTS=OFF
	cmake --build build/demo -j $(JOBS) --target mailroom
	bash scripts/demo.sh build/demo/mailroom

# `make install PREFIX=/usr/local` (DESTDIR for packaging): the binary and its `mailroom-gc-mail`
# link (docs/gas-city.md), the man page and the
# completion scripts where bash-completion, zsh and fish look for them under PREFIX. The scripts
# are generated by the binary from its own parser.
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
INSTALLED := $(DESTDIR)$(BINDIR)/mailroom $(DESTDIR)$(BINDIR)/mailroom-gc-mail $(DESTDIR)$(MANDIR)/man1/mailroom.1 \
  $(DESTDIR)$(BASHCOMPDIR)/mailroom $(DESTDIR)$(ZSHCOMPDIR)/_mailroom $(DESTDIR)$(FISHCOMPDIR)/mailroom.fish
MAILROOM_BIN ?= build/release/mailroom

install: $(if $(filter build/release/mailroom,$(MAILROOM_BIN)),release)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
	  $(DESTDIR)$(FISHCOMPDIR)
	install -m 0755 $(MAILROOM_BIN) $(DESTDIR)$(BINDIR)/mailroom
	ln -sf mailroom $(DESTDIR)$(BINDIR)/mailroom-gc-mail  # Gas City's mail script: GC_MAIL=exec:mailroom-gc-mail
	install -m 0644 docs/man/mailroom.1 $(DESTDIR)$(MANDIR)/man1/mailroom.1
	$(MAILROOM_BIN) completion bash > $(DESTDIR)$(BASHCOMPDIR)/mailroom
	$(MAILROOM_BIN) completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_mailroom
	$(MAILROOM_BIN) completion fish > $(DESTDIR)$(FISHCOMPDIR)/mailroom.fish

uninstall:
	rm -f $(INSTALLED)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

tidy: build
	clang-tidy -p build --quiet $$(git ls-files '*.cpp' | grep -v _test.cpp)

# The cheap checks, which CI runs first: the formatting, and every relative link in the Markdown
# files resolves.
lint:
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.hpp')
	python3 scripts/check-doc-links.py

# Also: cmake/startup-order.txt still names the release binary's start-up functions
# (scripts/startup-order.sh regenerates it).
check: lint test test-no-postgres tidy release
	bash scripts/check-startup-order.sh build/release/mailroom

clean:
	rm -rf build
