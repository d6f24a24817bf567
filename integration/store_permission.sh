#!/usr/bin/env bash
# integration/store_permission.sh: a user who may not use the store gets exit 5 and one line that
# says who owns the store and its mode (issue #19), for reads and for writes.
. "$(dirname "$0")/common.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to run mailroom as another user"
command -v setpriv > /dev/null || skip "setpriv is not installed"
other=nobody
other_uid=$(id -u "$other") || skip "no user $other"
mailroom agents add bob > /dev/null
mailroom send bob hi > /dev/null
chmod 0711 "$t" # the other user may pass through to the store, nothing more
mkdir -p "$t/other"
chown "$other" "$t/other"
as_other() {
  HOME="$t/other" XDG_CONFIG_HOME="$t/other" setpriv --reuid="$other" --regid="$(id -g "$other")" --clear-groups \
    "$MAILROOM" --db "$MAILROOM_DB" "$@"
}
me="mailroom runs as $other (uid $other_uid)"

# The store is private (0600): reading is refused.
expect_exit 5 as_other --as bob count 2> "$t/err"
grep -qx "mailroom count: permission denied on store \"$MAILROOM_DB\" (owned by root (uid 0), mode 0600; $me)" "$t/err" ||
  { cat "$t/err" >&2; exit 1; }
grep -qx 'hint: every agent sharing a store must run as the user who owns it' "$t/err"
as_other --json --as bob count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = permission ]

# Readable but not writable: reading works, writing says so.
chmod 0644 "$MAILROOM_DB" "$MAILROOM_DB-wal" "$MAILROOM_DB-shm"
expect_exit 0 as_other --as bob count > /dev/null
expect_exit 5 as_other --as bob send bob again 2> "$t/err"
grep -qx "mailroom send: store \"$MAILROOM_DB\" is read-only for you (owned by root (uid 0), mode 0644; $me)" "$t/err" ||
  { cat "$t/err" >&2; exit 1; }
[ "$(mailroom --as bob --json count | jq .total)" -eq 1 ]
