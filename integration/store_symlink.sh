#!/usr/bin/env bash
# integration/store_symlink.sh: a symbolic link at the store path is refused with exit 5 and its
# own one-line error naming the link and its target (never followed).
. "$(dirname "$0")/common.sh"
mkdir -p "$t/real"
ln -s "$MAILROOM_DB" "$t/real/link.db"
for command in count "send bob hi"; do
  # shellcheck disable=SC2086
  expect_exit 5 mailroom --db "$t/real/link.db" $command 2> "$t/err"
  grep -qx "mailroom ${command%% *}: store \"$t/real/link.db\" is a symbolic link (to \"$MAILROOM_DB\"); mailroom opens only a regular file" "$t/err" ||
    { cat "$t/err" >&2; exit 1; }
done
mailroom --json --db "$t/real/link.db" count 2> "$t/json" > /dev/null || true
[ "$(jq -r .error.reason "$t/json")" = symlink ]
