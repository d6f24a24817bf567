#pragma once

// One accepted event stream of `mailroom serve` (server.cpp hands a connection over to it):
// the response head, then what the stream source sends, until the client goes away, the server
// stops, or the client reads too slowly. Included by server.cpp only.

#include "server_impl.hpp"

namespace mailroom::http::detail {

// Too slow a reader: k_max_queued bytes wait for it.
class StreamConnection : public std::enable_shared_from_this<StreamConnection> {
public:
  static constexpr std::size_t k_max_queued = 4 * 1024 * 1024;

  StreamConnection(Server::Impl& server, std::unique_ptr<Slot> slot, beast::tcp_stream stream)
      : m_server(server), m_slot(std::move(slot)), m_stream(std::move(stream))
  {
  }
  ~StreamConnection() = default;
  StreamConnection(const StreamConnection&) = delete;
  StreamConnection& operator=(const StreamConnection&) = delete;

  // Subscribes and sends the response head; at the cap, answers 503 too_many_streams instead.
  void start(const StreamStart& start)
  {
    std::weak_ptr<StreamConnection> weak = shared_from_this();
    asio::io_context& io = m_server.io;
    auto id = m_server.streams->subscribe(start.after, [weak, &io](std::string text) {
      asio::post(io, [weak, text = std::move(text)]() mutable {
        if (auto self = weak.lock()) {
          self->push(std::move(text));
        }
      });
    });
    m_stream.expires_never();
    if (!id) {
      const Response refused = refusal_response(Refusal::too_many_streams, "every event stream slot is taken",
                                                "close another dashboard tab or stream");
      std::string raw = wire_answer(refused, true, false);
      m_close_after_write = true;
      push(std::move(raw));
      return;
    }
    m_id = *id;
    m_subscribed = true;
    std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n";
    for (const HeaderField& h : security_headers()) {
      head += fmt::format("{}: {}\r\n", h.name, h.value);
    }
    head += "Connection: close\r\n\r\n: stream\n\n";
    push(std::move(head));
    watch_for_close();
  }

private:
  // Anything the client sends, or its end, ends the stream.
  void watch_for_close()
  {
    m_stream.async_read_some(asio::buffer(m_discard),
                             [self = shared_from_this()](error_code, std::size_t) { self->close(); });
  }

  void push(std::string text)
  {
    if (m_closed) {
      return;
    }
    m_queued += text.size();
    if (m_queued > k_max_queued) {
      close();
      return;
    }
    m_queue.push_back(std::move(text));
    if (!m_writing) {
      write_next();
    }
  }

  void write_next()
  {
    m_writing = true;
    asio::async_write(m_stream, asio::buffer(m_queue.front()),
                      [self = shared_from_this()](error_code ec, std::size_t) {
                        self->m_queued -= self->m_queue.front().size();
                        self->m_queue.pop_front();
                        if (ec) {
                          self->close();
                        } else if (self->m_queue.empty()) {
                          self->m_writing = false;
                          if (self->m_close_after_write) {
                            self->close();
                          }
                        } else {
                          self->write_next();
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
    if (m_subscribed) {
      m_server.streams->unsubscribe(m_id);
    }
    error_code ignored;
    m_stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    m_stream.close();
  }

  Server::Impl& m_server;
  std::unique_ptr<Slot> m_slot;
  beast::tcp_stream m_stream;
  std::uint64_t m_id = 0;
  std::deque<std::string> m_queue;
  std::size_t m_queued = 0;
  bool m_writing = false;
  bool m_closed = false;
  bool m_subscribed = false;
  bool m_close_after_write = false;
  std::array<char, 512> m_discard{};
};

} // namespace mailroom::http::detail
