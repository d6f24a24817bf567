#include "seeders/seed_rows.hpp"

#include <string>

namespace mailroom::seeders {

Result<void> check_seed_shape(const SeedShape& shape)
{
  if (shape.messages < 0 || shape.mailboxes < 1 || shape.unread_fraction < 0.0 ||
      shape.unread_fraction > 1.0) {
    return make_error(ErrorCode::usage,
                      "seed needs messages >= 0, mailboxes >= 1 and 0 <= unread_fraction <= 1");
  }
  return {};
}

Result<std::int64_t> insert_seed_rows(db::Connection& db, const SeedStatements& sql, const SeedShape& shape,
                                      mail::UnixMillis now)
{
  TRY_ASSIGN(db::Statement * max_seq, db.cached(sql.max_seq));
  TRY(max_seq->bind());
  TRY_ASSIGN(const bool has_row, max_seq->step());
  const std::int64_t base_seq = has_row ? max_seq->get<std::int64_t>("seq") : 0;
  const std::int64_t base_count = has_row ? max_seq->get<std::int64_t>("n") : 0;
  max_seq->reset();

  TRY_ASSIGN(db::Statement * add_mailboxes, db.cached(sql.mailboxes));
  TRY(add_mailboxes->bind(static_cast<std::int64_t>(shape.mailboxes), now));
  TRY(add_mailboxes->exec());
  if (shape.messages > 0) {
    const std::string body(shape.body_bytes, 'x');
    TRY_ASSIGN(db::Statement * add_beads, db.cached(sql.beads));
    TRY(add_beads->bind(shape.messages, base_count, static_cast<std::int64_t>(shape.mailboxes),
                        db::Blob{body}, now - shape.messages));
    TRY(add_beads->exec());
    TRY_ASSIGN(db::Statement * add_deliveries, db.cached(sql.deliveries));
    TRY(add_deliveries->bind(base_seq, static_cast<std::int64_t>(shape.unread_fraction * 1000000.0)));
    TRY(add_deliveries->exec());
  }
  return base_seq;
}

} // namespace mailroom::seeders
