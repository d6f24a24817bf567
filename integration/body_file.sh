#!/usr/bin/env bash
# integration/body_file.sh: --body-file and --stdin read bodies; an unreadable file is exit 2
. "$(dirname "$0")/common.sh"
workspace bob
printf 'from a file\nsecond line\n' > "$t/body.txt"
id=$(send_id bob --body-file "$t/body.txt")
[ "$(mailroom --as bob --json peek "$id" | jq -r .message.body)" = $'from a file\nsecond line' ]
id=$(printf 'piped' | send_id bob --stdin -s "subj")
[ "$(mailroom --as bob --json peek "$id" | jq -r .message.body)" = piped ]
expect_exit 2 mailroom send bob --body-file "$t/missing.txt" 2> "$t/err"
grep -q "cannot read body file \"$t/missing.txt\"" "$t/err"
if [ "$(id -u)" != 0 ]; then
  printf 'secret' > "$t/locked.txt"
  chmod 000 "$t/locked.txt"
  expect_exit 2 mailroom send bob --body-file "$t/locked.txt"
fi
expect_exit 2 mailroom send bob "inline" --body-file "$t/body.txt"
