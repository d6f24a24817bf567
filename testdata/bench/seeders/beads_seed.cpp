// Synthetic mail for benchmarks, generated inside SQLite by recursive CTEs: one INSERT ... SELECT per
// table instead of a million round trips.

#include "seeders/beads_seed.hpp"

#include <string>

#include "beads/bead_store.hpp"
#include "beads/schema.hpp"
#include "beads/sql.hpp"
#include "mail/clock.hpp"
#include "seeders/seed_rows.hpp"

namespace mailroom::providers::beads {

namespace {

constexpr std::string_view k_seed_mailboxes = R"sql(
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
INSERT INTO mailboxes (name, registered_at)
SELECT printf('agent-%03d', i), ?2 FROM n WHERE true
ON CONFLICT (name) DO UPDATE SET retired_at = NULL
)sql";

// Seeded ids are "mr-s<8 hex>": 's' is not a hex digit, so they can never collide with an id the
// store mints, and multiplying by an odd constant modulo 2^32 keeps them distinct. Parameters as
// seeders::SeedStatements::beads.
constexpr std::string_view k_seed_beads = R"sql(
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
INSERT INTO beads (id, sender, to_list, addressed_to, subject, body, created_at, thread_id, priority,
                   type, sender_uid, sender_host, trace_id, span_id, body_bytes, preview)
SELECT printf('mr-s%08x', ((?2 + i) * 2654435761) % 4294967296),
       printf('agent-%03d', i % ?3), printf('agent-%03d', (i + 1) % ?3), printf('agent-%03d', (i + 1) % ?3),
       printf('message %d', ?2 + i), ?4, ?5 + i, printf('thread-%012x', ?2 + i),
       CASE WHEN i % 10 = 0 THEN 1 ELSE 2 END, 'message', 0, 'seed',
       printf('%032x', ?2 + i + 1), printf('%016x', ?2 + i + 1), length(?4), substr(?4, 1, 4096)
FROM n
)sql";

// Deliveries for the beads above seq ?1; a delivery is unread when a hash of its seq falls under
// ?2 (unread_fraction in millionths).
constexpr std::string_view k_seed_deliveries = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, read_at)
SELECT seq, to_list, 'to', priority, created_at, created_at, sender,
       CASE WHEN (seq * 2654435761) % 1000000 < ?2 THEN NULL ELSE created_at + 1000 END
FROM beads WHERE seq > ?1
)sql";

constexpr std::string_view k_max_seq = "SELECT coalesce(max(seq), 0) AS seq, count(*) AS n FROM beads";

} // namespace

Result<void> seed_bench_store(const mail::StoreSettings& settings, std::int64_t messages, int mailboxes,
                              double unread_fraction, std::size_t body_bytes)
{
  const seeders::SeedShape shape{messages, mailboxes, unread_fraction, body_bytes};
  TRY(seeders::check_seed_shape(shape));
  const mail::SystemClock clock;
  mail::StoreSettings create = settings;
  create.access = mail::Access::create;
  TRY_ASSIGN(std::unique_ptr<SqliteEngine> engine, SqliteEngine::open(create, clock));
  TRY_ASSIGN(sqlite::Database * database, engine->database());
  sqlite::Database& db = *database;
  const mail::UnixMillis now = clock.now();

  // A large page cache keeps the index B-trees in memory while a million rows go in, and a fixture
  // needs no journal: pages are written once, straight to the file, not to the WAL and then again
  // by a checkpoint (the store is switched back to WAL below; run.sh syncs it).
  TRY(db.execute_script("PRAGMA cache_size = -262144"));
  TRY(db.execute_script("PRAGMA journal_mode = OFF"));
  TRY(db.execute_script("PRAGMA synchronous = OFF"));
  TRY_ASSIGN(auto transaction, db::Transaction::begin(db, db::TransactionKind::write));
  TRY_ASSIGN(const std::int64_t base_seq,
             seeders::insert_seed_rows(db, {k_max_seq, k_seed_mailboxes, k_seed_beads, k_seed_deliveries},
                                       shape, now));
  if (messages > 0) {
    TRY(build_visibility(db, base_seq));
  }
  TRY(transaction.commit());
  TRY(db.execute_script("ANALYZE"));
  TRY(db.execute_script("PRAGMA journal_mode = WAL"));
  // Leave what every writer leaves: an empty WAL (Database::checkpoint).
  return db.checkpoint();
}

} // namespace mailroom::providers::beads

namespace mailroom::providers::beads {

namespace {

// The rows `mailroom send agent-002 -s bench -m hello` (as agent-001) writes, with literal values
// (bead, delivery, both visibility bits, the sender's last_seen; the triggers add the counters,
// pair times and FTS rows);
// ids are random so repeated runs never collide with each other or with store-made ids.
constexpr std::string_view k_bench_send = R"sql(
BEGIN IMMEDIATE;
INSERT INTO beads (id, sender, to_list, cc_list, addressed_to, subject, body, created_at, thread_id,
                   reply_to, priority, type, trace_id, span_id, parent_span_id, expires_at,
                   sender_uid, sender_host, body_bytes, preview)
VALUES ('mr-' || lower(hex(randomblob(8))), 'agent-001', 'agent-002', '', 'agent-002', 'bench', 'hello',
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        'thread-' || lower(hex(randomblob(8))), NULL, 2, 'message', lower(hex(randomblob(16))),
        lower(hex(randomblob(8))), NULL, NULL, 0, 'bench', 5, 'hello');
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender,
                        expires_at, ack_state, next_attempt_at)
VALUES (last_insert_rowid(), 'agent-002', 'to', 2,
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), 'agent-001', NULL, 'none', NULL);
INSERT INTO visibility (who, word, bits)
VALUES ('agent-001', (SELECT max(seq) FROM beads) >> 6, 1 << ((SELECT max(seq) FROM beads) & 63)),
       ('agent-002', (SELECT max(seq) FROM beads) >> 6, 1 << ((SELECT max(seq) FROM beads) & 63))
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits;
UPDATE mailboxes SET last_seen = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
WHERE name = 'agent-001';
COMMIT;
)sql";

} // namespace

std::string_view bench_sql(std::string_view name)
{
  if (name == "count") {
    return sqlite_queries().core.count;
  }
  if (name == "inbox") {
    return sqlite_queries().core.select_unread;
  }
  if (name == "send") {
    return k_bench_send;
  }
  return {};
}

} // namespace mailroom::providers::beads
