#!/usr/bin/env bash
# integration/send_misroute.bash: sourced (after common.sh, with a store in place and alice, bob,
# carol and lead registered where the store has a registry) by send_misroute.sh and
# postgres_send_misroute.sh. The contract's "No silent misroutes" on the store in use:
#   misroute_checks REGISTRY WATCH   REGISTRY: yes when the store has a registry (the would-be
#                                    subject is checked against it); WATCH: yes when it has claims

# count_for NAME: NAME's total.
count_for() { mailroom --json --as "$1" count | jq .total; }

# piped DATA CMD...: runs CMD with DATA already waiting in a pipe on its standard input (the
# writer stays open, so only the data can say there is something to read; no race with a writer).
piped() {
  local data=$1 rc=0
  shift
  rm -f "$t/pipe"
  mkfifo "$t/pipe"
  exec 8<> "$t/pipe"
  printf '%s' "$data" >&8
  "$@" < "$t/pipe" || rc=$?
  exec 8>&-
  return "$rc"
}

misroute_checks() {
  local registry=$1 watch=$2 before
  if grep -q '^\[groups\]' mailroom.toml 2> /dev/null; then
    sed -i '/^\[groups\]/a ops = ["bob", "carol"]' mailroom.toml
  else
    printf '\n[groups]\nops = ["bob", "carol"]\n' >> mailroom.toml
  fi

  # send A B BODY with B a group (any store) or a registered mailbox: exit 2, nothing sent.
  before=$(count_for bob)
  expect_exit 2 mailroom --as alice send bob @ops "lunch at noon" 2> "$t/err"
  grep -q '^hint: to send to several, use --to bob --to @ops$' "$t/err"
  if [ "$registry" = yes ]; then
    expect_exit 2 mailroom --as alice send bob carol "lunch at noon" 2> "$t/err"
    grep -q 'would be the subject, but it names a recipient' "$t/err"
    grep -q '^hint: to send to several, use --to bob --to carol$' "$t/err"
    [ "$(count_for carol)" = 0 ]
  else
    # Without a registry there is nothing to check a name against: gc's subject.
    mailroom --as alice send bob carol "lunch at noon" > /dev/null
    before=$((before + 1))
  fi
  [ "$(count_for bob)" = "$before" ]
  mailroom --as alice send --to bob --to carol -s lunch -m "at noon" > /dev/null

  # -s alone with piped data: exit 2 with the --stdin hint, nothing stored, nothing consumed.
  before=$(count_for bob)
  piped 'the body\n' expect_exit 2 mailroom --as alice send bob -s note 2> "$t/err"
  grep -qx 'mailroom send: standard input has data but -s alone is a complete message' "$t/err"
  grep -qx "hint: add - (or --stdin) to send it as the body, or -m '' for none" "$t/err"
  [ "$(count_for bob)" = "$before" ]
  # A file on standard input is the same; - sends it.
  printf 'from a file\n' > "$t/body.txt"
  expect_exit 2 mailroom --as alice send bob -s note < "$t/body.txt" 2> /dev/null
  id=$(mailroom --json --as alice send bob -s note - < "$t/body.txt" | jq -r .id)
  [ "$(mailroom --json --as bob peek "$id" | jq -r .message.body)" = "from a file" ]
  # cron's </dev/null: the subject-only message.
  id=$(mailroom --json --as alice send bob -s "nightly ok" < /dev/null | jq -r .id)
  mailroom --json --as bob peek "$id" | jq -e '.message.subject == "nightly ok" and .message.body == ""' > /dev/null
  # -m '' with -s: an explicit empty body, stdin untouched; an empty --stdin body is exit 2.
  piped 'left alone\n' mailroom --as alice send bob -s "empty" -m '' > /dev/null
  printf '' | expect_exit 2 mailroom --as alice send bob -s "empty" --stdin 2> /dev/null
  expect_exit 2 mailroom --as alice send bob -m '' 2> /dev/null

  # An open pipe nobody writes to: after the short wait the subject-only message goes, no hang.
  mkfifo "$t/silent"
  exec 7<> "$t/silent" # held open for writing, never written
  timeout 30 "$MAILROOM" --as alice send bob -s "silent pipe" < "$t/silent" > /dev/null
  exec 7>&-
  [ "$(mailroom --json --as bob inbox | jq '[.messages[] | select(.subject == "silent pipe")] | length')" = 1 ]

  # A while-read loop: send never eats the loop's input. -s alone is refused while lines remain;
  # with </dev/null (or -m '') every line is sent.
  printf 'bob\ncarol\n' > "$t/list"
  local seen=0 refused=0 name
  while read -r name; do
    seen=$((seen + 1))
    mailroom --as alice send "$name" -s "loop" > /dev/null 2>&1 || refused=$((refused + 1))
  done < "$t/list"
  [ "$seen" = 2 ] && [ "$refused" = 1 ]
  seen=0
  while read -r name; do
    seen=$((seen + 1))
    mailroom --as alice send "$name" -s "loop ok" < /dev/null > /dev/null
  done < "$t/list"
  [ "$seen" = 2 ]
  [ "$(mailroom --json --as carol inbox | jq '[.messages[] | select(.subject == "loop ok")] | length')" = 1 ]

  # reply follows the same rules.
  id=$(mailroom --json --as alice send bob -s question -m "ready?" | jq -r .id)
  piped 'data\n' expect_exit 2 mailroom --as bob reply "$id" -s "yes" 2> /dev/null
  mailroom --as bob reply "$id" -s "yes" < /dev/null > /dev/null

  if [ "$watch" = yes ]; then
    # A watch handler's standard input is the task body: send -s alone in it is refused (the
    # handler fails visibly); with -m '' or </dev/null it sends.
    cat > "$t/handler" << SH
#!/bin/sh
"$MAILROOM" --as "\$MAILROOM_MAILBOX" send lead -s "bare \$MAILROOM_ID" 2>> "$t/handler.err" && echo bare-sent >> "$t/handler.log"
"$MAILROOM" --as "\$MAILROOM_MAILBOX" send lead -s "done \$MAILROOM_ID" -m '' && echo m-sent >> "$t/handler.log"
"$MAILROOM" --as "\$MAILROOM_MAILBOX" send lead -s "null \$MAILROOM_ID" < /dev/null && echo null-sent >> "$t/handler.log"
cat > /dev/null
SH
    chmod +x "$t/handler"
    mailroom --as lead send carol --type task_request -s "build it" -m "the task body" > /dev/null
    mailroom --as carol watch --once --type task_request --exec "$t/handler" > /dev/null 2>&1
    grep -q 'standard input has data but -s alone is a complete message' "$t/handler.err"
    [ "$(sort "$t/handler.log" | tr '\n' ' ')" = "m-sent null-sent " ]
    [ "$(mailroom --json --as lead inbox | jq '[.messages[] | select(.subject | test("^(done|null) "))] | length')" = 2 ]
    [ "$(mailroom --json --as lead inbox | jq '[.messages[] | select(.subject | test("^bare "))] | length')" = 0 ]
  fi
}
