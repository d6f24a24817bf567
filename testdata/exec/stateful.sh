#!/bin/sh
# mailroom testdata: a complete gc exec-protocol mail script (gc-mail.md §7).
#
# State: one JSON file per message in $MAILROOM_EXEC_STATE (default ./.mail-exec-state), guarded by
# flock so concurrent calls are safe. Message text is only ever handled by jq (read from stdin or
# from the message files); the shell never evaluates it.
#
# Ops: ensure-running, capabilities, send <to>, reply <id>, inbox|check|all|count <mailbox>,
#      thread|get|read|mark-read|mark-unread|archive|delete|unarchive <id>. Anything else: exit 2.
set -eu

state=${MAILROOM_EXEC_STATE:-./.mail-exec-state}
msgs=$state/msgs
op=${1:-}
arg=${2:-}

die() {
  printf '%s\n' "$*" >&2
  exit 1
}

not_found() {
  printf 'gc-mail-error:not-found: message "%s" not found\n' "$1" >&2
  exit 1
}

need_arg() {
  [ -n "$arg" ] || die "usage: $0 $op <$1>"
}

# The file of message $1, or not-found. Ids are checked before they become a path.
message_file() {
  case $1 in
    '' | .* | */* | *[!A-Za-z0-9._-]*) not_found "$1" ;;
  esac
  [ -f "$msgs/$1.json" ] || not_found "$1"
  printf '%s/%s.json' "$msgs" "$1"
}

# Every message as one JSON array on stdout.
all_messages() {
  set -- "$msgs"/*.json
  if [ -e "$1" ]; then
    cat "$@" | jq -s -c '.'
  else
    printf '[]'
  fi
}

# Prints the messages selected by jq filter $1 (with $mb = $2), oldest first; nothing when none.
list() {
  all_messages | jq -c --arg mb "$2" "map(select($1)) | sort_by(.created_at, .id) | map(del(.archived))
    | if length == 0 then empty else . end"
}

# Rewrites message file $1 through jq filter $2.
update() {
  jq -c "$2" "$1" > "$1.tmp"
  mv "$1.tmp" "$1"
}

now() {
  date -u +%Y-%m-%dT%H:%M:%S.%3NZ
}

new_id() {
  seq=0
  [ -f "$state/seq" ] && seq=$(cat "$state/seq")
  seq=$((seq + 1))
  printf '%s' "$seq" > "$state/seq"
  printf 'ex-%06d' "$seq"
}

new_thread() {
  printf 'thread-%s' "$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
}

# Stores a message to $1 in thread $2 replying to $3 (may be empty) from the send JSON on stdin,
# and prints it.
store() {
  id=$(new_id)
  file=$msgs/$id.json
  jq -c --arg id "$id" --arg to "$1" --arg th "$2" --arg re "$3" --arg ts "$(now)" '
    {id: $id, from: (.from // ""), to: $to, subject: (.subject // ""), body: (.body // ""),
     created_at: $ts, read: false, thread_id: $th, archived: false}
    + (if $re == "" then {} else {reply_to: $re} end)' > "$file.tmp"
  mv "$file.tmp" "$file"
  jq -c 'del(.archived)' "$file"
}

mkdir -p "$msgs"
exec 9> "$state/lock"
flock 9

case $op in
  ensure-running) ;;
  capabilities)
    printf '{"protocol":1,"ops":["send","reply","inbox","check","all","thread","get","read","mark-read","mark-unread","archive","delete","unarchive","count"]}\n'
    ;;
  send)
    need_arg recipient
    store "$arg" "$(new_thread)" ""
    ;;
  reply)
    need_arg id
    original=$(message_file "$arg")
    to=$(jq -r '.from' "$original")
    thread=$(jq -r '.thread_id // ""' "$original")
    [ -n "$thread" ] || thread=$(new_thread)
    store "$to" "$thread" "$arg"
    ;;
  inbox | check)
    need_arg mailbox
    list '.to == $mb and (.archived | not) and (.read | not)' "$arg"
    ;;
  all)
    need_arg mailbox
    list '.to == $mb and (.archived | not)' "$arg"
    ;;
  thread)
    need_arg id
    list '.thread_id == $mb' "$arg"
    ;;
  count)
    need_arg mailbox
    all_messages | jq -c --arg mb "$arg" '
      map(select(.to == $mb and (.archived | not)))
      | {total: length, unread: (map(select(.read | not)) | length)}'
    ;;
  get)
    need_arg id
    file=$(message_file "$arg")
    jq -c 'del(.archived)' "$file"
    ;;
  read)
    need_arg id
    file=$(message_file "$arg")
    jq -c 'del(.archived)' "$file"
    update "$file" '.read = true'
    ;;
  mark-read | mark-unread)
    need_arg id
    file=$(message_file "$arg")
    if [ "$op" = mark-read ]; then update "$file" '.read = true'; else update "$file" '.read = false'; fi
    ;;
  archive | delete)
    need_arg id
    file=$(message_file "$arg")
    if [ "$(jq -r '.archived' "$file")" = true ]; then
      die "already archived"
    fi
    update "$file" '.archived = true'
    ;;
  unarchive)
    need_arg id
    file=$(message_file "$arg")
    update "$file" '.archived = false'
    ;;
  *) exit 2 ;;
esac
