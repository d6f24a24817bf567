#pragma once

// What the bench seeders of both stores share: the check of their arguments and the INSERT ...
// SELECTs, in order, that add synthetic mail through a store's own schema. Each seeder supplies
// its engine's statements and what it does around them (pragmas, visibility bits, ANALYZE).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/result.hpp"
#include "db/connection.hpp"
#include "mail/message.hpp"

namespace mailroom::seeders {

// What a seed adds; the seeders' headers say what each number means.
struct SeedShape {
  std::int64_t messages = 0;
  int mailboxes = 1;
  double unread_fraction = 0.0;
  std::size_t body_bytes = 0;
};

// usage unless messages >= 0, mailboxes >= 1 and 0 <= unread_fraction <= 1.
Result<void> check_seed_shape(const SeedShape& shape);

// One engine's seed statements.
struct SeedStatements {
  std::string_view max_seq;    // -> seq (the highest, 0 when there is none), n (how many messages)
  std::string_view mailboxes;  // ?1 how many, ?2 now
  std::string_view beads;      // ?1 how many, ?2 the first one's index, ?3 mailboxes, ?4 body,
                               // ?5 the first one's created_at (one millisecond apart after it)
  std::string_view deliveries; // ?1 the seq the new messages follow, ?2 unread, in millionths
};

// Adds `shape`'s mailboxes, messages and deliveries through `db`, in the write transaction the
// caller holds; the messages' creation times end at `now`. Returns the seq the new messages follow.
Result<std::int64_t> insert_seed_rows(db::Connection& db, const SeedStatements& sql, const SeedShape& shape,
                                      mail::UnixMillis now);

} // namespace mailroom::seeders
