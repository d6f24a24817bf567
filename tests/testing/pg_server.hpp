#pragma once

// A throwaway PostgreSQL server for the unit tests, no mocks: one per test binary, started on
// first use by scripts/pg-test-server.sh (initdb with trust authentication, fsync off, no TCP),
// reachable only through the Unix socket in /tmp/mailroom-pg-<pid>, and stopped and removed
// when the binary exits. A watchdog started with it does the same if the binary dies, so no
// postmaster outlives a crashed run. Each test gets an empty database of its own.
//
// When the server binaries are missing, every test that asks for the server fails with a message
// saying to run `make deps`. With MAILROOM_PG_TESTS=skip in the environment those tests are
// skipped instead, each with a message, and no server is started.
//
//   TEST_CASE("...")
//   {
//     const auto db = testing::pg_test_database();
//     if (!db) { return; } // skipped
//     pg::Connection connection = testing::pg_connect(db->url);
//     ...
//   }

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "pg/connection.hpp"

namespace mailroom::testing {

// Set to "skip" to skip the PostgreSQL tests.
inline constexpr const char* k_pg_tests_env = "MAILROOM_PG_TESTS";

struct PgDatabase {
  std::string name;
  std::string url; // postgresql:///<name>?host=<dir>&user=postgres
};

class PgServer {
public:
  // The server of this test binary, started at the first call (about a second). Fails the
  // calling doctest test when the server cannot be started (and every later caller with the same
  // message, without retrying). nullptr when MAILROOM_PG_TESTS=skip, after a MESSAGE saying so.
  static PgServer* get();

  PgServer(const PgServer&) = delete;
  PgServer& operator=(const PgServer&) = delete;
  // Stops the server (immediate mode) and removes its directory.
  ~PgServer();

  // A new, empty database with a name no other test of this binary gets. Fails the test on error.
  PgDatabase create_database();
  // The URL of `database` as `user` over the Unix socket.
  std::string url(std::string_view database, std::string_view user = "postgres") const;
  // The directory holding the socket, data/ and server.log.
  const std::filesystem::path& dir() const { return m_dir; }

  // For crash tests. halt: stops the server like a crash (pg_ctl stop -m immediate, no
  // checkpoint; every connection drops). resume: starts it again on the same data (crash
  // recovery replays the WAL). restart: both. Errors: store_error with the script's output.
  Result<void> halt();
  Result<void> resume();
  Result<void> restart();

private:
  explicit PgServer(std::filesystem::path dir) : m_dir(std::move(dir)) {}
  friend struct PgServerSlot;

  std::filesystem::path m_dir;
  int m_databases = 0;
};

// The usual start of a PostgreSQL test: a new database on this binary's server, or nullopt when
// the PostgreSQL tests are skipped. Fails the test when the server cannot be started.
std::optional<PgDatabase> pg_test_database();

// Runs `sql` (execute_script), failing the test with the error when it fails.
void pg_exec(pg::Connection& connection, std::string_view sql);

// Opens `url`, failing the test (with the error) when it cannot.
pg::Connection pg_connect(const std::string& url, const pg::OpenOptions& options = {});

} // namespace mailroom::testing
