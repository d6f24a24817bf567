#!/usr/bin/env bash
# integration/gc_gastown_txtar_human.sh: Gas City's gastown-mail.txtar (cmd/gc/testdata) step by
# step, literally as `human`, as gc runs it, under [compat] gc = true, on mailroom's own store and
# on the exec provider with a gc-style script (testdata/gc/gc_mail.sh). The steps and where mailroom
# answers differently are in testdata/gc/txtar_steps.sh.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
. "$MAILROOM_TESTDATA/gc/txtar_steps.sh"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
needs_compat

for provider in store exec; do
  gc_city "$provider" human mayor deacon witness worker
  gastown_mail_txtar human
done
