#!/bin/sh
# mailroom testdata: a stateful mail script that behaves as the stateful script of Gas City's
# newest exec conformance test does (gascity internal/mail/exec/conformance_test.go, the one that
# runs the 36 cases), written for mailroom's tests. Beside testdata/gc/gc_mail.sh (gc's reference
# script as of its base version) it answers what gc's newer providers answer:
#
#   ops      ensure-running (nothing to do, exit 0), send <to>, reply <id>, inbox|check|all|
#            archived|count <mailbox>, thread <thread-id or message id>, get|read|mark-read|
#            mark-unread|archive|unarchive|delete <id>; anything else exits 2.
#   JSON     gc's Message keys with `read` on every message, plus gc's `status` ("open" or
#            "closed") and `closed_at` once archived; no `archived`, no `priority`.
#   archive  one id per run (gc's ArchiveMany runs it once per id); a repeat prints "already
#            archived", an unknown id `message "<id>" not found` (without gc's not-found marker,
#            as gc's script does); both exit 1.
#   delete   removes the message for good (gc's hard delete); a missing one is "already archived".
#   errors   get, read, mark-*, unarchive and reply of an unknown id print
#            "gc-mail-error:not-found: …" and exit 1; unarchive of an open message "not archived".
#
# State in $MAILROOM_EXEC_STATE (default ./.gc-stateful): per message <id>.json (the message as
# sent, without state), <id>.to, <id>.from, <id>.thread and <id>.state ("<read> <closed_at>",
# read 0 or 1, closed_at "-" while open). Changes take a flock; jq builds and prints the JSON.
set -eu

state=${MAILROOM_EXEC_STATE:-./.gc-stateful}
msgs=$state/msgs
op=${1:-}
arg=${2:-}

die() {
  printf '%s\n' "$*" >&2
  exit 1
}

# The first line of file $1 into variable $2.
first_line() {
  IFS= read -r "$2" < "$1" || true
}

# Sets `m` to the files' prefix of message $1; the second argument says how an unknown id fails.
find_message() {
  case $1 in
    '' | .* | */* | *[!A-Za-z0-9._-]*) m= ;;
    *) m=$msgs/$1 ;;
  esac
  if [ -z "$m" ] || [ ! -f "$m.json" ]; then
    case $2 in
      marker) die "gc-mail-error:not-found: message \"$1\" not found" ;;
      plain) die "message \"$1\" not found" ;;
      gone) die "already archived" ;;
    esac
  fi
}

# Sets `read_flag` (0/1) and `closed_at` ("-" while open) of message prefix $1.
load_state() {
  first_line "$1.state" line
  read_flag=${line%% *}
  closed_at=${line#* }
}

save_state() {
  printf '%s %s\n' "$2" "$3" > "$1.state.tmp"
  mv "$1.state.tmp" "$1.state"
}

# Prints message prefix $1 with its state, as one JSON object on one line.
show() {
  load_state "$1"
  jq -c --argjson read "$([ "$read_flag" = 1 ] && echo true || echo false)" --arg closed "$closed_at" \
    '. + {read: $read, status: (if $closed == "-" then "open" else "closed" end)}
       + (if $closed == "-" then {} else {closed_at: $closed} end)' "$1.json"
}

# Prints as one JSON array the messages whose <file $1> equals $2 and whose state passes $3
# (unread: open and unread; open; closed); nothing when none do.
list() {
  first=1
  for f in "$msgs"/*.json; do
    [ -e "$f" ] || break
    p=${f%.json}
    first_line "$p.$1" value
    [ "$value" = "$2" ] || continue
    load_state "$p"
    case $3 in
      unread) [ "$closed_at" = - ] && [ "$read_flag" = 0 ] || continue ;;
      open) [ "$closed_at" = - ] || continue ;;
      closed) [ "$closed_at" != - ] || continue ;;
    esac
    if [ $first = 1 ]; then printf '['; else printf ','; fi
    first=0
    show "$p" | tr -d '\n'
  done
  [ $first = 1 ] || printf ']\n'
}

now() {
  date -u +%Y-%m-%dT%H:%M:%SZ
}

# Stores a message to $1 from the send JSON on stdin, replying to $2 (may be empty) in thread $3
# (empty: a new one), and prints it.
store() {
  n=0
  [ ! -f "$state/next" ] || first_line "$state/next" n
  n=$((n + 1))
  printf '%s\n' "$n" > "$state/next"
  id=msg-$n
  thread=${3:-thread-$n}
  p=$msgs/$id
  jq -c --arg id "$id" --arg to "$1" --arg re "$2" --arg th "$thread" --arg at "$(now)" \
    '{id: $id, from: (.from // ""), to: $to, subject: (.subject // ""), body: (.body // ""),
      created_at: $at, thread_id: $th} + (if $re == "" then {} else {reply_to: $re} end)' > "$p.json.tmp"
  jq -r '.from' "$p.json.tmp" > "$p.from"
  printf '%s\n' "$1" > "$p.to"
  printf '%s\n' "$thread" > "$p.thread"
  save_state "$p" 0 -
  mv "$p.json.tmp" "$p.json"
  show "$p"
}

mkdir -p "$msgs"

case $op in
  ensure-running) exit 0 ;;
  inbox | check) list to "$arg" unread ;;
  all) list to "$arg" open ;;
  archived) list to "$arg" closed ;;
  thread)
    thread=$arg
    case $arg in *[!A-Za-z0-9._-]* | .* | '') ;; *) [ ! -f "$msgs/$arg.thread" ] || first_line "$msgs/$arg.thread" thread ;; esac
    list thread "$thread" open
    ;;
  count)
    total=0
    unread=0
    for f in "$msgs"/*.to; do
      [ -e "$f" ] || break
      first_line "$f" value
      [ "$value" = "$arg" ] || continue
      load_state "${f%.to}"
      [ "$closed_at" = - ] || continue
      total=$((total + 1))
      [ "$read_flag" = 1 ] || unread=$((unread + 1))
    done
    printf '{"total":%s,"unread":%s}\n' "$total" "$unread"
    ;;
  get)
    find_message "$arg" marker
    show "$m"
    ;;
  send | reply | read | mark-read | mark-unread | archive | unarchive | delete)
    exec 9> "$state/lock"
    flock 9
    case $op in
      send)
        [ -n "$arg" ] || die "usage: $0 send <to>"
        store "$arg" "" ""
        ;;
      reply)
        find_message "$arg" marker
        first_line "$m.from" to
        first_line "$m.thread" thread
        store "$to" "$arg" "$thread"
        ;;
      read)
        find_message "$arg" marker
        load_state "$m"
        save_state "$m" 1 "$closed_at"
        show "$m"
        ;;
      mark-read | mark-unread)
        find_message "$arg" marker
        load_state "$m"
        if [ "$op" = mark-read ]; then save_state "$m" 1 "$closed_at"; else save_state "$m" 0 "$closed_at"; fi
        ;;
      archive)
        find_message "$arg" plain
        load_state "$m"
        [ "$closed_at" = - ] || die "already archived"
        save_state "$m" "$read_flag" "$(now)"
        ;;
      unarchive)
        find_message "$arg" marker
        load_state "$m"
        [ "$closed_at" != - ] || die "not archived"
        save_state "$m" "$read_flag" -
        ;;
      delete)
        find_message "$arg" gone
        rm -f "$m.json" "$m.to" "$m.from" "$m.thread" "$m.state"
        ;;
    esac
    ;;
  *) exit 2 ;; # unknown operation
esac
