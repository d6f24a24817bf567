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
  std::size_t body_bytes = 16 * 1024 * 1024;
  std::chrono::milliseconds header_deadline{5000}; // from the connection (or the previous answer)
  std::chrono::milliseconds body_deadline{60000};
  std::chrono::milliseconds write_deadline{30000};
  std::size_t max_connections = 256;
  std::size_t max_streams = 64;
  std::size_t operation_threads = 4;
};

using Handler = std::function<Response(const Request&)>;

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
  // Serves with `handler` (run on the operation pool) until SIGINT or SIGTERM; open connections
  // and streams are closed. An accepted event stream goes to `streams` (none: 501). Returns the
  // signal's number. Stop the stream source before the server is destroyed.
  int run(Handler handler, StreamSource* streams);

  struct Impl; // server.cpp: the io_context, the acceptor, the pool

private:
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

} // namespace mailroom::http
