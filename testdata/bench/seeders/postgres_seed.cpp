// Synthetic mail for benchmarks, generated inside PostgreSQL by generate_series: one INSERT ...
// SELECT per table instead of a million round trips.

#include "seeders/postgres_seed.hpp"

#include <fmt/format.h>

#include "mail/clock.hpp"
#include "mail/limits.hpp"
#include "pg/connection.hpp"
#include "pg/parameters.hpp"
#include "postgres/schema.hpp"
#include "postgres/sql.hpp"
#include "seeders/seed_rows.hpp"

namespace mailroom::providers::postgres {

namespace {

// agent-000 ... (three digits at least, as the bead store's printf('agent-%03d')).
#define MR_PG_AGENT(i) "'agent-' || lpad((" i ")::text, greatest(3, length((" i ")::text)), '0')"

constexpr std::string_view k_seed_mailboxes =
    "INSERT INTO mailboxes (name, registered_at) SELECT " MR_PG_AGENT("i") R"sql(, ?2::bigint
FROM generate_series(0, ?1::integer - 1) AS i
ON CONFLICT (name) DO UPDATE SET retired_at = NULL)sql";

// Seeded ids are "mr-s<8 hex>" as in the bead store's seeder: 's' is not a hex digit, so they never
// collide with an id the store mints. Parameters as seeders::SeedStatements::beads.
constexpr std::string_view k_seed_beads = R"sql(
INSERT INTO beads (id, sender, to_list, addressed_to, subject, body, created_at, thread_id, priority,
                   type, sender_uid, sender_host, trace_id, span_id, body_bytes, preview)
SELECT 'mr-s' || lpad(to_hex(((?2::bigint + i) * 2654435761) % 4294967296), 8, '0'),
       )sql" MR_PG_AGENT("i % ?3::integer") ", " MR_PG_AGENT("(i + 1) % ?3::integer") ", " MR_PG_AGENT(
    "(i + 1) % ?3::integer") R"sql(,
       'message ' || (?2::bigint + i), ?4::bytea, ?5::bigint + i,
       'thread-' || lpad(to_hex(?2::bigint + i), 12, '0'),
       CASE WHEN i % 10 = 0 THEN 1 ELSE 2 END, 'message', 0, 'seed',
       lpad(to_hex(?2::bigint + i + 1), 32, '0'), lpad(to_hex(?2::bigint + i + 1), 16, '0'),
       octet_length(?4::bytea), substr(?4::bytea, 1, 4096)
FROM generate_series(0, ?1::bigint - 1) AS i)sql";

// Deliveries for the beads above seq ?1; unread when a hash of the seq falls under ?2 (millionths).
constexpr std::string_view k_seed_deliveries = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, read_at)
SELECT seq, to_list, 'to', priority, created_at, created_at, sender,
       CASE WHEN (seq * 2654435761) % 1000000 < ?2::bigint THEN NULL ELSE created_at + 1000 END
FROM beads WHERE seq > ?1::bigint ORDER BY seq)sql";

constexpr std::string_view k_max_seq = "SELECT coalesce(max(seq), 0) AS seq, count(*) AS n FROM beads";

#undef MR_PG_AGENT

constexpr std::string_view k_now = "(floor(extract(epoch FROM clock_timestamp()) * 1000))::bigint";

// "PREPARE name AS <sql with $N>;" for one of the store's statements.
Result<std::string> prepare(std::string_view name, std::string_view sql)
{
  TRY_ASSIGN(const pg::TranslatedSql translated, pg::translate_parameters(sql));
  return fmt::format("PREPARE {} AS {};\n", name, translated.text);
}

std::string quoted(std::string_view text)
{
  std::string out = "'";
  for (const char c : text) {
    out += c;
    if (c == '\'') {
      out += '\'';
    }
  }
  return out + "'";
}

} // namespace

Result<void> seed_bench_store(const std::string& url, std::int64_t messages, int mailboxes,
                              double unread_fraction, std::size_t body_bytes)
{
  const seeders::SeedShape shape{messages, mailboxes, unread_fraction, body_bytes};
  TRY(seeders::check_seed_shape(shape));
  TRY_ASSIGN(pg::Connection db, pg::Connection::open(url));
  TRY(migrate(db, true, db.describe()));
  const mail::UnixMillis now = mail::SystemClock().now();
  {
    TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(db, db::TransactionKind::write));
    TRY(seeders::insert_seed_rows(db, {k_max_seq, k_seed_mailboxes, k_seed_beads, k_seed_deliveries}, shape,
                                  now));
    TRY(transaction.commit());
  }
  return db.execute_script("VACUUM ANALYZE");
}

Result<std::string> bench_script(std::string_view name, std::string_view box)
{
  const sqlstore::CoreQueries& q = postgres_queries().core;
  const std::string mailbox = quoted(box);
  const std::int64_t whole_body = static_cast<std::int64_t>(mail::k_max_body_bytes) * 4;
  std::string script;
  if (name == "count") {
    TRY_ASSIGN(script, prepare("count", q.count));
    script += fmt::format("EXECUTE count({}, {});\n", mailbox, k_now);
  } else if (name == "check" || name == "inbox") {
    const int limit = name == "check" ? 3 : 50;
    script = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY;\n";
    TRY_ASSIGN(const std::string list, prepare("list", q.select_unread));
    TRY_ASSIGN(const std::string count, prepare("count", name == "check" ? q.count_unread : q.count));
    script += list + count;
    script += fmt::format("EXECUTE list({}, {}, {}, {});\n", mailbox, k_now, whole_body, limit);
    script += fmt::format("EXECUTE count({}, {});\nCOMMIT;\n", mailbox, k_now);
  } else if (name == "send") {
    script = "BEGIN ISOLATION LEVEL SERIALIZABLE;\n";
    for (const auto& [statement, sql] :
         {std::pair{"names", q.select_names}, std::pair{"key", q.select_key},
          std::pair{"message", q.insert_message}, std::pair{"delivery", q.insert_delivery},
          std::pair{"touch", q.touch_mailbox}}) {
      TRY_ASSIGN(const std::string prepared, prepare(statement, sql));
      script += prepared;
    }
    script += fmt::format("SELECT {} AS now \\gset\n", k_now);
    script += "EXECUTE names;\n";
    script += "EXECUTE key('agent-001', md5(random()::text));\n";
    script += fmt::format(
        "EXECUTE message('mr-b' || left(md5(random()::text), 16), 'agent-001', {0}, '', {0}, 'bench', "
        "'hello'::bytea, :now, 'thread-' || left(md5(random()::text), 12), NULL, 2, 'message', "
        "md5(random()::text), "
        "left(md5(random()::text), 16), NULL, NULL, 0, 'bench') \\gset\n",
        mailbox);
    script += fmt::format(
        "EXECUTE delivery(:seq, {0}, 'to', 2, :now, 'agent-001', NULL, 'none', NULL, NULL);\n", mailbox);
    script += "EXECUTE touch('agent-001', :now, 0, 'command');\n";
    script += "SELECT pg_notify('mailroom_delivery', '');\nCOMMIT;\n";
  }
  return script;
}

} // namespace mailroom::providers::postgres
