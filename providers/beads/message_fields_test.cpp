// The field table (mail/message_fields.hpp) against the bead store: every field's column exists in
// a new store's schema, and the insert statement assembled from the table is the one expected.

#include <string>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "mail/message_fields.hpp"
#include "sqlstore/message_sql.hpp"

namespace {

using mailroom::mail::k_message_fields;
using mailroom::mail::MessageField;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

} // namespace

TEST_SUITE("mailroom::providers::beads message fields")
{
  TEST_CASE("every field of the table is a column of a new store's beads")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    auto& db = database_of(*store);
    for (const MessageField& field : k_message_fields) {
      CHECK_MESSAGE(scalar(db, "SELECT count(*) FROM pragma_table_info('beads') WHERE name = '" +
                                   std::string(field.column) + "'") == "1",
                    field.column);
    }
    for (const std::string_view extra : mailroom::providers::sqlstore::message_sql::k_body_extra_columns) {
      CHECK_MESSAGE(scalar(db, "SELECT count(*) FROM pragma_table_info('beads') WHERE name = '" +
                                   std::string(extra) + "'") == "1",
                    extra);
    }
  }

  TEST_CASE("the insert names the table's columns in order, one parameter each, then size and preview")
  {
    CHECK(
        mailroom::providers::sqlstore::message_sql::k_insert_message ==
        "\nINSERT INTO beads (id, sender, to_list, cc_list, addressed_to, subject, body, created_at, "
        "thread_id, "
        "reply_to, priority, type, trace_id, span_id, parent_span_id, expires_at, dedup_key, sender_uid, "
        "sender_host, body_bytes, preview)\n"
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
        "?21)\n"
        "RETURNING seq");
  }
}
