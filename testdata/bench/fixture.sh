# testdata/bench/fixture.sh: sourced by the serve benches (http.sh, stream.sh, dashboard.sh).
# bench_store WORK OUT N SEED: a private HOME and state directory under WORK, then WORK/mail.db as a
# copy of run.sh's cached fixture store of N messages (OUT/stores/store-N.db), or one seeded with
# SEED when there is none; exports MAILROOM_DB and changes to WORK.
bench_store() {
  local work=$1 out=$2 n=$3 seed=$4
  export HOME="$work/home" XDG_STATE_HOME="$work/home/.local/state" XDG_CONFIG_HOME="$work/home/.config"
  unset MAILROOM_CONFIG MAILROOM_IDENTITY GC_ALIAS GC_AGENT GC_SESSION_ID TRACEPARENT
  mkdir -p "$HOME"
  cd "$work"
  if [ -f "$out/stores/store-$n.db" ]; then
    cp "$out/stores/store-$n.db" "$work/mail.db"
  else
    "$seed" --db "$work/mail.db" --messages "$n" --mailboxes 100 --unread 0.1 --body-bytes 400 >&2
  fi
  export MAILROOM_DB="$work/mail.db"
}
