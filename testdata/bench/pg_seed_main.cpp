// mailroom-bench-pg-seed: fills a PostgreSQL store with synthetic mail, and prints psql scripts
// running the store's own SQL for the psql baseline. Used by testdata/bench/postgres.sh; not
// installed.

#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

#include "seeders/postgres_seed.hpp"

int main(int argc, char** argv)
{
  CLI::App app{"Fill a mailroom PostgreSQL store with synthetic mail for benchmarks"};
  std::string db;
  std::int64_t messages = 10000;
  int mailboxes = 100;
  double unread = 0.1;
  std::size_t body_bytes = 400;
  std::string print_script;
  std::string mailbox = "agent-007";
  app.add_option("--db", db, "postgresql:// URL of the database to initialise or extend");
  app.add_option("--messages", messages, "messages to add")->check(CLI::NonNegativeNumber);
  app.add_option("--mailboxes", mailboxes, "mailboxes agent-000...")->check(CLI::PositiveNumber);
  app.add_option("--unread", unread, "fraction of deliveries left unread")->check(CLI::Range(0.0, 1.0));
  app.add_option("--body-bytes", body_bytes, "bytes per body");
  app.add_option("--print-script", print_script, "print the psql script of: count, check, inbox or send");
  app.add_option("--mailbox", mailbox, "the mailbox the printed script reads or sends to");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }

  if (!print_script.empty()) {
    const auto script = mailroom::providers::postgres::bench_script(print_script, mailbox);
    if (!script.ok() || script.value().empty()) {
      std::fprintf(stderr, "mailroom-bench-pg-seed: unknown script \"%s\"\n", print_script.c_str());
      return 2;
    }
    std::fwrite(script.value().data(), 1, script.value().size(), stdout);
    return 0;
  }
  if (db.empty()) {
    std::fputs("mailroom-bench-pg-seed: --db is required\n", stderr);
    return 2;
  }
  const auto seeded =
      mailroom::providers::postgres::seed_bench_store(db, messages, mailboxes, unread, body_bytes);
  if (!seeded.ok()) {
    std::fprintf(stderr, "mailroom-bench-pg-seed: %s\n", seeded.error().message.c_str());
    return 5;
  }
  return 0;
}
