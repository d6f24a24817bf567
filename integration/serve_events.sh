#!/usr/bin/env bash
# mailroom serve: GET /api/v1/events. A CLI send and a read show up on an open stream (SSE framing,
# the contract's data keys); Last-Event-ID resumes across a server restart and misses nothing of
# what happened while it was down; ?after= is the same; 64 streams, and one more is 503
# too_many_streams; a stream needs the bearer like everything else.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/serve_common.bash"
source "$(dirname "$0")/serve_events_suite.bash"
