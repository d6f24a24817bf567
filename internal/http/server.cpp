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

Request to_request(Parser::value_type&& message)
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
  request.body = std::move(message.body());
  return request;
}

class Connection : public std::enable_shared_from_this<Connection> {
public:
  Connection(Server::Impl& server, tcp::socket socket) : m_server(server), m_stream(std::move(socket))
  {
    ++m_server.connections;
  }
  ~Connection() { --m_server.connections; }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

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

private:
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
    if (const auto length = m_parser->content_length(); length && *length > m_server.limits.body_bytes) {
      refuse(413, "the request body is larger than 16 MiB");
      return;
    }
    if (m_parser->is_done()) {
      dispatch();
      return;
    }
    m_stream.expires_after(m_server.limits.body_deadline);
    const auto expect = m_parser->get().find(bhttp::field::expect);
    if (expect != m_parser->get().end() && beast::iequals(expect->value(), "100-continue")) {
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
        self->refuse(413, "the request body is larger than 16 MiB");
      } else if (ec) {
        self->close();
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
    Request request = to_request(m_parser->release());
    asio::post(m_server.pool, [self = shared_from_this(), request = std::move(request), keep_alive, head]() {
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
    if (response.stream) {
      if (m_server.streams == nullptr) {
        response = error_response(make_error(ErrorCode::unsupported, "this server has no event stream"));
      } else {
        // The stream owns the connection from here (or answers 503 on it at the cap).
        std::make_shared<detail::StreamConnection>(m_server, std::move(m_stream))->start(*response.stream);
        return;
      }
    }
    auto message = std::make_shared<bhttp::response<bhttp::string_body>>();
    message->version(11);
    message->result(static_cast<unsigned>(response.status));
    for (const HeaderField& h : security_headers()) {
      message->set(beast::string_view(h.name.data(), h.name.size()),
                   beast::string_view(h.value.data(), h.value.size()));
    }
    message->set(bhttp::field::content_type, response.content_type);
    if (!response.allow.empty()) {
      message->set(bhttp::field::allow, response.allow);
    }
    message->keep_alive(keep_alive);
    const std::size_t length = response.body.size();
    if (!head) {
      message->body() = std::move(response.body);
    }
    message->content_length(length);
    m_stream.expires_after(m_server.limits.write_deadline);
    bhttp::async_write(m_stream, *message,
                       [self = shared_from_this(), message, keep_alive](error_code ec, std::size_t) {
                         if (ec || !keep_alive) {
                           self->close();
                           return;
                         }
                         self->read_header();
                       });
  }

  void close()
  {
    error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    m_stream.close();
  }

  Server::Impl& m_server;
  beast::tcp_stream m_stream;
  beast::flat_buffer m_buffer;
  std::optional<Parser> m_parser;
};

} // namespace

void Server::Impl::accept()
{
  acceptor.async_accept([this](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) {
      return;
    }
    if (!ec) {
      if (connections.load() >= limits.max_connections) {
        error_code ignored;
        socket.close(ignored); // over the cap: refused at once, nothing read
      } else {
        std::make_shared<Connection>(*this, std::move(socket))->read_header();
      }
    }
    accept();
  });
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

int Server::run(Handler handler, StreamSource* streams)
{
  Impl& impl = *m_impl;
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
  impl.pool.stop();
  impl.pool.join();
  return impl.signal;
}

} // namespace mailroom::http
