#include "beads/fts5_rank.hpp"

#include <array>

#include <sqlite3.h>

namespace mailroom::providers::beads {

namespace {

constexpr int k_max_columns = 8; // beads_fts has 3; more are counted as the last
constexpr double k_saturation = 1.2;

void rank(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* result, int argc,
          sqlite3_value** argv)
{
  // Each phrase's instances in this row, read straight from its position list: the same set
  // xInstCount/xInst give, without building their merged array (fewer instructions: BENCHMARKS.md,
  // "Measurements behind the code").
  std::array<int, k_max_columns> per_column{};
  const int phrases = api->xPhraseCount(fts);
  for (int phrase = 0; phrase < phrases; ++phrase) {
    Fts5PhraseIter iter{};
    int column = -1;
    int offset = 0;
    if (const int rc = api->xPhraseFirst(fts, phrase, &iter, &column, &offset); rc != SQLITE_OK) {
      sqlite3_result_error_code(result, rc);
      return;
    }
    for (; column >= 0; api->xPhraseNext(fts, &iter, &column, &offset)) {
      ++per_column[static_cast<std::size_t>(column < k_max_columns ? column : k_max_columns - 1)];
    }
  }
  double score = 0;
  for (int c = 0; c < k_max_columns; ++c) {
    const double weight = c < argc ? sqlite3_value_double(argv[c]) : 1.0;
    const double tf = per_column[static_cast<std::size_t>(c)];
    score += weight * tf / (tf + k_saturation);
  }
  sqlite3_result_double(result, -score);
}

} // namespace

Result<void> register_rank(sqlite::Database& db)
{
  // The documented way to reach FTS5's API: SELECT fts5(?1) with a pointer bound to ?1.
  fts5_api* api = nullptr;
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db.handle(), "SELECT fts5(?1)", -1, &statement, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_bind_pointer(statement, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(statement) == SQLITE_ROW ? SQLITE_OK : sqlite3_errcode(db.handle());
  }
  sqlite3_finalize(statement);
  if (rc != SQLITE_OK || api == nullptr || api->iVersion < 2) {
    return make_error(ErrorCode::store_error, "this SQLite library has no FTS5, which search needs");
  }
  rc = api->xCreateFunction(api, "mailroom_rank", nullptr, &rank, nullptr);
  if (rc != SQLITE_OK) {
    return make_error(ErrorCode::store_error, "cannot register the search ranking function");
  }
  return {};
}

} // namespace mailroom::providers::beads
