#include "beads/visibility.hpp"

#include <cstdint>
#include <string_view>

#include <sqlite3.h>

namespace mailroom::providers::beads {

namespace {

// Rows stepped over before a gap is crossed with a fresh search instead.
constexpr int k_steps_before_seek = 4;

constexpr std::string_view k_scan =
    "SELECT word, bits FROM visibility WHERE who = ?1 AND word >= ?2 ORDER BY word";

// One statement's position in the caller's visibility rows. Invariant once positioned: `word` and
// `bits` are the first row at or after `target` (or `at_end` when there is none).
struct Cursor {
  sqlite3_stmt* scan = nullptr;
  bool positioned = false;
  bool at_end = false;
  std::int64_t target = 0;
  std::int64_t word = 0;
  std::int64_t bits = 0;

  Cursor() = default;
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  ~Cursor() { sqlite3_finalize(scan); }

  int next()
  {
    const int rc = sqlite3_step(scan);
    if (rc == SQLITE_ROW) {
      word = sqlite3_column_int64(scan, 0);
      bits = sqlite3_column_int64(scan, 1);
      return SQLITE_OK;
    }
    at_end = true;
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
  }

  int seek(std::int64_t to)
  {
    sqlite3_reset(scan);
    if (const int rc = sqlite3_bind_int64(scan, 2, to); rc != SQLITE_OK) {
      return rc;
    }
    positioned = true;
    at_end = false;
    target = to;
    return next();
  }

  // Moves to the first row at or after `to`.
  int move_to(std::int64_t to)
  {
    if (!positioned || to < target) {
      return seek(to);
    }
    target = to;
    for (int steps = 0; !at_end && word < to; ++steps) {
      if (steps == k_steps_before_seek) {
        return seek(to);
      }
      if (const int rc = next(); rc != SQLITE_OK) {
        return rc;
      }
    }
    return SQLITE_OK;
  }
};

void destroy_cursor(void* cursor)
{
  delete static_cast<Cursor*>(cursor); // NOLINT(cppcoreguidelines-owning-memory): SQLite owns it
}

// The cursor kept for this statement, made on the first row.
Cursor* cursor_for(sqlite3_context* context, sqlite3_value* who)
{
  if (auto* kept = static_cast<Cursor*>(sqlite3_get_auxdata(context, 0))) {
    return kept;
  }
  auto* made = new Cursor(); // NOLINT(cppcoreguidelines-owning-memory): handed to SQLite below
  sqlite3* db = sqlite3_context_db_handle(context);
  int rc = sqlite3_prepare_v3(db, k_scan.data(), static_cast<int>(k_scan.size()), SQLITE_PREPARE_PERSISTENT,
                              &made->scan, nullptr);
  if (rc == SQLITE_OK) {
    rc = sqlite3_bind_value(made->scan, 1, who);
  }
  if (rc != SQLITE_OK) {
    destroy_cursor(made);
    sqlite3_result_error(context, sqlite3_errmsg(db), -1);
    return nullptr;
  }
  // SQLite frees it at once when out of memory (and after this row when `who` is not constant).
  sqlite3_set_auxdata(context, 0, made, &destroy_cursor);
  auto* kept = static_cast<Cursor*>(sqlite3_get_auxdata(context, 0));
  if (kept == nullptr) {
    sqlite3_result_error_nomem(context);
  }
  return kept;
}

void visible(sqlite3_context* context, int /*argc*/, sqlite3_value** argv)
{
  if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || sqlite3_value_type(argv[1]) != SQLITE_INTEGER) {
    sqlite3_result_int(context, 0);
    return;
  }
  Cursor* cursor = cursor_for(context, argv[0]);
  if (cursor == nullptr) {
    return;
  }
  const std::int64_t seq = sqlite3_value_int64(argv[1]);
  if (const int rc = cursor->move_to(seq >> 6); rc != SQLITE_OK) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  const bool seen = !cursor->at_end && cursor->word == (seq >> 6) &&
                    ((static_cast<std::uint64_t>(cursor->bits) >> (seq & 63)) & 1U) != 0;
  sqlite3_result_int(context, seen ? 1 : 0);
}

} // namespace

Result<void> register_visibility(sqlite::Database& db)
{
  const int rc =
      sqlite3_create_function_v2(db.handle(), "mailroom_visible", 2, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                                 &visible, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    return make_error(ErrorCode::store_error, "cannot register the search visibility function");
  }
  return {};
}

} // namespace mailroom::providers::beads
