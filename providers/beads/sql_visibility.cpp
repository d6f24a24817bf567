// The bead store's visibility bits (visibility.hpp): the SQL that keeps them as mail is stored and
// purged, and the search they serve, run by SqliteEngine's hooks (sqlstore/engine.hpp).

#include "beads/bead_store.hpp"
#include "beads/sql.hpp"

namespace mailroom::providers::beads {

namespace {

// The visibility rows of message ?1: its word, for its sender and recipients.
#define MR_AUDIENCE_OF_SEQ_TERMS                                                                             \
  "word = ?1 >> 6 AND who IN (SELECT sender FROM beads WHERE seq = ?1 "                                      \
  "UNION SELECT recipient FROM deliveries WHERE message = ?1)"

constexpr VisibilityQueries k_visibility = {
    .mark = R"sql(
INSERT INTO visibility (who, word, bits) VALUES (?1, ?2 >> 6, 1 << (?2 & 63))
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits)sql",

    .clear = "UPDATE visibility SET bits = bits & ~(1 << (?1 & 63)) WHERE " MR_AUDIENCE_OF_SEQ_TERMS,

    .drop = "DELETE FROM visibility WHERE bits = 0 AND " MR_AUDIENCE_OF_SEQ_TERMS,

    // Without filters a match is visible when the caller sent it or has a delivery of it, which
    // the visibility bits answer: one cursor stepped along the caller's words as FTS5 yields
    // matches in rowid order, instead of a search of the deliveries' key per match. Rank weights
    // as search_hits (sql_lists.cpp).
    .unfiltered_search = "SELECT f.rowid AS seq, mailroom_rank(beads_fts, 4.0, 1.0, 2.0) AS score "
                         "FROM beads_fts AS f WHERE beads_fts MATCH ?14 AND mailroom_visible(?1, f.rowid)",
};

#undef MR_AUDIENCE_OF_SEQ_TERMS

} // namespace

const VisibilityQueries& sqlite_visibility_queries()
{
  return k_visibility;
}

Result<void> SqliteEngine::mark_visible(db::Connection& writer, const std::string& who, std::int64_t seq)
{
  TRY_ASSIGN(db::Statement * mark, writer.cached(k_visibility.mark));
  TRY(mark->bind(who, seq));
  TRY(mark->exec());
  return {};
}

Result<void> SqliteEngine::forget_visible(db::Connection& writer, std::int64_t seq)
{
  for (const std::string_view forget : {k_visibility.clear, k_visibility.drop}) {
    TRY_ASSIGN(db::Statement * statement, writer.cached(forget));
    TRY(statement->bind(seq));
    TRY(statement->exec());
  }
  return {};
}

std::optional<std::string_view> SqliteEngine::unfiltered_search() const
{
  return k_visibility.unfiltered_search;
}

} // namespace mailroom::providers::beads
