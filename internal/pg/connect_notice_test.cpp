// A server that says something while a connection starts: libpq's default notice processor would
// print it to stderr (a stray "WARNING:" line above mailroom's one-line error). The connection
// installs its own processor before the first byte arrives.

#include <doctest/doctest.h>

#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "pg/connection.hpp"
#include "testing/loopback_socket.hpp"

namespace mailroom::pg {

namespace {

// One PostgreSQL protocol message: type byte, big-endian length (itself included), body.
std::string message(char type, const std::string& body)
{
  const auto length = static_cast<std::uint32_t>(body.size() + 4);
  std::string out(1, type);
  for (int shift = 24; shift >= 0; shift -= 8) {
    out += static_cast<char>((length >> shift) & 0xFF);
  }
  return out + body;
}

// Notice or error fields: severity, SQLSTATE, message.
std::string fields(const std::string& severity, const std::string& code, const std::string& text)
{
  return std::string("S") + severity + '\0' + "V" + severity + '\0' + "C" + code + '\0' + "M" + text + '\0' +
         '\0';
}

// Accepts one connection on 127.0.0.1, reads its startup message, lets it in (AuthenticationOk),
// then sends a WARNING notice and a FATAL error (what a server shutting down sends) and closes.
class ShuttingDownServer {
public:
  ShuttingDownServer()
  {
    const testing::LoopbackSocket socket = testing::bind_loopback();
    REQUIRE(socket.fd >= 0);
    m_fd = socket.fd;
    m_port = socket.port;
    REQUIRE(::listen(m_fd, 1) == 0);
    m_thread = std::thread([this] { serve(); });
  }
  ShuttingDownServer(const ShuttingDownServer&) = delete;
  ShuttingDownServer& operator=(const ShuttingDownServer&) = delete;
  ~ShuttingDownServer()
  {
    m_thread.join();
    ::close(m_fd);
  }
  int port() const { return m_port; }

private:
  void serve() const
  {
    const int client = ::accept(m_fd, nullptr, nullptr);
    if (client < 0) {
      return;
    }
    unsigned char length[4] = {};
    if (::recv(client, length, 4, MSG_WAITALL) == 4) {
      std::string rest((length[0] << 24 | length[1] << 16 | length[2] << 8 | length[3]) - 4, '\0');
      ::recv(client, rest.data(), rest.size(), MSG_WAITALL);
      const std::string reply =
          message('R', std::string(4, '\0')) + // AuthenticationOk
          message('N',
                  fields("WARNING", "57P01", "terminating connection due to immediate shutdown command")) +
          message('E', fields("FATAL", "57P01", "terminating connection due to administrator command"));
      ::send(client, reply.data(), reply.size(), MSG_NOSIGNAL);
    }
    ::close(client);
  }

  int m_fd = -1;
  int m_port = 0;
  std::thread m_thread;
};

// Runs `fn` with stderr (fd 2) sent to a file; returns what was written there.
template <typename Fn> std::string stderr_of(Fn&& fn)
{
  std::FILE* capture = std::tmpfile();
  REQUIRE(capture != nullptr);
  std::fflush(stderr);
  const int saved = ::dup(2);
  ::dup2(::fileno(capture), 2);
  fn();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string text;
  std::rewind(capture);
  for (int c = std::fgetc(capture); c != EOF; c = std::fgetc(capture)) {
    text += static_cast<char>(c);
  }
  std::fclose(capture);
  return text;
}

} // namespace

TEST_SUITE("mailroom::pg::Connection errors")
{
  TEST_CASE("a notice while connecting is not printed; the failure is one error")
  {
    ShuttingDownServer server;
    Result<Connection> opened = make_error(ErrorCode::usage, "not run");
    const std::string printed = stderr_of([&] {
      opened = Connection::open(fmt::format(
          "postgresql://mailer@127.0.0.1:{}/maildb?sslmode=disable&gssencmode=disable", server.port()));
    });
    CHECK(printed.empty());
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.error().code == ErrorCode::store_error);
    INFO(opened.error().message);
    CHECK(opened.error().message.find("terminating connection due to administrator command") !=
          std::string::npos);
  }
}

} // namespace mailroom::pg
