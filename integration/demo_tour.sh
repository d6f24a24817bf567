#!/usr/bin/env bash
# make demo's tour (scripts/demo.sh) on the binary under test: every step it promises shows up, it
# exits 0, and nothing it started (the watcher, the server) is left running afterwards.
. "$(dirname "$0")/common.sh"

mkdir -p "$t/tmp"
TMPDIR="$t/tmp" timeout 120 bash "$integration_dir/../scripts/demo.sh" "$MAILROOM" > "$t/tour.out" 2>&1 ||
  { cat "$t/tour.out" >&2; exit 1; }

expect_in_tour() {
  grep -q -E -- "$1" "$t/tour.out" || { cat "$t/tour.out" >&2; echo "the tour has no line matching: $1" >&2; exit 1; }
}
expect_in_tour '^\$ mailroom --as worker check --inject$'
expect_in_tour '^<system-reminder>$'
expect_in_tour '^- \[urgent\] mr-[0-9a-f]+ from lead: The staging database is full$'
expect_in_tour '^\$ mailroom --as worker watch --type task_request --exec \./handle\.sh &$'
expect_in_tour '^Body: +done: make docs \(handled by worker.s watcher\)$'
expect_in_tour '^\$ mailroom team$'
expect_in_tour '^worker +active '
expect_in_tour '^http://127\.0\.0\.1:[0-9]+/login#c=[0-9a-f]+$'
# The throw-away workspace is gone, and no process runs in it any more.
[ -z "$(ls -A "$t/tmp")" ] || { ls -la "$t/tmp" >&2; exit 1; }
for cwd in /proc/[0-9]*/cwd; do
  case "$(readlink "$cwd" 2> /dev/null || true)" in
    "$t/tmp/"*) echo "left running: $(tr '\0' ' ' < "${cwd%/cwd}/cmdline")" >&2; exit 1 ;;
  esac
done
