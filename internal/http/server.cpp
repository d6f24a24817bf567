#include "server.hpp"

#include "server_stream.hpp"

namespace mailroom::http {

namespace {

using Parser = bhttp::request_parser<bhttp::string_body>;

std::optional<std::string> field(const Parser::value_type& request, bhttp::field name)
{
  const auto it = request.find(name);
  if (it == request.end()) {
    return std::nullopt;
  }
  return std::string(it->value());
}

// The request's head (its body is added once read). A header the rules read that is given more
// than once is named in `repeated`, and the request refused.
Request head_of(const Parser::value_type& message)
{
  Request request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  request.host = field(message, bhttp::field::host);
  request.origin = field(message, bhttp::field::origin);
  request.authorization = field(message, bhttp::field::authorization).value_or("");
  if (const auto it = message.find("Last-Event-ID"); it != message.end()) {
    request.last_event_id = std::string(it->value());
  }
  for (const auto& [name, shown] :
       {std::pair{bhttp::field::host, "Host"}, std::pair{bhttp::field::origin, "Origin"},
        std::pair{bhttp::field::authorization, "Authorization"}}) {
    if (message.count(name) > 1) {
      request.repeated.emplace_back(shown);
    }
  }
  if (message.count("Last-Event-ID") > 1) {
    request.repeated.emplace_back("Last-Event-ID");
  }
  return request;
}

class Connection : public std::enable_shared_from_this<Connection>, public Evictable {
public:
  Connection(Server::Impl& server, tcp::socket socket, const asio::ip::address& peer)
      : m_server(server), m_slot(std::make_unique<Slot>(server, peer)), m_stream(std::move(socket))
  {
  }
  ~Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void start()
  {
    m_slot->enter_pending(*this);
    read_header();
  }

  // Pending, in the way of a new connection: closed now.
  void evict() override { close(); }

private:
  void read_header()
  {
    m_parser.emplace();
    m_parser->header_limit(static_cast<std::uint32_t>(m_server.limits.header_bytes));
    m_parser->body_limit(m_server.limits.body_bytes);
    m_stream.expires_after(m_server.limits.header_deadline);
    bhttp::async_read_header(
        m_stream, m_buffer, *m_parser,
        [self = shared_from_this()](error_code ec, std::size_t) { self->on_header(ec); });
  }

  void on_header(error_code ec)
  {
    if (ec == bhttp::error::header_limit) {
      refuse(431, "the request headers are larger than 32 KiB");
      return;
    }
    if (ec == bhttp::error::body_limit) { // a declared Content-Length over the limit
      refuse(413, "the request body is larger than 16 MiB");
      return;
    }
    if (ec) {
      close(); // a timeout (a slow client), a reset, or a malformed request
      return;
    }
    const auto& message = m_parser->get();
    if (message.target().size() + message.method_string().size() + 10 > m_server.limits.request_line_bytes) {
      refuse(414, "the request line is longer than 8 KiB");
      return;
    }
    const bool head = message.method() == bhttp::verb::head;
    // The rules that need no body decide before a byte of it is read: a request they refuse, or
    // one without a valid bearer that would send more than a login needs, never holds the
    // connection while its body trickles in.
    Admission admission = m_server.admit(head_of(message));
    if (admission.refusal) {
      write(std::move(*admission.refusal), false, head);
      return;
    }
    if (admission.authenticated) {
      m_slot->leave_pending();
    }
    const auto length = m_parser->content_length();
    if (length && *length > admission.body_limit) {
      refuse(413, admission.authenticated ? "the request body is larger than 16 MiB"
                                          : "a request without a bearer token has a body of at most 4 KiB");
      return;
    }
    if (m_parser->is_done()) {
      dispatch();
      return;
    }
    m_parser->body_limit(admission.body_limit);
    const std::size_t expected = length ? static_cast<std::size_t>(*length) : admission.body_limit;
    m_stream.expires_after(
        m_server.limits.body_deadline +
        std::chrono::milliseconds(expected * 1000 / m_server.limits.body_bytes_per_second));
    const auto expect = message.find(bhttp::field::expect);
    if (expect != message.end() && beast::iequals(expect->value(), "100-continue")) {
      // The client waits for this before it sends the body (curl does, for large ones).
      static constexpr std::string_view k_continue = "HTTP/1.1 100 Continue\r\n\r\n";
      asio::async_write(m_stream, asio::buffer(k_continue.data(), k_continue.size()),
                        [self = shared_from_this()](error_code written, std::size_t) {
                          if (written) {
                            self->close();
                          } else {
                            self->read_body();
                          }
                        });
      return;
    }
    read_body();
  }

  void read_body()
  {
    bhttp::async_read(m_stream, m_buffer, *m_parser, [self = shared_from_this()](error_code ec, std::size_t) {
      if (ec == bhttp::error::body_limit) {
        self->refuse(413, "the request body is larger than its limit");
      } else if (ec) {
        self->close(); // a body slower than its deadline, a reset, or a malformed chunk
      } else {
        self->dispatch();
      }
    });
  }

  void dispatch()
  {
    m_stream.expires_never();
    const bool keep_alive = m_parser->get().keep_alive();
    const bool head = m_parser->get().method() == bhttp::verb::head;
    Request request = head_of(m_parser->get());
    request.body = std::move(m_parser->get().body());
    m_server.operations.submit(
        m_slot->client(), [self = shared_from_this(), request = std::move(request), keep_alive, head]() {
          Response response = self->m_server.handler(request);
          asio::post(self->m_server.io, [self, response = std::move(response), keep_alive, head]() mutable {
            self->write(std::move(response), keep_alive, head);
          });
        });
  }

  void refuse(int status, std::string message)
  {
    Response response = refusal_response(Refusal::payload_too_large, std::move(message), {}, status);
    write(std::move(response), false, false);
  }

  void write(Response response, bool keep_alive, bool head)
  {
    if (m_closed) {
      return; // evicted while its operation ran
    }
    if (response.stream) {
      if (m_server.streams == nullptr) {
        response = error_response(make_error(ErrorCode::unsupported, "this server has no event stream"));
      } else {
        // The stream owns the connection and its slot from here (or answers 503 on it at the cap).
        m_closed = true;
        std::make_shared<detail::StreamConnection>(m_server, std::move(m_slot), std::move(m_stream))
            ->start(*response.stream);
        return;
      }
    }
    auto raw = std::make_shared<std::string>(wire_answer(response, !keep_alive, head));
    m_stream.expires_after(m_server.limits.write_deadline);
    asio::async_write(m_stream, asio::buffer(*raw),
                      [self = shared_from_this(), raw, keep_alive](error_code ec, std::size_t) {
                        if (ec) {
                          self->close();
                        } else if (!keep_alive) {
                          self->linger();
                        } else {
                          self->read_header();
                        }
                      });
  }

  // After an answer that ends the connection: no more to send, and what the client still sends
  // (a refused request's body) is read and dropped for a moment, so that closing does not reset
  // the connection before the client has read the answer.
  void linger()
  {
    error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    m_stream.expires_after(std::chrono::seconds(2));
    drain();
  }

  void drain()
  {
    m_stream.async_read_some(asio::buffer(m_discard),
                             [self = shared_from_this()](error_code ec, std::size_t n) {
                               self->m_drained += n;
                               if (ec || self->m_drained > 64 * 1024) {
                                 self->close();
                               } else {
                                 self->drain();
                               }
                             });
  }

  void close()
  {
    if (m_closed) {
      return;
    }
    m_closed = true;
    m_slot->release();
    error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    m_stream.close();
  }

  Server::Impl& m_server;
  std::unique_ptr<Slot> m_slot;
  beast::tcp_stream m_stream;
  beast::flat_buffer m_buffer;
  std::optional<Parser> m_parser;
  bool m_closed = false;
  std::size_t m_drained = 0;
  std::array<char, 4096> m_discard{};
};

} // namespace

void Server::Impl::accept()
{
  acceptor.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) {
      return;
    }
    if (!ec) {
      take(std::move(socket));
    }
    accept();
  });
}

void Server::Impl::take(tcp::socket socket)
{
  error_code ec;
  const asio::ip::address peer = socket.remote_endpoint(ec).address();
  const auto refuse = [&socket]() {
    error_code ignored;
    socket.close(ignored); // refused at once, nothing read
  };
  if (ec) {
    refuse();
    return;
  }
  const auto mine = per_client.find(peer);
  if (mine != per_client.end() && mine->second >= limits.max_per_client && !evict_oldest(&peer)) {
    refuse();
    return;
  }
  if (pending.size() >= limits.max_pending) {
    evict_oldest(nullptr);
  }
  if (connections >= limits.max_connections && !evict_oldest(nullptr)) {
    refuse();
    return;
  }
  std::make_shared<Connection>(*this, std::move(socket), peer)->start();
}

bool Server::Impl::evict_oldest(const asio::ip::address* peer)
{
  for (const Pending& p : pending) {
    if (peer == nullptr || p.peer == *peer) {
      p.connection->evict(); // leaves the list
      return true;
    }
  }
  return false;
}

Server::Server(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

Server::~Server() = default;

Result<std::unique_ptr<Server>> Server::listen(const std::string& address, std::uint16_t port,
                                               ServerLimits limits)
{
  auto impl = std::make_unique<Impl>(limits);
  const std::string shown = address.find(':') != std::string::npos ? fmt::format("[{}]:{}", address, port)
                                                                   : fmt::format("{}:{}", address, port);
  error_code ec;
  const asio::ip::address ip = asio::ip::make_address(address, ec);
  if (ec) {
    return make_error(ErrorCode::usage, fmt::format("cannot listen on {}: not an IP address", shown),
                      "--listen ADDR:PORT, e.g. 127.0.0.1:8025");
  }
  const tcp::endpoint endpoint(ip, port);
  const auto failed = [&](std::string_view what) {
    return make_error(ErrorCode::usage, fmt::format("cannot listen on {}: {}", shown, what),
                      ec == asio::error::address_in_use
                          ? "another program uses this port: pick another with --listen"
                          : "");
  };
  if (impl->acceptor.open(endpoint.protocol(), ec); ec) {
    return failed(ec.message());
  }
  impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (impl->acceptor.bind(endpoint, ec); ec) {
    return failed(ec == asio::error::address_in_use  ? "the port is in use"
                  : ec == asio::error::access_denied ? "not permitted"
                                                     : ec.message());
  }
  if (impl->acceptor.listen(asio::socket_base::max_listen_connections, ec); ec) {
    return failed(ec.message());
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

std::uint16_t Server::port() const
{
  return m_impl->acceptor.local_endpoint().port();
}

int Server::run(Admit admit, Handler handler, StreamSource* streams)
{
  Impl& impl = *m_impl;
  impl.admit = std::move(admit);
  impl.handler = std::move(handler);
  impl.streams = streams;
  impl.signals.async_wait([&impl](error_code ec, int number) {
    if (ec) {
      return;
    }
    impl.signal = number;
    error_code ignored;
    impl.acceptor.close(ignored);
    impl.io.stop();
  });
  impl.accept();
  impl.io.run();
  impl.operations.stop();
  return impl.signal;
}

} // namespace mailroom::http
