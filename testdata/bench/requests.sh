#!/usr/bin/env bash
# The life of a request (docs/request-response.md): `status` and `trace` of a request to 1,000
# recipients whose deliveries are in mixed states, against the same views of a plain broadcast to
# the same 1,000 mailboxes with as many answers (what those views cost before request states).
#   Q1 status of the request (250 working, 200 rejected, 100 input_required, 100 failed, 100
#      canceled, 250 submitted) vs status of the plain message, p50; goal <= 1.1x.
#   Q2 trace of the request (the request, its declines, questions, failures and the cancel notice)
#      vs trace of the plain message with as many messages in its trace (replies, and a message to
#      each canceled recipient in place of its notice), p50; goal <= 1.1x.
# Usage: testdata/bench/requests.sh <mailroom binary>
# Env: BENCH_RUNS (default 50), BENCH_REQUEST_RECIPIENTS (default 1000; the mix scales with it).
set -euo pipefail

mailroom=$(realpath "$1")
runs=${BENCH_RUNS:-50}
n=${BENCH_REQUEST_RECIPIENTS:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-requests.XXXXXX")
trap 'rm -rf "$work"' EXIT
for tool in hyperfine jq awk; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done

export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
unset MAILROOM_IDENTITY MAILROOM_CONFIG GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
mkdir -p "$HOME" "$work/ws"
cd "$work/ws"
"$mailroom" init > /dev/null
names=()
for i in $(seq 1 "$n"); do names+=("w$i"); done
"$mailroom" agents add lead "${names[@]}" > /dev/null

row() { printf '| %s | %s | %s | %s |\n' "$@"; }
p50() { jq -r --argjson i "$2" '.results[$i].times | sort | .[(length * 0.5 | floor)] * 1000 | . * 100 | round / 100' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo met; else echo missed; fi; }

# The mix, in parts of n: 25% read (working), 20% declined, 10% asked, 10% failed, 10% canceled,
# the rest untouched (submitted). The plain message gets a reply from each one that answers.
part() { echo $(($1 * n / 100)); }
read_to=$(part 25)
decline_to=$((read_to + $(part 20)))
ask_to=$((decline_to + $(part 10)))
fail_to=$((ask_to + $(part 10)))
cancel_to=$((fail_to + $(part 10)))
echo "requests: $n recipients, setting up the mix" >&2
request=$("$mailroom" --json --as lead send @all --type task_request -s "index the docs" -m "please" | jq -r .id)
plain=$("$mailroom" --json --as lead send @all -s "index the docs" -m "please" | jq -r .id)
for i in $(seq 1 "$cancel_to"); do
  if [ "$i" -le "$read_to" ]; then
    "$mailroom" --as "w$i" mark-read "$request" "$plain" > /dev/null
  elif [ "$i" -le "$decline_to" ]; then
    "$mailroom" --as "w$i" decline "$request" --reason "not mine" > /dev/null
    "$mailroom" --as "w$i" reply "$plain" "not mine" > /dev/null
  elif [ "$i" -le "$ask_to" ]; then
    "$mailroom" --as "w$i" ask "$request" "which part?" > /dev/null
    "$mailroom" --as "w$i" reply "$plain" "which part?" > /dev/null
  elif [ "$i" -le "$fail_to" ]; then
    "$mailroom" --as "w$i" fail "$request" --reason "no disk" > /dev/null
    "$mailroom" --as "w$i" reply "$plain" "no disk" > /dev/null
  else
    "$mailroom" --as lead cancel "$request" --to "w$i" > /dev/null
    # The notice's counterpart in the broadcast's trace, so that both traces hold as many messages.
    "$mailroom" --as lead send "w$i" --trace "$plain" -s "Canceled: index the docs" -m "withdrawn" > /dev/null
  fi
done
"$mailroom" --json --as lead status "$request" |
  jq -e --argjson n "$n" '.recipients | length == $n and (map(.request_state) | unique | length) == 6' > /dev/null

echo "| id | figure | value | goal / verdict |"
echo "|---|---|---|---|"
# compare ID VIEW FIGURE: VIEW (status or trace) of the plain broadcast, then of the request.
compare() {
  local id=$1 view=$2 figure=$3 base mine r
  hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/$view.json" \
    "$mailroom --as lead $view $plain" "$mailroom --as lead $view $request" > /dev/null 2>&1
  base=$(p50 "$work/$view.json" 0)
  mine=$(p50 "$work/$view.json" 1)
  r=$(ratio "$mine" "$base")
  row "$id" "$figure, p50" "$mine ms vs $base ms: ${r}x" "<= 1.1x: $(verdict "$r" 1.1)"
}
compare Q1 status "status of a $n-recipient request in six states vs a plain broadcast"
compare Q2 trace "trace of it (its notices) vs the broadcast with as many messages in its trace"
