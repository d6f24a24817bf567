#!/bin/sh
# mailroom testdata: a complete gc exec-protocol mail script (docs/exec-protocol.md).
#
# State: two files per message in $MAILROOM_EXEC_STATE/msgs (default ./.mail-exec-state), written
# under flock. <id>.json holds the message's immutable text, <id>.state its head: the
# recipient's state and the keys lists filter on, as the JSON text that opens the object,
#   {"read":false,"archived":false,"to":"bob","thread_id":"thread-000000000001",
# so `cat <id>.state <id>.json` is the wire Message. Both are written by jq; the shell only ever
# matches that fixed head (JSON strings cannot contain an unescaped quote, so a match is exact)
# and never reads or evaluates message text. jq runs only to build a message, which keeps every
# other op to a fork or two. Readers take no lock: every state change is a rename.
# Ids are allocated in time order under the lock, so file-name order is oldest first.
#
# `archived` is a mailroom extension of the wire Message (gc scripts omit it; missing = false).
#
# Ops: capabilities, send <to>, reply <id>, inbox|check|all|count <mailbox>,
#      thread|get|read|mark-read|mark-unread|archive|delete|unarchive <id>. Anything else: exit 2,
#      ensure-running included: there is nothing to start (the state directory is made on first
#      use), and mailroom remembers that answer, so a command costs one process.
# Subjects are stored as sent: a send or reply without one has subject "" (gc's wire).
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

# Sets `head` and `body` to the files of message $1, or reports not-found. Ids are checked
# before they become a path.
find_message() {
  case $1 in
    '' | .* | */* | *[!A-Za-z0-9._-]*) not_found "$1" ;;
  esac
  head=$msgs/$1.state
  body=$msgs/$1.json
  [ -f "$head" ] || not_found "$1"
}

# Splits head file $1 into `read_flag`, `archived_flag` and `rest` (the "to" and "thread_id" keys).
load() {
  IFS= read -r line < "$1" || [ -n "$line" ] || die "message head $1 is damaged"
  for read_flag in false true; do
    for archived_flag in false true; do
      case $line in
        "{\"read\":$read_flag,\"archived\":$archived_flag,"*)
          rest=${line#"{\"read\":$read_flag,\"archived\":$archived_flag,"}
          return 0
          ;;
      esac
    done
  done
  die "message head $1 is damaged"
}

# Rewrites the loaded head with read = $1 and archived = $2, atomically.
save() {
  printf '{"read":%s,"archived":%s,%s' "$1" "$2" "$rest" > "$head.tmp"
  mv "$head.tmp" "$head"
}

# Sets `id` and `new_thread` from the next sequence number (plain sh arithmetic, no subshell).
next_ids() {
  seq=0
  if [ -f "$state/seq" ]; then
    IFS= read -r seq < "$state/seq" || true
  fi
  seq=$((seq + 1))
  printf '%s\n' "$seq" > "$state/seq"
  padded=000000000000$seq
  id=ex-${padded#"${padded%??????}"}
  new_thread=thread-${padded#"${padded%????????????}"}
}

# Stores a message to $1 replying to $2 from the send JSON on stdin, and prints it. A reply ($2
# not empty) goes to the original's sender in the original's thread; `head`/`body` name the
# original then.
store() {
  next_ids
  if [ -n "$2" ]; then
    set -- "$1" "$2" --rawfile oh "$head" --rawfile ob "$body"
  else
    set -- "$1" "$2" --arg oh '' --arg ob ''
  fi
  to=$1
  re=$2
  shift 2
  head=$msgs/$id.state
  body=$msgs/$id.json
  # Two lines out: the head, then the text (no opening brace); the subshell splits them.
  jq -r --arg id "$id" --arg to "$to" --arg re "$re" --arg th "$new_thread" "$@" '
    (if $oh == "" then {} else ($oh + $ob | fromjson) end) as $orig
    | now as $t | ($t | floor) as $s
    | ({read: false, archived: false, to: (if $re == "" then $to else ($orig.from // "") end),
        thread_id: ((($orig.thread_id // "") | select(. != "")) // $th)} | tojson | .[:-1] + ","),
      ({id: $id, from: (.from // ""), subject: (.subject // ""), body: (.body // ""),
        created_at: (($s | strftime("%Y-%m-%dT%H:%M:%S")) + "."
                     + ((($t - $s) * 1000 | floor) + 1000 | tostring | .[1:]) + "Z")}
       + (if $re == "" then {} else {reply_to: $re} end) | tojson | .[1:])' \
    | { IFS= read -r line && printf '%s' "$line" > "$head.tmp" && cat > "$body"; }
  mv "$head.tmp" "$head"
  cat "$head" "$body"
}

# Sets `key` to mailbox or id $1 as a JSON string, as jq writes it.
json_key() {
  case $1 in
    *[!A-Za-z0-9._@+=:/-]*) key=$(jq -n --arg s "$1" '$s') ;;
    *) key="\"$1\"" ;;
  esac
}

# Prints, oldest first, the messages whose $1 (to or thread_id) is `key` and whose flags pass $2
# (all, open or unread), as a JSON array; nothing when none.
list() {
  field=$1
  want=$2
  set --
  for head in "$msgs"/*.state; do
    [ -e "$head" ] || break
    load "$head"
    case $field:$rest in
      to:"\"to\":$key,"* | thread_id:*",\"thread_id\":$key,") ;;
      *) continue ;;
    esac
    case $want:$archived_flag:$read_flag in
      open:true:* | unread:true:* | unread:*:true) continue ;;
    esac
    [ $# -eq 0 ] || set -- "$@" "$state/comma"
    set -- "$@" "$head" "${head%.state}.json"
  done
  [ $# -gt 0 ] || return 0
  [ -f "$state/comma" ] || printf ',' > "$state/comma"
  printf '['
  cat "$@"
  printf ']\n'
}

case $op in
  ensure-running) exit 2 ;; # nothing to start
  capabilities)
    printf '{"protocol":1,"ops":["send","reply","inbox","check","all","thread","get","read","mark-read","mark-unread","archive","delete","unarchive","count"]}\n'
    exit 0
    ;;
esac

[ -d "$msgs" ] || mkdir -p "$msgs"

# Readers first: no lock needed.
case $op in
  inbox | check | all)
    need_arg mailbox
    json_key "$arg"
    if [ "$op" = all ]; then list to open; else list to unread; fi
    exit 0
    ;;
  thread)
    need_arg id
    json_key "$arg"
    list thread_id all
    exit 0
    ;;
  count)
    need_arg mailbox
    json_key "$arg"
    total=0
    unread=0
    for head in "$msgs"/*.state; do
      [ -e "$head" ] || break
      load "$head"
      case $archived_flag:$rest in
        false:"\"to\":$key,"*)
          total=$((total + 1))
          [ "$read_flag" = true ] || unread=$((unread + 1))
          ;;
      esac
    done
    printf '{"total":%s,"unread":%s}\n' "$total" "$unread"
    exit 0
    ;;
  get)
    need_arg id
    find_message "$arg"
    cat "$head" "$body"
    exit 0
    ;;
esac

exec 9> "$state/lock"
flock 9

case $op in
  send)
    need_arg recipient
    store "$arg" ""
    ;;
  reply)
    need_arg id
    find_message "$arg"
    store "" "$arg"
    ;;
  read)
    need_arg id
    find_message "$arg"
    cat "$head" "$body"
    load "$head"
    [ "$read_flag" = true ] || save true "$archived_flag"
    ;;
  mark-read | mark-unread)
    need_arg id
    find_message "$arg"
    load "$head"
    flag=false
    [ "$op" = mark-unread ] || flag=true
    [ "$read_flag" = "$flag" ] || save "$flag" "$archived_flag"
    ;;
  archive | delete)
    need_arg id
    find_message "$arg"
    load "$head"
    [ "$archived_flag" = false ] || die "already archived"
    save "$read_flag" true
    ;;
  unarchive)
    need_arg id
    find_message "$arg"
    load "$head"
    [ "$archived_flag" = false ] || save "$read_flag" false
    ;;
  *) exit 2 ;;
esac
