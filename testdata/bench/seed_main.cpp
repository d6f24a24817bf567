// mailroom-bench-seed: builds benchmark stores in one transaction, and prints the store's own SQL for
// the sqlite3-shell baseline. Used by testdata/bench/run.sh; not installed.

#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "seeders/beads_seed.hpp"

int main(int argc, char** argv)
{
  CLI::App app{"Fill a mailroom store with synthetic mail for benchmarks"};
  std::string db;
  std::int64_t messages = 10000;
  int mailboxes = 100;
  double unread = 0.1;
  std::size_t body_bytes = 400;
  std::string print_sql;
  app.add_option("--db", db, "store to create or extend");
  app.add_option("--messages", messages, "messages to add")->check(CLI::PositiveNumber);
  app.add_option("--mailboxes", mailboxes, "mailboxes agent-000...")->check(CLI::PositiveNumber);
  app.add_option("--unread", unread, "fraction of deliveries left unread")->check(CLI::Range(0.0, 1.0));
  app.add_option("--body-bytes", body_bytes, "bytes per body");
  app.add_option("--print-sql", print_sql, "print the store's SQL: count, inbox or send");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (!print_sql.empty()) {
    const std::string_view sql = mailroom::providers::beads::bench_sql(print_sql);
    if (sql.empty()) {
      std::fprintf(stderr, "mailroom-bench-seed: unknown SQL name \"%s\"\n", print_sql.c_str());
      return 2;
    }
    std::fwrite(sql.data(), 1, sql.size(), stdout);
    return 0;
  }
  if (db.empty()) {
    std::fputs("mailroom-bench-seed: --db is required\n", stderr);
    return 2;
  }
  mailroom::mail::StoreSettings settings;
  settings.path = db;
  settings.synchronous_full = false; // a fixture, rebuilt every run
  const auto seeded =
      mailroom::providers::beads::seed_bench_store(settings, messages, mailboxes, unread, body_bytes);
  if (!seeded.ok()) {
    std::fprintf(stderr, "mailroom-bench-seed: %s\n", seeded.error().message.c_str());
    return 5;
  }
  return 0;
}
