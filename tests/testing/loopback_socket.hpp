#pragma once

// A TCP socket bound to 127.0.0.1 on a port the kernel picks, for tests that need a server that
// refuses connections, accepts and stays silent, or answers with scripted bytes.

namespace mailroom::testing {

struct LoopbackSocket {
  int fd = -1; // -1 when the socket could not be made or bound
  int port = 0;
};

// A bound socket, not yet listening; the caller owns (and closes) `fd`.
LoopbackSocket bind_loopback();

} // namespace mailroom::testing
