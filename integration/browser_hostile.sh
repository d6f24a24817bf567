#!/usr/bin/env bash
# integration/browser_hostile.sh: the hostile corpus in subjects, bodies, schedules and a mailbox
# name renders inert on every panel of the dashboard (integration/browser/hostile.mjs): no dialog,
# no element or request from the data, every escape bidi-isolated. Skipped as browser_dashboard.sh is.
. "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "browser_dashboard.sh's smoke subset covers the server under the sanitizers"
. "$integration_dir/browser/suite.bash"
command -v sqlite3 > /dev/null || skip "no sqlite3 (make deps)"
mailroom agents add alice bob > /dev/null
esc=$(printf '\033')
bel=$(printf '\007')
subjects=(
  "<script>window.pwned=true;alert(1)</script> ${esc}[31mred${bel}"
  "\"><img src=x onerror=alert(1)> rtl $(printf '\u202e')gnp.exe $(printf '\u2066')iso"
  "<a href=\"javascript:alert(1)\">click</a> javascript:alert(1) tag$(printf '\U000E0041\U000E007F')"
)
bodies=(
  "<img src=http://127.0.0.1:1/evil onerror=\"window.pwned=true\">${esc}]0;title${bel}"
  "<iframe src=javascript:alert(1)></iframe><svg onload=alert(1)></svg> $(printf '\u200b\u2028')"
  "<style>body{display:none}</style><form action=http://127.0.0.1:1/x><button>go</button></form>"
)
ids=()
for i in 0 1 2; do
  ids+=("$(mailroom send --as alice bob -s "${subjects[$i]}" -m "${bodies[$i]}" --json | jq -r .id)")
done
export HOSTILE_IDS="${ids[*]}"
# A reply, so a trace has a child.
first=${ids[0]}
mailroom reply --as bob "$first" -m "<script>alert(2)</script>" -q
# Schedules with a hostile subject and body, one fired (its history holds a message), one whose
# owner becomes the hostile name below.
mailroom schedule add hostile --as alice bob --every 1h -s "${subjects[1]}" -m "${bodies[1]}" > /dev/null
mailroom schedule run-now --as alice hostile > /dev/null
mailroom schedule add hostile-owner --as alice bob --cron "0 9 * * mon" -s "${subjects[2]}" -m "${bodies[2]}" > /dev/null
# A mailbox name the CLI refuses, put in the store behind its back (as a foreign or damaged store
# could hold): the page must show it as text too.
export HOSTILE_NAME='"><img src=x onerror=alert(1)>'
sqlite3 "$MAILROOM_DB" "INSERT INTO mailboxes (name, registered_at) VALUES ('\"><img src=x onerror=alert(1)>', 0);
  UPDATE beads SET sender = '\"><img src=x onerror=alert(1)>' WHERE id = '$first';
  UPDATE deliveries SET sender = '\"><img src=x onerror=alert(1)>' WHERE message = (SELECT seq FROM beads WHERE id = '$first');
  UPDATE schedules SET sender = '\"><img src=x onerror=alert(1)>' WHERE name = 'hostile-owner';"
start_serve
run_suite hostile.mjs
