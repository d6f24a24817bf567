#pragma once

// The inside of `mailroom serve`'s server (server.hpp), shared by server.cpp and server_stream.hpp
// only: Boost.Beast and Asio are included here and nowhere else but server*.cpp.

#include <array>
#include <atomic>
#include <csignal>
#include <deque>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include "rules.hpp"
#include "server.hpp"

namespace mailroom::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using boost::system::error_code;

struct Server::Impl {
  explicit Impl(ServerLimits l) : limits(l), pool(l.operation_threads) {}
  ServerLimits limits;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::signal_set signals{io, SIGINT, SIGTERM};
  Handler handler;
  StreamSource* streams = nullptr;
  std::atomic<std::size_t> connections{0};
  int signal = 0;
  // Last, so it is joined (its running operations finish) before the rest goes.
  asio::thread_pool pool;

  void accept();
};

} // namespace mailroom::http
