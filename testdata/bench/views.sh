#!/usr/bin/env bash
# The views benchmark: `mailroom search` against `notmuch search` of the same word on the same
# corpus, at each size, and the throughput of export and import. Prints markdown rows (the same
# columns as run.sh) and writes them to $out/views.md.
#   corpus: mailroom-bench-corpus writes N messages as a mailroom export and as a maildir; the
#   export is imported into a fresh bead store (timed: import throughput), the maildir indexed by
#   `notmuch new` (timed, for information), the store exported again (timed: export throughput).
#   search: `mailroom --as archivist search W` (archivist is cc'd on every message, so both tools
#   look at every message) vs `notmuch search --limit=50 W` (mailroom lists 50 by default), for a
#   rare word (0.1% of messages), a common one (1%), a frequent one (10%) and two words.
# Usage: testdata/bench/views.sh <mailroom binary> [<corpus binary>]
# Env: BENCH_RUNS (default 30), BENCH_VIEW_SIZES (default "100000 1000000"), BENCH_OUT (results dir),
#      BENCH_KEEP=1 keeps the corpora in $BENCH_OUT/views-work; with it, BENCH_VIEW_REUSE=1 reuses
#      a store imported by an earlier run (only the searches are timed again).
set -euo pipefail

mailroom=$(realpath "$1")
corpus=$(realpath "${2:-$(dirname "$1")/mailroom-bench-corpus}")
runs=${BENCH_RUNS:-30}
sizes=${BENCH_VIEW_SIZES:-"100000 1000000"}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
mkdir -p "$out"
if [ "${BENCH_KEEP:-0}" = 1 ]; then
  work="$out/views-work"
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-views.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
results="$out/views.tsv"
: > "$results"

if ! command -v notmuch > /dev/null; then
  echo "views: installing notmuch (the search baseline)" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get install -y -qq notmuch > /dev/null
fi
for tool in hyperfine jq notmuch; do
  command -v "$tool" > /dev/null || { echo "views: $tool is required" >&2; exit 2; }
done

stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo met; else echo missed; fi; }
now_ns() { date +%s%N; }
per_second() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

for n in $sizes; do
  dir="$work/$n"
  mkdir -p "$dir/ws"
  echo "views: corpus of $n messages" >&2
  [ -s "$dir/corpus.jsonl" ] || "$corpus" --messages "$n" --mailboxes 100 --jsonl "$dir/corpus.jsonl" --maildir "$dir/maildir"

  # --- import and export throughput ---------------------------------------------------------------
  db="$dir/ws/mail.db"
  if [ "${BENCH_VIEW_REUSE:-0}" = 1 ] && [ -s "$db" ]; then
    echo "views: reusing the imported store $db (import and export not timed)" >&2
  else
    rm -f "$db" "$db-wal" "$db-shm"
    (cd "$dir/ws" && MAILROOM_DB="$db" "$mailroom" init > /dev/null)
    t0=$(now_ns)
    "$mailroom" --db "$db" import "$dir/corpus.jsonl" > /dev/null
    t1=$(now_ns)
    rate=$(per_second "$n" $((t1 - t0)))
    record V3 "import of $n messages (2 deliveries each): $(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }') s" "$rate msg/s" "measured" "info"
    t0=$(now_ns)
    "$mailroom" --db "$db" export > "$dir/again.jsonl"
    t1=$(now_ns)
    rate=$(per_second "$n" $((t1 - t0)))
    record V4 "export of $n messages: $(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }') s, $(du -m "$dir/again.jsonl" | cut -f1) MiB" "$rate msg/s" "measured" "info"
    if diff -q <(tail -n +2 "$dir/corpus.jsonl") <(tail -n +2 "$dir/again.jsonl") > /dev/null; then
      record V4 "export after import is byte-identical to the corpus (apart from the header), $n messages" "yes" "yes" "met"
    else
      record V4 "export after import is byte-identical to the corpus (apart from the header), $n messages" "no" "yes" "missed"
    fi
    rm -f "$dir/again.jsonl"
  fi

  # --- notmuch over the same messages ---------------------------------------------------------
  cfg="$dir/notmuch-config"
  printf '[database]\npath=%s\n[user]\nname=bench\nprimary_email=bench@mailroom.invalid\n[new]\ntags=\n[search]\nexclude_tags=\n' \
    "$dir/maildir" > "$cfg"
  if [ ! -d "$dir/maildir/.notmuch" ]; then
    t0=$(now_ns)
    NOTMUCH_CONFIG="$cfg" notmuch new --quiet
    t1=$(now_ns)
    rate=$(per_second "$n" $((t1 - t0)))
    record V5 "notmuch new over the same $n messages (baseline for import)" "$rate msg/s" "measured" "info"
  fi

  # --- search -------------------------------------------------------------------------------
  for query in osprey kestrel heron "kestrel heron"; do
    m=$("$mailroom" --db "$db" --as archivist --json search $query | jq .total)
    k=$(NOTMUCH_CONFIG="$cfg" notmuch count $query)
    json="$out/views-search-$n-${query// /_}.json"
    NOTMUCH_CONFIG="$cfg" hyperfine -N --warmup 3 --runs "$runs" --export-json "$json" \
      "notmuch --config=$cfg search --limit=50 $query" \
      "$mailroom --db $db --as archivist search $query" > /dev/null
    read -r nm_p50 _ _ _ < <(stats "$json" 0)
    read -r mr_p50 mr_p90 _ mr_max < <(stats "$json" 1)
    r=$(ratio "$mr_p50" "$nm_p50")
    record V1 "search '$query' at $n msgs ($m matches, notmuch $k): p50 $mr_p50 vs notmuch $nm_p50 ms (p90 $mr_p90, max $mr_max)" "${r}x" "<= 0.5x" "$(verdict "$r" 0.5)"
  done
  [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$dir/maildir"
done

{
  echo "| id | measure | result | target | verdict |"
  echo "|---|---|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
} | tee "$out/views.md"
