#pragma once

// Internal to internal/pg: every wait for the server's answer, bounded by the session's
// io_timeout (contract "Several hosts, for real": a dead link ends in an error within [store]
// timeout, enforced by the client, because statement_timeout is the server's and TCP may retry
// for a quarter of an hour).

#include "pg/session.hpp"

namespace mailroom::pg::detail {

// The answer to the command just sent on `session` (`sent`: what the PQsend* call returned; 0
// means libpq could not send it). Flushes the output and reads results, polling the socket;
// returns the first error result, else the last result, as PQexec does, or null when nothing
// came. When session.io_timeout (above zero) passes with no complete answer, the connection is
// closed (session.conn becomes null, session.expired is set) and null is returned: command_error
// then reports the lost connection.
pg_result* await_result(Session& session, int sent);

} // namespace mailroom::pg::detail
