#include "render/table.hpp"

#include <algorithm>

#include "text/sanitize.hpp"
#include "text/utf8.hpp"

namespace mailroom::render {

using text::display_width;

namespace {

using Cells = std::vector<DisplayText>;

// `table` without column `drop`.
CellTable without_column(const CellTable& table, std::size_t drop)
{
  const auto erase = [drop](auto& row) {
    if (drop < row.size()) {
      row.erase(row.begin() + static_cast<std::ptrdiff_t>(drop));
    }
  };
  CellTable less = table;
  erase(less.header);
  for (auto& row : less.rows) {
    erase(row);
  }
  erase(less.caps);
  erase(less.floors);
  less.drop_order.erase(less.drop_order.begin());
  for (auto& c : less.drop_order) {
    c = c > drop ? c - 1 : c;
  }
  return less;
}

// Column widths: each column's widest cell, capped; then, when `width` is set, narrowed widest
// first down to the floors. Empty when even the floors do not fit and a column can be dropped.
std::vector<std::size_t> fit_widths(const CellTable& table, std::size_t width)
{
  const std::size_t columns = table.header.size();
  std::vector<std::size_t> widths(columns, 0);
  const auto cap_of = [&](std::size_t c) {
    return c < table.caps.size() ? table.caps[c] : k_default_column_cap;
  };
  const auto measure = [&](const Cells& row) {
    for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], std::min(display_width(row[c]), cap_of(c)));
    }
  };
  measure(table.header);
  for (const auto& row : table.rows) {
    measure(row);
  }
  if (width == 0 || columns == 0) {
    return widths;
  }
  std::vector<std::size_t> floors(columns);
  for (std::size_t c = 0; c < columns; ++c) {
    floors[c] =
        std::min(widths[c], c < table.floors.size() ? table.floors[c] : display_width(table.header[c]));
  }
  std::size_t total = 2 * (columns - 1);
  for (const std::size_t w : widths) {
    total += w;
  }
  // The widest column that can still give up a cell does, until the table fits.
  while (total > width) {
    std::size_t widest = columns;
    for (std::size_t c = 0; c < columns; ++c) {
      if (widths[c] > floors[c] && (widest == columns || widths[c] > widths[widest])) {
        widest = c;
      }
    }
    if (widest == columns) {
      break;
    }
    --widths[widest];
    --total;
  }
  if (total > width && !table.drop_order.empty()) {
    return {};
  }
  return widths;
}

} // namespace

DisplayText fit_cells(const DisplayText& cell, std::size_t width)
{
  if (display_width(cell) <= width) {
    return cell;
  }
  if (width == 0) {
    return {};
  }
  // Keep whole characters while they and the ellipsis fit. Prefix widths are measured as a whole
  // so a variation selector stays with its base.
  const std::string_view view = cell.view();
  std::size_t keep = 0;
  for (std::size_t pos = 0; pos < view.size();) {
    const std::size_t next = pos + std::max<std::size_t>(1, text::utf8::decode(view, pos).length);
    if (display_width(view.substr(0, next)) + 1 > width) {
      break;
    }
    keep = next;
    pos = next;
  }
  return text::cut(cell, keep + text::k_ellipsis.size());
}

DisplayText render_cells(const CellTable& table, const Style& style)
{
  const std::vector<std::size_t> widths = fit_widths(table, style.width);
  if (widths.empty() && !table.header.empty()) {
    return render_cells(without_column(table, table.drop_order.front()), style);
  }
  const std::size_t columns = table.header.size();
  DisplayText out;
  const auto emit = [&](const Cells& row, std::optional<text::Style> row_style) {
    DisplayText line;
    for (std::size_t c = 0; c < columns; ++c) {
      const DisplayText cell = fit_cells(c < row.size() ? row[c] : DisplayText(), widths[c]);
      line += cell;
      if (c + 1 < columns) {
        line += text::spaces(widths[c] - display_width(cell) + 2);
      }
    }
    line = text::trim_end(line);
    out += style.color && row_style ? text::styled(line, *row_style) : line;
    out += "\n";
  };
  emit(table.header, text::Style::bold);
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    emit(table.rows[r], r < table.row_style.size() ? table.row_style[r] : std::nullopt);
  }
  return out;
}

DisplayText render_table(const Table& table, const Style& style)
{
  const auto sanitise = [](const std::vector<std::string>& raw) {
    Cells cells;
    cells.reserve(raw.size());
    for (const std::string& cell : raw) {
      cells.push_back(text::sanitize_line(cell));
    }
    return cells;
  };
  CellTable cells;
  cells.header = sanitise(table.header);
  for (const auto& row : table.rows) {
    cells.rows.push_back(sanitise(row));
  }
  cells.caps = table.caps;
  cells.floors = table.floors;
  return render_cells(cells, style);
}

} // namespace mailroom::render
