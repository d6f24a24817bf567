# Helpers shared by run.sh, churn.sh and write.sh (sourced). Needs $results and $runs.

# stats FILE.json INDEX -> "p50 p90 p99 max" in milliseconds for command INDEX of a hyperfine export.
stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}

# tsv_stats FILE COLUMN -> "p50 p90 p99 max" in milliseconds of a column (microseconds) of mr-timer output.
tsv_stats() {
  sort -n -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
    if (NR == 0) { print "0\t0\t0\t0"; exit }
    i50 = int(NR * 0.50) + 1; i90 = int(NR * 0.90) + 1; i99 = int(NR * 0.99) + 1
    if (i99 > NR) i99 = NR; if (i90 > NR) i90 = NR; if (i50 > NR) i50 = NR
    printf "%.3f\t%.3f\t%.3f\t%.3f\n", v[i50] / 1000, v[i90] / 1000, v[i99] / 1000, v[NR] / 1000 }'
}

# time_runs NAME CMD...: hyperfine the commands (no shell) in one series, keep the JSON.
time_runs() {
  local name=$1
  shift
  hyperfine -N --warmup 20 --runs "$runs" --export-json "$out/$name.json" "$@" > "$out/$name.log" 2>&1 || {
    cat "$out/$name.log" >&2
    return 1
  }
}

# record ID TEXT VALUE TARGET VERDICT
record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
diff_ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
verdict() { if le "$1" "$2"; then echo met; else echo missed; fi; }
