#pragma once

// The inside of `mailroom serve`'s server (server.hpp), shared by server.cpp and server_stream.hpp
// only: Boost.Beast and Asio are included here and nowhere else but server*.cpp.

#include <array>
#include <atomic>
#include <csignal>
#include <deque>
#include <list>
#include <map>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "fair_queue.hpp"
#include "rules.hpp"
#include "server.hpp"

namespace mailroom::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using boost::system::error_code;

// The bytes of `response` on the wire: the status line, the security headers, its type, length
// and Allow, "Connection: close" when `closing`, then its body (none for HEAD). Every answer is
// written as this one buffer (the fields are the server's own; only the body is the request's).
inline std::string wire_answer(const Response& response, bool closing, bool head)
{
  const beast::string_view reason = bhttp::obsolete_reason(static_cast<bhttp::status>(response.status));
  std::string raw = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\n", response.status,
                                std::string_view(reason.data(), reason.size()), response.content_type);
  for (const HeaderField& h : security_headers()) {
    raw += fmt::format("{}: {}\r\n", h.name, h.value);
  }
  if (!response.allow.empty()) {
    raw += fmt::format("Allow: {}\r\n", response.allow);
  }
  raw += fmt::format("Content-Length: {}\r\n{}\r\n", response.body.size(),
                     closing ? "Connection: close\r\n" : "");
  if (!head) {
    raw += response.body;
  }
  return raw;
}

// A connection the caps may close to make room: one that has not sent a request with a valid
// bearer yet (ServerLimits::max_pending).
class Evictable {
public:
  virtual ~Evictable() = default;
  virtual void evict() = 0;
};

class Slot;

struct Server::Impl {
  explicit Impl(ServerLimits l) : limits(l), operations(l.operation_threads) {}
  ServerLimits limits;
  Admit admit;
  Handler handler;
  StreamSource* streams = nullptr;
  // Touched on the I/O thread only. Declared before `io`, so they outlive it: destroying `io`
  // destroys the handlers of connections still open at a stop, and each releases its Slot here.
  std::size_t connections = 0;
  std::map<asio::ip::address, std::size_t> per_client;
  struct Pending {
    Evictable* connection;
    asio::ip::address peer;
  };
  std::list<Pending> pending; // oldest first
  int signal = 0;
  asio::io_context io{1};
  // I/O objects, destroyed before `io`.
  tcp::acceptor acceptor{io};
  asio::signal_set signals{io, SIGINT, SIGTERM};
  // Last, so it is stopped (its running operations finish) before the rest goes.
  FairQueue operations;

  void accept();
  // Takes `socket` in, making room under the caps, or closes it.
  void take(tcp::socket socket);
  // Closes the oldest pending connection (of `peer` only, when given). False when there is none.
  bool evict_oldest(const asio::ip::address* peer);
};

// A connection's place in the server's counts, from accept to close; an event stream takes over
// its connection's slot. While pending, the caps may evict it.
class Slot {
public:
  Slot(Server::Impl& server, asio::ip::address peer)
      : m_server(server), m_peer(std::move(peer)), m_client(m_peer.to_string())
  {
    ++m_server.connections;
    ++m_server.per_client[m_peer];
  }
  ~Slot() { release(); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

  // The client's address, as the operation queue takes turns by it.
  const std::string& client() const { return m_client; }

  void enter_pending(Evictable& connection)
  {
    m_pending = m_server.pending.insert(m_server.pending.end(), Server::Impl::Pending{&connection, m_peer});
  }
  // Authenticated (or closing): the caps no longer count it as pending.
  void leave_pending()
  {
    if (m_pending) {
      m_server.pending.erase(*m_pending);
      m_pending.reset();
    }
  }
  // Closed: counted nowhere from now on, even before its last handler has run.
  void release()
  {
    leave_pending();
    if (!m_counted) {
      return;
    }
    m_counted = false;
    --m_server.connections;
    if (--m_server.per_client[m_peer] == 0) {
      m_server.per_client.erase(m_peer);
    }
  }

private:
  Server::Impl& m_server;
  asio::ip::address m_peer;
  std::string m_client;
  bool m_counted = true;
  std::optional<std::list<Server::Impl::Pending>::iterator> m_pending;
};

} // namespace mailroom::http
