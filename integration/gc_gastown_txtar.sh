#!/usr/bin/env bash
# integration/gc_gastown_txtar.sh: Gas City's gastown-mail.txtar (cmd/gc/testdata) step by step,
# with agent identities (GC_ALIAS=<agent> acts on its own mail), on mailroom's own store and on the
# exec provider with a gc-style script (testdata/gc/gc_mail.sh). The steps and where mailroom
# answers differently are in testdata/gc/txtar_steps.sh.
. "$(dirname "$0")/common.sh"
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
. "$MAILROOM_TESTDATA/gc/txtar_steps.sh"
command -v flock > /dev/null || skip "flock (util-linux) not installed"
for provider in store exec; do
  gc_city "$provider" agents mayor deacon witness worker
  gastown_mail_txtar agents
done
