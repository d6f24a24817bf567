#include "db/statement.hpp"

#include <cassert>

namespace mailroom::db {

Result<std::int64_t> Statement::exec()
{
  while (true) {
    TRY_ASSIGN(const bool has_row, step());
    if (!has_row) {
      break;
    }
  }
  return changes();
}

int Statement::column_index(std::string_view name) const
{
  if (m_names.empty()) {
    const int count = column_count();
    m_names.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      m_names.push_back(column_name(i));
    }
  }
  for (std::size_t i = 0; i < m_names.size(); ++i) {
    if (m_names[i] == name) {
      return static_cast<int>(i);
    }
  }
  assert(false && "no such column in this statement");
  return -1;
}

} // namespace mailroom::db
