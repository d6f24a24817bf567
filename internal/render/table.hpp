#pragma once

// Tables for human views: columns fitted to the terminal, cells already through the output gate.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "text/display.hpp"

namespace mailroom::render {

using text::DisplayText;

// How a human view may use the terminal.
struct Style {
  std::size_t width = 0; // columns a table must fit in (COLUMNS or the terminal's); 0: no limit
  bool color = false;    // ANSI colour and bold allowed (a colour terminal, no NO_COLOR, TERM != dumb)
};

// The widest any column gets when a table does not say (display cells).
constexpr std::size_t k_default_column_cap = 100;

// A table of display text. Columns are as wide as their widest cell in display cells (wide
// characters and emoji count two), at most their cap; when `style.width` is set and the table is
// wider, the widest columns give up cells first, never below their floor (`floors`, default: the
// heading's width); when even the floors do not fit, the columns of `drop_order` are left out one
// by one. A cell cut to its column ends in "…". Two spaces between columns, the last column is
// not padded, every line ends in '\n'. With colour the header is bold and a row with a `row_style`
// is drawn in it.
struct CellTable {
  std::vector<DisplayText> header;
  std::vector<std::vector<DisplayText>> rows;
  std::vector<std::size_t> caps;                     // per column; missing: k_default_column_cap
  std::vector<std::size_t> floors;                   // per column; missing: the heading's width
  std::vector<std::optional<text::Style>> row_style; // per row; missing or empty: plain
  std::vector<std::size_t> drop_order;               // columns to leave out, in this order
};
DisplayText render_cells(const CellTable& table, const Style& style = {});

// A table of raw strings: every cell is sanitised here as one line (Sink::terminal_line), so raw
// text may be passed; sanitised text passes unchanged. Laid out as render_cells.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> caps;   // per column; missing: k_default_column_cap
  std::vector<std::size_t> floors; // per column; missing: the heading's width
};
DisplayText render_table(const Table& table, const Style& style = {});

// `cell` cut to at most `width` display cells, ending in "…" when cut.
DisplayText fit_cells(const DisplayText& cell, std::size_t width);

} // namespace mailroom::render
