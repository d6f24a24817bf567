#!/usr/bin/env bash
# mailroom serve with its SQLite store moved away under it and then back: the degraded view
# (serve_degraded_suite.bash). Moved away, a connection would keep reading the file it had open;
# the server notices, answers 503 on every request and tells the streams, then reopens.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"
store_away() { mv "$MAILROOM_DB" "$t/away.db"; }
store_back() { mv "$t/away.db" "$MAILROOM_DB"; }
source "$(dirname "$0")/serve_degraded_suite.bash"
echo ok
