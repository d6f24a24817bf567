// The delivery field table (mail/delivery_fields.hpp) against the bead store: every field's column
// exists in a new store's deliveries, and the statements that do not iterate the table (import's
// insert and set_acked_at) name every field's column.

#include <string>

#include <doctest/doctest.h>

#include "beads/sql.hpp"
#include "beads/test_support.hpp"
#include "mail/delivery_fields.hpp"

namespace {

using mailroom::mail::DeliveryField;
using mailroom::mail::k_delivery_fields;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

} // namespace

TEST_SUITE("mailroom::providers::beads delivery fields")
{
  TEST_CASE("every field of the table is a column of a new store's deliveries")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    auto& db = database_of(*store);
    for (const DeliveryField& field : k_delivery_fields) {
      CHECK_MESSAGE(scalar(db, "SELECT count(*) FROM pragma_table_info('deliveries') WHERE name = '" +
                                   std::string(field.column) + "'") == "1",
                    field.column);
    }
  }

  TEST_CASE("import's insert and the status and export reads name every field's column")
  {
    const auto& sql = mailroom::providers::beads::sqlite_queries();
    for (const DeliveryField& field : k_delivery_fields) {
      CAPTURE(field.column);
      const std::string column(field.column);
      // Import writes acked_at with an UPDATE of its own (set_acked_at), so that the pair's times see it.
      const std::string import =
          std::string(sql.transfer.insert_delivery) + std::string(sql.transfer.set_acked_at);
      CHECK(import.find(column) != std::string::npos);
      CHECK(std::string(sql.transfer.deliveries).find(", " + column) != std::string::npos);
      CHECK(std::string(sql.views.select_status).find(", " + column) != std::string::npos);
      CHECK(std::string(sql.views.trace_deliveries).find("d." + column + " AS " + column) !=
            std::string::npos);
    }
  }
}
