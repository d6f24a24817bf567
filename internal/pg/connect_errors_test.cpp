// pg::Connection failures: no server, a silent one, bad URLs, wrong passwords, lost connections.

#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "pg/connection.hpp"
#include "testing/loopback_socket.hpp"
#include "testing/pg_server.hpp"

namespace mailroom::pg {

namespace {

// A TCP socket on 127.0.0.1 with a kernel-chosen port: listening (connections are accepted by the
// kernel and then hear nothing) or not (connections are refused). Closed on destruction.
class LocalPort {
public:
  explicit LocalPort(bool listening)
  {
    const testing::LoopbackSocket socket = testing::bind_loopback();
    REQUIRE(socket.fd >= 0);
    m_fd = socket.fd;
    m_port = socket.port;
    if (listening) {
      REQUIRE(::listen(m_fd, 4) == 0);
    }
  }
  LocalPort(const LocalPort&) = delete;
  LocalPort& operator=(const LocalPort&) = delete;
  ~LocalPort() { ::close(m_fd); }
  int port() const { return m_port; }

private:
  int m_fd = -1;
  int m_port = 0;
};

double seconds_since(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

TEST_SUITE("mailroom::pg::Connection errors")
{
  TEST_CASE("a connection terminated mid-command reports the lost connection, then keeps failing")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    Connection victim = testing::pg_connect(db->url);
    Connection killer = testing::pg_connect(db->url);
    const int pid = victim.backend_pid();
    std::optional<Error> failure;
    std::thread sleeper([&] {
      const auto slept = victim.execute_script("SELECT pg_sleep(30)");
      if (!slept.ok()) {
        failure = slept.error();
      }
    });
    // Wait until the sleep runs, then end that backend.
    auto active = killer.cached("SELECT count(*) FROM pg_stat_activity WHERE pid = ?1 AND state = 'active'");
    REQUIRE(active.ok());
    const auto start = std::chrono::steady_clock::now();
    while (seconds_since(start) < 10) {
      REQUIRE((*active)->bind(pid).ok());
      REQUIRE((*active)->step().value());
      const bool running = (*active)->get<int>(0) == 1;
      (*active)->reset();
      if (running) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    auto terminate = killer.cached("SELECT pg_terminate_backend(?1)");
    REQUIRE(terminate.ok());
    REQUIRE((*terminate)->bind(pid).ok());
    REQUIRE((*terminate)->exec().ok());
    sleeper.join();
    CHECK(seconds_since(start) < 10);
    REQUIRE(failure.has_value());
    CHECK(failure->code == ErrorCode::store_error);
    CHECK(failure->message ==
          fmt::format("lost the connection to postgresql at \"{}\": terminating connection due to "
                      "administrator command",
                      victim.describe()));
    const auto after = victim.cached("SELECT 1");
    REQUIRE_FALSE(after.ok());
    CHECK(doctest::String(after.error().message.c_str()) ==
          doctest::Contains("lost the connection to postgresql at"));
    CHECK(victim.last_sqlstate() == k_connection_failure);
    const auto commit = victim.commit();
    REQUIRE_FALSE(commit.ok());
    CHECK(doctest::String(commit.error().message.c_str()) ==
          doctest::Contains("during commit (its outcome is unknown)"));
    victim.rollback(); // does nothing, throws nothing
  }

  TEST_CASE("a missing database and a wrong password are one-line errors without the password")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    auto* server = testing::PgServer::get();
    const auto missing = Connection::open(server->url("no_such_database"));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::store_error);
    CHECK(missing.error().message ==
          fmt::format("cannot connect to postgresql at \"{}:5432/no_such_database\": database "
                      "\"no_such_database\" does not exist",
                      server->dir().string()));

    Connection admin = testing::pg_connect(db->url);
    testing::pg_exec(admin, "DO $$ BEGIN CREATE ROLE password_user LOGIN PASSWORD 'right-password'; "
                            "EXCEPTION WHEN duplicate_object THEN NULL; END $$");
    const std::string base =
        fmt::format("postgresql://password_user:{{}}@/{}?host={}", db->name, server->dir().string());
    const auto wrong = Connection::open(fmt::format(fmt::runtime(base), "wr0ng-pa%24%24word"));
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message ==
          fmt::format("cannot connect to postgresql at \"{}:5432/{}\": password authentication failed "
                      "for user \"password_user\"",
                      server->dir().string(), db->name));
    CHECK(wrong.error().message.find("wr0ng") == std::string::npos);
    CHECK(wrong.error().hint.find("wr0ng") == std::string::npos);
    CHECK(Connection::open(fmt::format(fmt::runtime(base), "right-password")).ok());
  }

  TEST_CASE("no server there: a store_error naming the host, within the connect timeout, no password")
  {
    const LocalPort closed(false);
    const auto start = std::chrono::steady_clock::now();
    const auto refused = Connection::open(
        fmt::format("postgresql://mailer:Sup3r-S3cret%21@127.0.0.1:{}/maildb", closed.port()));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::store_error);
    CHECK(refused.error().message ==
          fmt::format("cannot connect to postgresql at \"127.0.0.1:{}/maildb\": connection refused",
                      closed.port()));
    CHECK(refused.error().hint == "is the server running on that host and accepting TCP/IP connections?");
    CHECK(refused.error().message.find("S3cret") == std::string::npos);
    CHECK(seconds_since(start) < 2);
  }

  TEST_CASE("a server that never answers: timeout expired after the default connect timeout")
  {
    const LocalPort silent(true);
    OpenOptions options;
    options.connect_timeout = std::chrono::seconds(2);
    const auto start = std::chrono::steady_clock::now();
    const auto opened = Connection::open(
        fmt::format("postgresql://mailer:hunter2@127.0.0.1:{}/maildb", silent.port()), options);
    const double elapsed = seconds_since(start);
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.error().message ==
          fmt::format("cannot connect to postgresql at \"127.0.0.1:{}/maildb\": timeout expired",
                      silent.port()));
    CHECK(elapsed > 1.5);
    CHECK(elapsed < 5);
  }

  TEST_CASE("the URL's connect_timeout wins over the default")
  {
    const LocalPort silent(true);
    OpenOptions options;
    options.connect_timeout = std::chrono::seconds(60);
    const auto start = std::chrono::steady_clock::now();
    const auto opened = Connection::open(
        fmt::format("postgres://127.0.0.1:{}/maildb?connect_timeout=2", silent.port()), options);
    REQUIRE_FALSE(opened.ok());
    CHECK(seconds_since(start) < 5);
  }

  TEST_CASE("a URL libpq cannot parse, or that is not postgresql://, never shows the password")
  {
    const auto malformed = Connection::open("postgresql://bob:Pa%zzword@localhost/db");
    REQUIRE_FALSE(malformed.ok());
    CHECK(malformed.error().code == ErrorCode::store_error);
    CHECK(malformed.error().message ==
          "bad postgresql connection string: invalid percent-encoded token: \"***\"");
    const auto query = Connection::open("postgresql://localhost/db?password=hunter2&port=x%zz");
    REQUIRE_FALSE(query.ok());
    CHECK(query.error().message.find("hunter2") == std::string::npos);
    const auto other = Connection::open("mysql://bob:secret@localhost/db");
    REQUIRE_FALSE(other.ok());
    CHECK(other.error().message ==
          "not a PostgreSQL connection string: a postgresql:// URL or libpq keywords (host=... dbname=...)");
    // A keyword string libpq cannot parse: its password is never shown either.
    const auto keywords = Connection::open("host=localhost password=Hunter2two dbname");
    REQUIRE_FALSE(keywords.ok());
    CHECK(keywords.error().message.find("Hunter2two") == std::string::npos);
    const auto unknown = Connection::open("host=localhost passwort=Hunter2two");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message.find("Hunter2two") == std::string::npos);
  }
}

} // namespace mailroom::pg
