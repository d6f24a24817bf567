#!/bin/sh
# mailroom testdata: a stateful mail script that does exactly what Gas City's own reference exec
# script does, and nothing more (docs/exec-protocol.md, "A gc script under mailroom"). It is how
# mailroom tests what real gc scripts can and cannot do:
#
#   ops      ensure-running (nothing to do, exit 0, as gc's reference), send <to>, reply <id>,
#            inbox|check|count <mailbox>, thread <thread-id>, get|read|mark-read|mark-unread|
#            archive|delete <id>. Everything else, `all`, `unarchive` and `capabilities`
#            included, exits 2: unknown operation.
#   JSON     gc's Message keys only (id, from, to as one string, subject, body, created_at,
#            thread_id, reply_to when set). `read` appears only in get and read, as in gc's
#            reference; `archived` and `priority` never.
#   subjects stored as sent: a send or reply without a subject has subject "".
#   errors   an unknown id prints "gc-mail-error:not-found: …" and exits 1; a second archive
#            prints "already archived" and exits 1.
#
# State in $MAILROOM_EXEC_STATE (default ./.gc-mail-state): per message <id>.json (the message
# as printed), <id>.to, <id>.from, <id>.thread, and <id>.flags ("<read> <archived>", each 0 or 1).
# Changes take a flock; jq runs only to turn the send JSON into a message.
set -eu

state=${MAILROOM_EXEC_STATE:-./.gc-mail-state}
msgs=$state/gc-msgs
op=${1:-}
arg=${2:-}

fail() {
  printf '%s\n' "$*" >&2
  exit 1
}

# Checks that $1 names a stored message (before it becomes a path) and sets `m` to its prefix.
message() {
  case $1 in
    '' | .* | */* | *[!A-Za-z0-9._-]*) fail "gc-mail-error:not-found: message \"$1\" not found" ;;
  esac
  m=$msgs/$1
  [ -f "$m.json" ] || fail "gc-mail-error:not-found: message \"$1\" not found"
}

# Sets `$2` to the first line of file $1.
line_of() {
  IFS= read -r "$2" < "$1" || true
}

# Sets `is_read` and `is_archived` from message prefix $1.
flags_of() {
  line_of "$1.flags" flags
  is_read=${flags% *}
  is_archived=${flags#* }
}

set_flags() {
  printf '%s %s\n' "$2" "$3" > "$1.flags.tmp"
  mv "$1.flags.tmp" "$1.flags"
}

# Prints message prefix $1 with a "read" key added, as gc's get and read do.
print_with_read() {
  line_of "$1.json" json
  printf '%s,"read":%s}\n' "${json%\}}" "$2"
}

# Prints, as one JSON array, the messages whose file $1 (to or thread) holds $2 and whose flags
# pass $3 (unread: not read and not archived; any); nothing when none match.
list() {
  n=0
  for f in "$msgs"/*.json; do
    [ -e "$f" ] || break
    p=${f%.json}
    line_of "$p.$1" value
    [ "$value" = "$2" ] || continue
    if [ "$3" = unread ]; then
      flags_of "$p"
      [ "$is_read$is_archived" = 00 ] || continue
    fi
    line_of "$f" json
    if [ $n -eq 0 ]; then printf '[%s' "$json"; else printf ',%s' "$json"; fi
    n=$((n + 1))
  done
  [ $n -eq 0 ] || printf ']\n'
}

# Stores a message to $1 (a reply to $2 when set, in thread $3) from the send JSON on stdin,
# and prints it.
store() {
  seq=0
  [ ! -f "$state/gc-seq" ] || line_of "$state/gc-seq" seq
  seq=$((seq + 1))
  printf '%s\n' "$seq" > "$state/gc-seq"
  padded=00000000000$seq
  id=gc-${padded#"${padded%??????}"}
  thread=$3
  [ -n "$thread" ] || thread=thread-${padded#"${padded%????????????}"}
  p=$msgs/$id
  jq -r --arg id "$id" --arg to "$1" --arg re "$2" --arg th "$thread" '
    (.from // ""),
    ({id: $id, from: (.from // ""), to: $to, subject: (.subject // ""), body: (.body // ""),
      created_at: (now | (floor | strftime("%Y-%m-%dT%H:%M:%S")) + "."
                   + ((. - floor) * 1000 | floor + 1000 | tostring | .[1:]) + "Z"),
      thread_id: $th} + (if $re == "" then {} else {reply_to: $re} end) | tojson)' \
    | { IFS= read -r from && IFS= read -r json && printf '%s\n' "$from" > "$p.from" \
        && printf '%s\n' "$json" > "$p.json.tmp"; }
  printf '%s\n' "$1" > "$p.to"
  printf '%s\n' "$thread" > "$p.thread"
  printf '0 0\n' > "$p.flags"
  mv "$p.json.tmp" "$p.json"
  cat "$p.json"
}

[ -d "$msgs" ] || mkdir -p "$msgs"

case $op in
  ensure-running) exit 0 ;;
  inbox | check)
    list to "$arg" unread
    exit 0
    ;;
  thread)
    list thread "$arg" any
    exit 0
    ;;
  count)
    total=0
    unread=0
    for f in "$msgs"/*.to; do
      [ -e "$f" ] || break
      line_of "$f" value
      [ "$value" = "$arg" ] || continue
      flags_of "${f%.to}"
      [ "$is_archived" = 0 ] || continue
      total=$((total + 1))
      [ "$is_read" = 1 ] || unread=$((unread + 1))
    done
    printf '{"total":%s,"unread":%s}\n' "$total" "$unread"
    exit 0
    ;;
  get)
    message "$arg"
    flags_of "$m"
    if [ "$is_read" = 1 ]; then print_with_read "$m" true; else print_with_read "$m" false; fi
    exit 0
    ;;
  send | reply | read | mark-read | mark-unread | archive | delete) ;;
  *) exit 2 ;; # unknown operation
esac

exec 9> "$state/gc-lock"
flock 9

case $op in
  send)
    [ -n "$arg" ] || fail "usage: $0 send <to>"
    store "$arg" "" ""
    ;;
  reply)
    message "$arg"
    line_of "$m.from" original_from
    line_of "$m.thread" original_thread
    store "$original_from" "$arg" "$original_thread"
    ;;
  read)
    message "$arg"
    print_with_read "$m" true
    flags_of "$m"
    set_flags "$m" 1 "$is_archived"
    ;;
  mark-read | mark-unread)
    message "$arg"
    flags_of "$m"
    if [ "$op" = mark-read ]; then set_flags "$m" 1 "$is_archived"; else set_flags "$m" 0 "$is_archived"; fi
    ;;
  archive | delete)
    message "$arg"
    flags_of "$m"
    [ "$is_archived" = 0 ] || fail "already archived"
    set_flags "$m" "$is_read" 1
    ;;
esac
