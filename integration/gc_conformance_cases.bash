# integration/gc_conformance_cases.bash: Gas City's 36 provider conformance cases
# (gastownhall/gascity internal/mail/mailtest/conformance.go, RunProviderTests; listed in
# docs/gas-city.md, "What differs, and why") translated to mailroom's command line, and the runner that plays them
# on one path. Sourced by integration/gc_conformance_*.sh after common.sh.
#
# Each case runs on a fresh, empty city (a directory with its own mailroom.toml and store) and is
# a plain function under `set -e`: the first failed check fails the case. gc's calls become:
#   Send(f, t, s, b)   mailroom --as f send t -s s -m b
#   Inbox(r)           mailroom --json inbox r        Check(r)  mailroom check r
#   Get(id)            mailroom --json peek id        Count(r)  mailroom count r
#   Reply(id, f, s, b) mailroom --as f reply id -s s -m b
#   Thread(tid)        mailroom --json thread tid
#   Read, MarkRead, MarkUnread, Archive, Delete (id only: gc's message has one state)
#                      mailroom [--as READER] read|mark-read|mark-unread|archive|delete id
#   ArchiveMany(ids)   mailroom [--as READER] archive id...   (one line per id, in input order)
#   ArchiveMany(nil)   mailroom archive --to bob --from nobody (a filtered archive matching nothing:
#                      the CLI cannot spell an empty list of ids; `archive` alone is exit 2)
# READER is the recipient, bob, without `[compat] gc`, and nobody (the default identity, human,
# as gc's own CLI tests run) with it: compat acts for the message's one recipient.
# Where mailroom answers by its contract: a second archive is `Already archived <id>` (exit 0,
# gc: an error); unknown ids are exit 3 (exit 5 through gc's MCP bridge, which reports them as a
# failure without gc's not-found marker); Thread_Empty is exit 3 without compat and an empty
# thread with it; Count_EmptyInbox (`count nobody`) is exit 2 without compat, the read side's
# typo check (docs/cli.md), where a registry answers (the store path), and 0 with it.

gc_cases=(
  Send_ReturnsMatchingFields Send_AssignsUniqueIDs Send_SetsRecentCreatedAt
  Inbox_EmptyReturnsNil Inbox_ReturnsMessagesSentToRecipient Inbox_FiltersByRecipient
  Inbox_ExcludesReadMessages Check_ReturnsUnreadMessages Check_DoesNotMarkAsRead
  Read_ReturnsCorrectMessage Read_MarksAsRead Read_MessageStillAccessible Read_UnknownIDReturnsError
  Get_ReturnsMessage Get_DoesNotMarkRead Get_UnknownIDErrors MarkRead_FiltersFromInbox
  MarkUnread_RestoresToInbox Reply_InheritsThreadID Reply_SetsReplyTo Reply_GoesToOriginalSender
  Thread_ReturnsAllInThread Thread_Empty Count_TotalAndUnread Count_EmptyInbox Delete_RemovesFromAll
  Archive_RemovesFromInbox Archive_AlreadyArchivedReturnsError Archive_UnknownIDReturnsError
  ArchiveMany_AllSucceed ArchiveMany_EmptyReturnsNil ArchiveMany_PreservesInputOrder ArchiveMany_MixedOpenClosed
  Lifecycle_SendInboxReadInboxEmpty Lifecycle_SendCheckArchiveInboxEmpty Lifecycle_MarkReadUnreadToggle
)

# --- helpers (a case's current directory is its city) -------------------------------------------

mr() { "$MAILROOM" "$@" < /dev/null; }
# The reader's flags: act as the recipient, or (compat) as the default identity.
reader() { if [ "$gc_compat" = 1 ]; then "$MAILROOM" "$@" < /dev/null; else "$MAILROOM" --as bob "$@" < /dev/null; fi; }
# send FROM TO SUBJECT BODY: prints the new id.
send() {
  mr --as "$1" send "$2" -s "$3" -m "$4" | sed -nE 's/^Sent message ([^ ]+) to .*$/\1/p'
}
field() { mr --json peek "$1" | jq -r ".message.$2 | if type == \"array\" then join(\",\") else . end"; }
inbox_ids() { mr --json inbox "$1" | jq -r '.messages[].id'; }
inbox_size() { mr --json inbox "$1" | jq '.messages | length'; }
exit_of() {
  local got=0
  "$@" > "$gc_case_dir/out" 2> "$gc_case_dir/err" < /dev/null || got=$?
  echo "$got"
}

# --- the 36 cases -------------------------------------------------------------------------------

case_Send_ReturnsMatchingFields() {
  local id
  id=$(send alice bob Greetings hello)
  [ -n "$id" ]
  [ "$(field "$id" from)" = alice ]
  [ "$(field "$id" to)" = bob ]
  [ "$(field "$id" subject)" = Greetings ]
  [ "$(field "$id" body)" = hello ]
}
case_Send_AssignsUniqueIDs() {
  local a b
  a=$(send alice bob one 1)
  b=$(send alice bob two 2)
  [ -n "$a" ]
  [ -n "$b" ]
  [ "$a" != "$b" ]
}
case_Send_SetsRecentCreatedAt() {
  local id at now
  id=$(send alice bob Greetings hello)
  at=$(date -d "$(field "$id" created_at)" +%s)
  now=$(date +%s)
  [ $((now - at)) -le 60 ]
  [ $((at - now)) -le 60 ]
}
case_Inbox_EmptyReturnsNil() {
  [ "$(mr inbox bob)" = "No unread messages for bob" ]
  [ "$(inbox_size bob)" = 0 ]
}
case_Inbox_ReturnsMessagesSentToRecipient() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(inbox_ids bob)" = "$id" ]
}
case_Inbox_FiltersByRecipient() {
  local to_bob
  to_bob=$(send alice bob "for bob" b)
  send alice charlie "for charlie" c > /dev/null
  [ "$(inbox_ids bob)" = "$to_bob" ]
  [ "$(mr --json inbox bob | jq -r '.messages[0].to | join(",")')" = bob ]
}
case_Inbox_ExcludesReadMessages() {
  local id
  id=$(send alice bob Greetings hello)
  reader read "$id" > /dev/null
  [ "$(inbox_size bob)" = 0 ]
}
case_Check_ReturnsUnreadMessages() {
  send alice bob Greetings hello > /dev/null
  [ "$(mr check bob)" = "1 unread message(s) for bob" ]
}
case_Check_DoesNotMarkAsRead() {
  local id
  id=$(send alice bob Greetings hello)
  mr check bob > /dev/null
  [ "$(inbox_ids bob)" = "$id" ]
}
case_Read_ReturnsCorrectMessage() {
  local id out
  id=$(send alice bob Greetings hello)
  out=$(reader read "$id")
  grep -qx "ID:       $id" <<< "$out"
  grep -qx 'From:     alice' <<< "$out"
  grep -qx 'To:       bob' <<< "$out"
  grep -qx 'Body:     hello' <<< "$out"
}
case_Read_MarksAsRead() {
  local id
  id=$(send alice bob Greetings hello)
  reader read "$id" > /dev/null
  [ "$(mr inbox bob)" = "No unread messages for bob" ]
}
case_Read_MessageStillAccessible() {
  local id
  id=$(send alice bob Greetings hello)
  reader read "$id" > /dev/null
  [ "$(field "$id" body)" = hello ]
}
case_Read_UnknownIDReturnsError() {
  send alice bob Greetings hello > /dev/null
  [ "$(exit_of reader read nonexistent)" = "$gc_unknown_exit" ]
}
case_Get_ReturnsMessage() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(field "$id" id)" = "$id" ]
  [ "$(field "$id" body)" = hello ]
}
case_Get_DoesNotMarkRead() {
  local id
  id=$(send alice bob Greetings hello)
  mr peek "$id" > /dev/null
  [ "$(inbox_ids bob)" = "$id" ]
}
case_Get_UnknownIDErrors() {
  send alice bob Greetings hello > /dev/null
  [ "$(exit_of mr peek nonexistent)" = "$gc_unknown_exit" ]
}
case_MarkRead_FiltersFromInbox() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(reader mark-read "$id")" = "Marked $id as read" ]
  [ "$(inbox_size bob)" = 0 ]
}
case_MarkUnread_RestoresToInbox() {
  local id
  id=$(send alice bob Greetings hello)
  reader mark-read "$id" > /dev/null
  [ "$(reader mark-unread "$id")" = "Marked $id as unread" ]
  [ "$(inbox_ids bob)" = "$id" ]
}
case_Reply_InheritsThreadID() {
  local id re
  id=$(send alice bob Greetings hello)
  re=$(mr --as bob reply "$id" -s Re -m back | sed -nE 's/^Replied to [^ ]+ — sent message ([^ ]+) to .*$/\1/p')
  [ -n "$re" ]
  [ "$re" != "$id" ]
  [ "$(field "$re" thread_id)" = "$(field "$id" thread_id)" ]
}
case_Reply_SetsReplyTo() {
  local id re
  id=$(send alice bob Greetings hello)
  re=$(mr --as bob reply "$id" -s Re -m back | sed -nE 's/^Replied to [^ ]+ — sent message ([^ ]+) to .*$/\1/p')
  [ "$(field "$re" reply_to)" = "$id" ]
}
case_Reply_GoesToOriginalSender() {
  local id out re
  id=$(send alice bob Greetings hello)
  out=$(mr --as bob reply "$id" -s Re -m back)
  [[ "$out" == "Replied to $id — sent message "*" to alice" ]]
  re=$(sed -nE 's/^Replied to [^ ]+ — sent message ([^ ]+) to .*$/\1/p' <<< "$out")
  [ "$(field "$re" to)" = alice ]
  [ "$(field "$re" from)" = bob ]
}
case_Thread_ReturnsAllInThread() {
  local id tid
  id=$(send alice bob Greetings hello)
  mr --as bob reply "$id" -s Re -m back > /dev/null
  tid=$(field "$id" thread_id)
  [ "$(mr --json thread "$tid" | jq '.messages | length')" = 2 ]
}
case_Thread_Empty() {
  send alice bob Greetings hello > /dev/null
  [ "$(exit_of mr thread nonexistent-thread)" = 0 ]
  [ "$(cat "$gc_case_dir/out")" = "No messages in thread nonexistent-thread" ]
}
case_Count_TotalAndUnread() {
  local first
  first=$(send alice bob one 1)
  send alice bob two 2 > /dev/null
  reader mark-read "$first" > /dev/null
  [ "$(mr count bob)" = "2 total, 1 unread for bob" ]
}
case_Count_EmptyInbox() {
  send alice bob Greetings hello > /dev/null
  [ "$(mr count nobody)" = "0 total, 0 unread for nobody" ]
}
case_Delete_RemovesFromAll() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(reader delete "$id")" = "Deleted message $id" ]
  [ "$(inbox_size bob)" = 0 ]
  [ "$(mr count bob)" = "0 total, 0 unread for bob" ]
}
case_Archive_RemovesFromInbox() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(reader archive "$id")" = "Archived message $id" ]
  [ "$(inbox_size bob)" = 0 ]
}
case_Archive_AlreadyArchivedReturnsError() {
  local id
  id=$(send alice bob Greetings hello)
  reader archive "$id" > /dev/null
  [ "$(reader archive "$id")" = "Already archived $id" ]
}
case_Archive_UnknownIDReturnsError() {
  send alice bob Greetings hello > /dev/null
  [ "$(exit_of reader archive nonexistent)" = "$gc_unknown_exit" ]
}
case_ArchiveMany_AllSucceed() {
  local a b c
  a=$(send alice bob "" batch)
  b=$(send alice bob "" batch)
  c=$(send alice bob "" batch)
  [ "$(reader archive "$a" "$b" "$c")" = "$(printf 'Archived message %s\n' "$a" "$b" "$c")" ]
  [ "$(inbox_size bob)" = 0 ]
}
case_ArchiveMany_EmptyReturnsNil() {
  send alice bob Greetings hello > /dev/null
  [ "$(mr archive --to bob --from nobody)" = "No matching messages" ]
  [ "$(mr --json archive --to bob --from nobody | jq -c '[.ids, .failed]')" = '[[],[]]' ]
  [ "$(inbox_size bob)" = 1 ]
}
case_ArchiveMany_PreservesInputOrder() {
  local a b c
  a=$(send alice bob "" order)
  b=$(send alice bob "" order)
  c=$(send alice bob "" order)
  [ "$(reader archive "$c" "$a" "$b")" = "$(printf 'Archived message %s\n' "$c" "$a" "$b")" ]
  [ "$(reader --json archive "$c" "$a" "$b" | jq -r '.already | join(" ")')" = "$c $a $b" ]
}
case_ArchiveMany_MixedOpenClosed() {
  local a b c
  a=$(send alice bob "" mixed)
  b=$(send alice bob "" mixed)
  c=$(send alice bob "" mixed)
  reader archive "$b" > /dev/null
  [ "$(reader archive "$a" "$b" "$c")" = "$(printf 'Archived message %s\nAlready archived %s\nArchived message %s' "$a" "$b" "$c")" ]
  [ "$(inbox_size bob)" = 0 ]
}
case_Lifecycle_SendInboxReadInboxEmpty() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(inbox_size bob)" = 1 ]
  reader read "$id" | grep -qx 'Body:     hello'
  [ "$(inbox_size bob)" = 0 ]
  [ "$(field "$id" body)" = hello ]
}
case_Lifecycle_SendCheckArchiveInboxEmpty() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(mr check bob)" = "1 unread message(s) for bob" ]
  reader archive "$id" > /dev/null
  [ "$(inbox_size bob)" = 0 ]
  [ "$(exit_of mr check bob)" = 1 ]
}
case_Lifecycle_MarkReadUnreadToggle() {
  local id
  id=$(send alice bob Greetings hello)
  [ "$(inbox_size bob)" = 1 ]
  reader mark-read "$id" > /dev/null
  [ "$(inbox_size bob)" = 0 ]
  reader mark-unread "$id" > /dev/null
  [ "$(inbox_ids bob)" = "$id" ]
}

# --- the runner ---------------------------------------------------------------------------------

# gc_city_for PATH COMPAT DIR: a fresh city in DIR for PATH (store: mailroom's own store; script:
# the exec provider on testdata/gc/gc_mail.sh, gc's reference script; newest: on
# testdata/gc/gc_stateful.sh, the stateful script of gc's newest exec conformance test; mcp: on
# testdata/gc/gc_mail_mcp.sh, a bridge to mcp_agent_mail as gc's, with testdata/gc/mcp_agent_mail_curl
# as the server; mailroom: the exec provider on `mailroom-gc-mail`, a link to the binary, over a
# store of its own).
gc_city_for() {
  local path=$1 compat=$2 dir=$3
  mkdir -p "$dir/setup" "$dir/city"
  unset MAILROOM_DB MAILROOM_EXEC_STATE MAILROOM_PROVIDER
  {
    printf '[agents]\nnames = ["alice", "bob", "charlie"]\n'
    if [ "$compat" = 1 ]; then printf '\n[compat]\ngc = true\n'; fi
    case $path in
      script) printf '\n[mail]\nprovider = "exec:%s/gc/gc_mail.sh"\n' "$MAILROOM_TESTDATA" ;;
      newest) printf '\n[mail]\nprovider = "exec:%s/gc/gc_stateful.sh"\n' "$MAILROOM_TESTDATA" ;;
      mcp) printf '\n[mail]\nprovider = "exec:%s/gc/gc_mail_mcp.sh"\n' "$MAILROOM_TESTDATA" ;;
      mailroom) printf '\n[mail]\nprovider = "exec:%s/bin/mailroom-gc-mail"\n' "$t" ;;
    esac
  } > "$dir/city/mailroom.toml"
  case $path in
    script | newest)
      export MAILROOM_EXEC_STATE="$dir/state"
      mkdir -p "$MAILROOM_EXEC_STATE"
      ;;
    mcp)
      export GC_MOCK_STATE_DIR="$dir/server" GC_MCP_MAIL_CACHE="$dir/bridge" GC_MCP_MAIL_PROJECT="$dir/city"
      ;;
    *)
      export MAILROOM_DB="$dir/mail.db"
      (cd "$dir/setup" && "$MAILROOM" init > /dev/null)
      ;;
  esac
}

# gc_conformance PATH COMPAT: runs the 36 cases on PATH, each on a fresh city, reports each, and
# sets gc_passed and gc_failed (the names of the failed cases).
gc_conformance() {
  local path=$1 name rc n=0
  gc_compat=$2
  gc_passed=0
  gc_failed=()
  gc_unknown_exit=3
  if [ "$path" = mailroom ] && [ ! -e "$t/bin/mailroom-gc-mail" ]; then
    mkdir -p "$t/bin"
    ln -s "$MAILROOM" "$t/bin/mailroom-gc-mail"
  fi
  if [ "$path" = mcp ]; then
    gc_unknown_exit=5 # the bridge fails an unknown id without gc's not-found marker
    if [ ! -e "$t/mcp-bin/curl" ]; then
      mkdir -p "$t/mcp-bin"
      ln -s "$MAILROOM_TESTDATA/gc/mcp_agent_mail_curl" "$t/mcp-bin/curl"
      export PATH="$t/mcp-bin:$PATH"
    fi
  fi
  for name in "${gc_selected[@]}"; do
    n=$((n + 1))
    gc_case_dir="$t/$path-$gc_compat-$n"
    gc_city_for "$path" "$gc_compat" "$gc_case_dir"
    set +e
    (
      trap - ERR
      set -e
      cd "$gc_case_dir/city"
      "case_$name"
    ) > "$gc_case_dir/log" 2>&1
    rc=$?
    set -e
    if [ "$rc" -eq 0 ]; then
      gc_passed=$((gc_passed + 1))
      echo "ok   $path compat=$gc_compat $name"
    else
      gc_failed+=("$name")
      echo "FAIL $path compat=$gc_compat $name (see $gc_case_dir)"
    fi
  done
  echo "$path compat=$gc_compat: $gc_passed/${#gc_selected[@]}"
}

# The cases run: all 36; under the sanitizers (every process ~20x slower) every fourth, and
# Thread_Empty.
gc_selected=()
for i in "${!gc_cases[@]}"; do
  if [ "${MAILROOM_SANITIZED:-0}" != 1 ] || [ $((i % 4)) -eq 0 ] || [ "${gc_cases[$i]}" = Thread_Empty ]; then
    gc_selected+=("${gc_cases[$i]}")
  fi
done

# expect_conformance PATH [compat-only]: 36/36 under `[compat] gc`; without, Thread_Empty fails
# (and Count_EmptyInbox on the store path); with compat-only (a slow path), only the first.
expect_conformance() {
  local all=${#gc_selected[@]}
  gc_conformance "$1" 1
  [ "$gc_passed" -eq "$all" ] || { echo "expected $all/$all on $1 under [compat] gc: ${gc_failed[*]}" >&2; return 1; }
  [ "${2:-}" != compat-only ] || return 0
  gc_conformance "$1" 0
  local expected=() c
  for c in "${gc_selected[@]}"; do
    # Count_EmptyInbox: only where the reads reach mailroom's registry (the store path; the
    # others read through the exec provider, which has none).
    case "$c/$1" in Thread_Empty/* | Count_EmptyInbox/store) expected+=("$c") ;; esac
  done
  [ "$gc_passed" -eq $((all - ${#expected[@]})) ] && [ "${gc_failed[*]}" = "${expected[*]}" ] \
    || { echo "expected $((all - ${#expected[@]}))/$all (${expected[*]}) on $1 without compat: ${gc_failed[*]}" >&2; return 1; }
  # Thread_Empty without compat: the same words, exit 3.
  gc_city_for "$1" 0 "$t/$1-thread-empty"
  (cd "$t/$1-thread-empty/city" && expect_exit 3 "$MAILROOM" thread nonexistent-thread > "$t/out")
  [ "$(cat "$t/out")" = "No messages in thread nonexistent-thread" ]
}
