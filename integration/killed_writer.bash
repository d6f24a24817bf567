# integration/killed_writer.bash: the kill loop of issue #51 item 1, sourced by
# integration/store_killed_writer.sh (a bounded count, in make test) and
# testdata/bench/killed_writer.sh (500 kills, in make bench).
#
# killed_writer_loop KILLS TIMES: in the current directory's store (mailboxes alice, bob, carol
# registered), KILLS times: starts one writer (send, reply, watch, mcp in turn), kills it with
# SIGKILL at a random moment of its run, then runs count, check --inject and inbox for the mailbox
# it wrote to, each of which must exit 0 and agree with the others (the count's unread number is
# the inbox's length and the reminder's "You have N unread message(s)."). Appends one line per
# reader run to TIMES: "<kill> <writer> <reader> <milliseconds>". Returns 1 at the first wrong
# answer, saying what it saw. Needs $MAILROOM and jq.

# Milliseconds since the epoch.
kw_now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Runs (exec: becomes, so that its pid is the writer's) the writer of KIND; watch needs a task
# waiting, which kw_prepare sends.
kw_start() {
  case $1 in
    send) exec "$MAILROOM" --as alice send bob -s "kill $2" -m "body $2" -q ;;
    reply) exec "$MAILROOM" --as bob reply "$kw_seed" -m "reply $2" -q ;;
    watch) exec "$MAILROOM" --as bob watch --once --exec cat > /dev/null ;;
    mcp) exec "$MAILROOM" --as carol mcp < "$kw_dir/mcp.$2.in" > /dev/null ;;
  esac
}

# Whose mail KIND writes: send, watch and mcp change bob's, reply alice's.
kw_target() {
  case $1 in
    reply) echo alice ;;
    *) echo bob ;;
  esac
}

kw_prepare() {
  case $1 in
    watch) "$MAILROOM" --as alice send bob --type task_request -s "task $2" -m "task $2" -q ;;
    mcp)
      {
        printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"kill-loop","version":"1"}}}'
        printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}'
        printf '%s\n' "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"send\",\"arguments\":{\"to\":\"bob\",\"subject\":\"mcp $2\",\"body\":\"mcp body $2\"}}}"
      } > "$kw_dir/mcp.$2.in"
      ;;
  esac
}

# kw_read KILL KIND MAILBOX TIMES: the three readers, checked against each other.
kw_read() {
  local kill=$1 kind=$2 box=$3 times=$4 t0 t1 t2 t3 rc=0 unread listed
  t0=$(kw_now_ms)
  "$MAILROOM" --as "$box" --json count > "$kw_dir/count" 2> "$kw_dir/count.err" || rc=$?
  t1=$(kw_now_ms)
  if [ "$rc" -ne 0 ]; then
    kw_fail "count exited $rc after $((t1 - t0)) ms" "$kw_dir/count.err"
    return 1
  fi
  "$MAILROOM" --as "$box" check --inject > "$kw_dir/hook" 2> "$kw_dir/hook.err" || rc=$?
  t2=$(kw_now_ms)
  if [ "$rc" -ne 0 ]; then
    kw_fail "check --inject exited $rc after $((t2 - t1)) ms" "$kw_dir/hook.err"
    return 1
  fi
  "$MAILROOM" --as "$box" --json inbox --no-limit > "$kw_dir/inbox" 2> "$kw_dir/inbox.err" || rc=$?
  t3=$(kw_now_ms)
  if [ "$rc" -ne 0 ]; then
    kw_fail "inbox exited $rc after $((t3 - t2)) ms" "$kw_dir/inbox.err"
    return 1
  fi
  printf '%s %s count %s\n%s %s check_inject %s\n%s %s inbox %s\n' "$kill" "$kind" $((t1 - t0)) \
    "$kill" "$kind" $((t2 - t1)) "$kill" "$kind" $((t3 - t2)) >> "$times"
  unread=$(jq .unread "$kw_dir/count")
  listed=$(jq '.messages | length' "$kw_dir/inbox")
  if [ "$unread" != "$listed" ]; then
    kw_fail "count says $unread unread for $box, inbox lists $listed" /dev/null
    return 1
  fi
  if [ "$unread" -gt 0 ] && ! grep -q "^You have $unread unread message(s)\.$" "$kw_dir/hook"; then
    kw_fail "check --inject does not show $box's $unread unread message(s)" "$kw_dir/hook"
    return 1
  fi
  if [ "$unread" -eq 0 ] && [ -s "$kw_dir/hook" ]; then
    kw_fail "check --inject printed a reminder for an empty inbox" "$kw_dir/hook"
    return 1
  fi
}

kw_fail() {
  echo "after kill #$kw_kill ($kw_kind at ${kw_delay} ms): $1" >&2
  cat "$2" >&2
  ls -l "$MAILROOM_DB"* >&2 2> /dev/null || ls -l .mailroom/ >&2 2> /dev/null || true
}

killed_writer_loop() {
  local kills=$1 times=$2 kinds=(send reply watch mcp) kind start took
  kw_dir=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-kill-loop.XXXXXX")
  kw_seed=$("$MAILROOM" --as alice --json send bob -s seed -m "reply to me" | jq -r .id)
  # How long each writer runs when nothing kills it: the kill falls anywhere in that span.
  declare -A span
  for kind in "${kinds[@]}"; do
    kw_prepare "$kind" 0
    start=$(kw_now_ms)
    (kw_start "$kind" 0)
    took=$(($(kw_now_ms) - start))
    span[$kind]=$((took > 1 ? took : 1))
  done
  for kw_kill in $(seq "$kills"); do
    kw_kind=${kinds[$((kw_kill % 4))]}
    kw_prepare "$kw_kind" "$kw_kill"
    kw_delay=$((RANDOM % (span[$kw_kind] + 1)))
    (kw_start "$kw_kind" "$kw_kill") &
    local pid=$!
    sleep "$(printf '%d.%03d' $((kw_delay / 1000)) $((kw_delay % 1000)))"
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
    kw_read "$kw_kill" "$kw_kind" "$(kw_target "$kw_kind")" "$times" || return 1
  done
  rm -rf "$kw_dir"
}
