#!/usr/bin/env bash
# integration/browser_untested_chromium.sh: the browser suites skip on a Chromium outside the tested
# range, and fail on one under CI=true (integration/browser/suite.bash), so CI never passes without
# the page having run. The installed Chromium is made "untested" by a range that excludes it.
. "$(dirname "$0")/common.sh"
command -v node > /dev/null || skip "no node on PATH"
[ -x /usr/bin/chromium ] || skip "no /usr/bin/chromium"
[ -d "$integration_dir/browser/node_modules/playwright-core" ] || skip "run 'make deps'"
untested() {
  # A subshell with the suite's prelude only: the range ends below every real major.
  (
    # shellcheck disable=SC2034 # read by suite.bash
    chromium_tested_min=1 chromium_tested_max=2
    . "$integration_dir/browser/suite.bash"
    echo "the suite went on"
  )
}
status=0
CI=true untested > "$t/ci.out" 2> "$t/ci.err" || status=$?
[ "$status" = 1 ]
grep -q '^FAIL: Chromium [0-9.]* is outside the tested range 1-2' "$t/ci.err"
not grep -q 'the suite went on' "$t/ci.out"
status=0
CI='' untested > "$t/local.out" 2> "$t/local.err" || status=$?
[ "$status" = 125 ]
not grep -q 'the suite went on' "$t/local.out"
echo ok
