#pragma once

// How connection.cpp reaches the server: a polled connect bounded by a deadline, with the notice
// processor in place before the server says anything.

#include <chrono>

#include <libpq-fe.h>

namespace mailroom::pg {

// PQconnectdbParams with notices silenced from the start and `timeout` bounding the whole attempt
// (zero: none). Null only when out of memory; `timed_out` says the deadline passed with the
// connection still pending. The caller owns the result (PQfinish).
PGconn* connect_quietly(const char* const* keywords, const char* const* values, std::chrono::seconds timeout,
                        bool& timed_out);

// The connect timeout libpq would apply: the URL's connect_timeout (`url_value`; anything under
// 2 s counts as 2 s, zero as none), else `fallback`.
std::chrono::seconds effective_timeout(const char* url_value, std::chrono::seconds fallback);

} // namespace mailroom::pg
