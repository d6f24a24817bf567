#pragma once

// The network side of `mailroom serve`: HTTP/1.1 on Boost.Beast and Asio, one I/O thread, a
// small pool for the operations, and the contract's limits (request line, headers and their
// deadline, bodies, connections, event streams). Beast and Asio are included by server*.cpp only:
// nothing of them reaches another command's code.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "api.hpp"
#include "base/result.hpp"

namespace mailroom::http {

// The page cache of each store connection the server keeps open (SQLite's default is 2 MiB): the
// pool holds one per concurrent request, each filling its cache over the server's life.
inline constexpr std::int64_t k_connection_cache_kib = 512;

struct ServerLimits {
  std::size_t request_line_bytes = 8 * 1024;
  std::size_t header_bytes = 32 * 1024;
  std::size_t body_bytes = k_max_body_bytes;       // before admission; then Admission::body_limit
  std::chrono::milliseconds header_deadline{5000}; // from the connection (or the previous answer)
  // A body must be whole within body_deadline plus the time its declared length takes at
  // body_bytes_per_second (a chunked body: its limit's), counted from the end of the headers.
  std::chrono::milliseconds body_deadline{5000};
  std::size_t body_bytes_per_second = 256 * 1024;
  std::chrono::milliseconds write_deadline{30000};
  std::size_t max_connections = 256;
  // Connections from one client address, and connections that have not yet sent a request with
  // a valid bearer (pending). At either cap a new connection closes the oldest pending one in its
  // way (of that client, for the first), so slow or idle clients without a token can never lock
  // out one with a token; where no pending connection is in the way, the new one is refused.
  std::size_t max_per_client = 128;
  std::size_t max_pending = 64;
  std::size_t max_streams = 64;
  std::size_t operation_threads = 4;
};

using Handler = std::function<Response(const Request&)>;
// Decides on a request's head (its body not read yet, Request::body empty), on the I/O thread.
using Admit = std::function<Admission(const Request&)>;

// Where a server sends the event streams it accepted (event_hub.hpp): each stream is a Sink the
// source calls with text to send, from any thread, never blocking.
class StreamSource {
public:
  using Sink = std::function<void(std::string text)>;
  virtual ~StreamSource() = default;
  // A new stream that starts after `after` (nullopt: from now on); nullopt when the streams are
  // at their cap (the server answers 503 too_many_streams).
  virtual std::optional<std::uint64_t> subscribe(std::optional<std::int64_t> after, Sink sink) = 0;
  // Ends a stream: its client went away, or the server closed it.
  virtual void unsubscribe(std::uint64_t id) = 0;
};

class Server {
public:
  // Binds `address:port` (port 0: a free one) and listens. Errors: usage naming the address (in
  // use, not permitted, not an address of this host).
  static Result<std::unique_ptr<Server>> listen(const std::string& address, std::uint16_t port,
                                                ServerLimits limits);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::uint16_t port() const;
  // Serves until SIGINT or SIGTERM: `admit` decides on each request's head (a refusal is
  // answered at once and the connection closed, its body never read), `handler` answers the
  // admitted request (run on the operation pool). Open connections and streams are closed at the
  // end. An accepted event stream goes to `streams` (none: 501). Returns the signal's number.
  // Stop the stream source before the server is destroyed.
  int run(Admit admit, Handler handler, StreamSource* streams);

  struct Impl; // server.cpp: the io_context, the acceptor, the pool

private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

} // namespace mailroom::http
