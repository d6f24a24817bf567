#include "testing/pg_server.hpp"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include "util/subprocess.hpp"

#ifndef MAILROOM_PG_TEST_SERVER_SCRIPT
#error "MAILROOM_PG_TEST_SERVER_SCRIPT must name scripts/pg-test-server.sh"
#endif

namespace mailroom::testing {

namespace {

constexpr int k_missing_binaries = 3; // pg-test-server.sh's exit status for that

// Runs pg-test-server.sh with `args`. Errors: store_error with its exit status and stderr.
Result<void> run_script(std::vector<std::string> args, std::chrono::seconds timeout,
                        int* exit_status = nullptr)
{
  util::SubprocessOptions options;
  options.argv = {"bash", MAILROOM_PG_TEST_SERVER_SCRIPT};
  options.argv.insert(options.argv.end(), std::make_move_iterator(args.begin()),
                      std::make_move_iterator(args.end()));
  options.timeout = timeout;
  TRY_ASSIGN(const util::SubprocessResult result, util::run_subprocess(options));
  if (exit_status != nullptr) {
    *exit_status = result.exited ? result.exit_status : -1;
  }
  if (!result.success()) {
    return make_error(ErrorCode::store_error,
                      fmt::format("pg-test-server.sh {} failed ({}): {}", options.argv[2],
                                  result.describe_status(), result.stderr_text));
  }
  return {};
}

} // namespace

// The one server of this test binary and how starting it went. A function-level static on
// purpose: the server lives as long as the process, and its destructor stops it at exit.
struct PgServerSlot {
  enum class Status { unstarted, running, failed, skipped };
  Status status = Status::unstarted;
  std::string failure;
  std::unique_ptr<PgServer> server;

  static PgServerSlot& instance()
  {
    static PgServerSlot slot;
    return slot;
  }

  void start()
  {
    const char* mode = std::getenv(k_pg_tests_env);
    if (mode != nullptr && std::string_view(mode) == "skip") {
      status = Status::skipped;
      return;
    }
    // Short and outside the per-run test directory: a socket path has at most 107 bytes, the
    // postgres user must reach it, and the test main removes its directory before exit.
    const std::string pid = std::to_string(::getpid());
    std::filesystem::path dir = "/tmp/mailroom-pg-" + pid;
    int exit_status = 0;
    auto started = run_script({"start", dir.string(), pid}, std::chrono::seconds(120), &exit_status);
    if (!started.ok()) {
      status = Status::failed;
      failure = exit_status == k_missing_binaries
                    ? "the PostgreSQL tests need the PostgreSQL server, and its binaries (initdb, "
                      "pg_ctl in /usr/lib/postgresql/*/bin) are missing: run `make deps`, or set "
                      "MAILROOM_PG_TESTS=skip to skip these tests"
                    : "cannot start the PostgreSQL test server: " + started.error().message;
      return;
    }
    server.reset(new PgServer(std::move(dir)));
    status = Status::running;
  }
};

PgServer* PgServer::get()
{
  PgServerSlot& slot = PgServerSlot::instance();
  if (slot.status == PgServerSlot::Status::unstarted) {
    slot.start();
  }
  switch (slot.status) {
  case PgServerSlot::Status::running:
    return slot.server.get();
  case PgServerSlot::Status::skipped:
    MESSAGE("skipped: PostgreSQL tests are off (" << std::string(k_pg_tests_env) << "=skip)");
    return nullptr;
  case PgServerSlot::Status::failed:
  case PgServerSlot::Status::unstarted:
    break;
  }
  FAIL(slot.failure);
  return nullptr;
}

PgServer::~PgServer()
{
  (void)run_script({"stop", m_dir.string()}, std::chrono::seconds(60));
}

std::string PgServer::url(std::string_view database, std::string_view user) const
{
  return fmt::format("postgresql:///{}?host={}&user={}", database, m_dir.string(), user);
}

PgDatabase PgServer::create_database()
{
  PgDatabase db;
  db.name = fmt::format("mailroom_test_{}", ++m_databases);
  db.url = url(db.name);
  pg::Connection admin = pg_connect(url("postgres"));
  // The name is generated above, never user input, so it can be part of the SQL.
  const auto created = admin.execute_script(fmt::format("CREATE DATABASE {}", db.name));
  if (!created.ok()) {
    FAIL("cannot create a test database: " << created.error().message);
  }
  return db;
}

Result<void> PgServer::halt()
{
  return run_script({"halt", m_dir.string()}, std::chrono::seconds(60));
}

Result<void> PgServer::resume()
{
  return run_script({"resume", m_dir.string()}, std::chrono::seconds(120));
}

Result<void> PgServer::restart()
{
  return run_script({"restart", m_dir.string()}, std::chrono::seconds(120));
}

std::optional<PgDatabase> pg_test_database()
{
  PgServer* server = PgServer::get();
  if (server == nullptr) {
    return std::nullopt;
  }
  return server->create_database();
}

void pg_exec(pg::Connection& connection, std::string_view sql)
{
  const auto done = connection.execute_script(sql);
  if (!done.ok()) {
    FAIL(done.error().message);
  }
}

pg::Connection pg_connect(const std::string& url, const pg::OpenOptions& options)
{
  auto connection = pg::Connection::open(url, options);
  if (!connection.ok()) {
    FAIL("cannot connect to " << url << ": " << connection.error().message);
  }
  return std::move(connection).value();
}

} // namespace mailroom::testing
