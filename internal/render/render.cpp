#include "render/render.hpp"

#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "text/sanitize.hpp"
#include "text/utf8.hpp"

namespace mailroom::render {


using text::display_width;
using text::neutralise_reminder_tags;
using text::sanitize_line;
using text::sanitize_text;
using text::truncate_line;

namespace {

constexpr std::size_t k_label_width = 10;
constexpr std::size_t k_inbox_body_bytes = 60;
constexpr std::size_t k_table_subject_bytes = 60;
constexpr std::string_view k_check_mark = "\xE2\x9C\x93"; // U+2713

constexpr std::string_view k_ellipsis = "\xE2\x80\xA6"; // U+2026

// Column caps in display cells.
constexpr std::size_t k_id_cap = 40;
constexpr std::size_t k_name_cap = 24;
constexpr std::size_t k_subject_cap = 50;
constexpr std::size_t k_body_cap = 60;

std::tm local_tm(UnixMillis when)
{
  const std::time_t seconds = static_cast<std::time_t>(when / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  return tm;
}

// "YYYY-MM-DD HH:MM[:SS] ZONE" in the local zone ($TZ); the zone is its abbreviation ("UTC",
// "CEST"), or the numeric offset when the zone has none.
std::string format_local(UnixMillis when, bool seconds)
{
  const std::tm tm = local_tm(when);
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                                tm.tm_hour, tm.tm_min);
  if (seconds) {
    out += fmt::format(":{:02}", tm.tm_sec);
  }
  if (tm.tm_zone != nullptr && tm.tm_zone[0] != '\0') {
    return out + " " + tm.tm_zone;
  }
  const long offset = tm.tm_gmtoff / 60;
  return out + fmt::format(" {}{:02}{:02}", offset < 0 ? '-' : '+', std::labs(offset) / 60, std::labs(offset) % 60);
}

std::string join(const std::vector<Mailbox>& names)
{
  std::string out;
  for (const Mailbox& name : names) {
    if (!out.empty()) {
      out += ", ";
    }
    out += name;
  }
  return out;
}

void add_field(std::string& out, std::string_view label, std::string_view value)
{
  out += label;
  out.append(k_label_width > label.size() ? k_label_width - label.size() : 1, ' ');
  out += value;
  out += '\n';
}

std::string priority_cell(Priority priority)
{
  return priority == Priority::normal ? std::string() : std::string(to_string(priority));
}

std::string optional_time(const std::optional<UnixMillis>& when)
{
  return when ? format_sent_short(*when) : std::string("-");
}

} // namespace

std::string fit_cells(std::string_view cell, std::size_t width)
{
  if (display_width(cell) <= width) {
    return std::string(cell);
  }
  if (width == 0) {
    return {};
  }
  // Keep whole characters while they and the ellipsis fit. Prefix widths are measured as a whole
  // so a variation selector stays with its base.
  std::size_t keep = 0;
  for (std::size_t pos = 0; pos < cell.size();) {
    const std::size_t next = pos + std::max<std::size_t>(1, text::utf8::decode(cell, pos).length);
    if (display_width(cell.substr(0, next)) + 1 > width) {
      break;
    }
    keep = next;
    pos = next;
  }
  std::string out(cell.substr(0, keep));
  while (!out.empty() && out.back() == ' ') {
    out.pop_back();
  }
  return out + std::string(k_ellipsis);
}

namespace {

// `table` without column `drop`.
Table without_column(const Table& table, std::size_t drop)
{
  const auto erase = [drop](auto& row) {
    if (drop < row.size()) {
      row.erase(row.begin() + static_cast<std::ptrdiff_t>(drop));
    }
  };
  Table less = table;
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

} // namespace

std::string render_table(const Table& table, const Style& style)
{
  const std::size_t columns = table.header.size();
  std::vector<std::size_t> widths(columns, 0);
  const auto cap_of = [&](std::size_t c) { return c < table.caps.size() ? table.caps[c] : k_default_column_cap; };
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], std::min(display_width(row[c]), cap_of(c)));
    }
  };
  measure(table.header);
  for (const auto& row : table.rows) {
    measure(row);
  }
  if (style.width > 0 && columns > 0) {
    std::vector<std::size_t> floors(columns);
    for (std::size_t c = 0; c < columns; ++c) {
      floors[c] = std::min(widths[c], c < table.floors.size() ? table.floors[c] : display_width(table.header[c]));
    }
    std::size_t total = 2 * (columns - 1);
    for (const std::size_t w : widths) {
      total += w;
    }
    // The widest column that can still give up a cell does, until the table fits.
    while (total > style.width) {
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
    if (total > style.width && !table.drop_order.empty()) {
      return render_table(without_column(table, table.drop_order.front()), style);
    }
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& row, std::string_view sgr) {
    std::string line;
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string cell = fit_cells(c < row.size() ? std::string_view(row[c]) : std::string_view(), widths[c]);
      line += cell;
      if (c + 1 < columns) {
        line.append(widths[c] - display_width(cell) + 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    if (style.color && !sgr.empty()) {
      line = fmt::format("\x1b[{}m{}\x1b[0m", sgr, line);
    }
    out += line;
    out += '\n';
  };
  emit(table.header, "1");
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    emit(table.rows[r], r < table.row_sgr.size() ? std::string_view(table.row_sgr[r]) : std::string_view());
  }
  return out;
}

std::string format_sent(UnixMillis when)
{
  return format_local(when, true);
}

std::string format_sent_short(UnixMillis when)
{
  return format_local(when, false);
}

std::string format_rfc3339(UnixMillis when)
{
  // Floor division, so times before 1970 keep a non-negative millisecond part.
  const std::int64_t millis = ((when % 1000) + 1000) % 1000;
  const std::time_t seconds = static_cast<std::time_t>((when - millis) / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
}

std::string format_age(UnixMillis when, UnixMillis now)
{
  const std::int64_t seconds = (now - when) / 1000;
  if (seconds < 60) {
    return "just now";
  }
  if (seconds < 3600) {
    return fmt::format("{}m ago", seconds / 60);
  }
  if (seconds < 86400) {
    return fmt::format("{}h ago", seconds / 3600);
  }
  return fmt::format("{}d ago", seconds / 86400);
}

std::string render_message_view(const Message& m)
{
  std::string out;
  add_field(out, "ID:", sanitize_line(m.id));
  add_field(out, "From:", sanitize_line(m.from));
  add_field(out, "To:", sanitize_line(join(m.to)));
  if (!m.cc.empty()) {
    add_field(out, "Cc:", sanitize_line(join(m.cc)));
  }
  if (!m.subject.empty()) {
    add_field(out, "Subject:", sanitize_line(m.subject));
  }
  add_field(out, "Sent:", format_sent(m.created_at));
  if (m.priority != Priority::normal) {
    add_field(out, "Priority:", mail::to_string(m.priority));
  }
  if (!m.type.empty() && m.type != mail::k_default_type) {
    add_field(out, "Type:", sanitize_line(m.type));
  }
  if (!m.thread_id.empty()) {
    add_field(out, "Thread:", sanitize_line(m.thread_id));
  }
  if (m.reply_to) {
    add_field(out, "In-Reply-To:", sanitize_line(*m.reply_to));
  }
  if (!m.body.empty()) {
    std::string body = sanitize_text(m.body);
    while (!body.empty() && body.back() == '\n') {
      body.pop_back();
    }
    add_field(out, "Body:", body);
  }
  return out;
}

std::string render_inbox_table(const std::vector<Message>& messages, UnixMillis now, bool show_read,
                               const Style& style)
{
  Table table;
  table.header = {"ID", "PRI", "FROM", "SUBJECT", "BODY", "AGE"};
  table.caps = {k_id_cap, 7, k_name_cap, k_subject_cap, k_body_cap, 10, 4};
  table.floors = {k_id_cap, 6, 8, 8, 4, 8, 4}; // ids stay whole: they are what a person types next
  table.drop_order = {4, 5, 2};                 // BODY, then AGE, then FROM
  if (show_read) {
    table.header.emplace_back("READ");
  }
  for (const Message& m : messages) {
    std::vector<std::string> row = {sanitize_line(m.id),
                                    priority_cell(m.priority),
                                    sanitize_line(m.from),
                                    truncate_line(m.subject, k_table_subject_bytes),
                                    truncate_line(m.body, k_inbox_body_bytes),
                                    format_age(m.created_at, now)};
    if (show_read) {
      row.emplace_back(m.state && m.state->read ? k_check_mark : "");
    }
    table.rows.push_back(std::move(row));
    table.row_sgr.emplace_back(m.priority == Priority::urgent ? "1;31" : m.priority == Priority::high ? "33" : "");
  }
  return render_table(table, style);
}

std::string render_thread_table(const std::vector<Message>& messages, const Style& style)
{
  Table table;
  table.header = {"ID", "FROM", "TO", "SUBJECT", "SENT", "READ"};
  table.caps = {k_id_cap, k_name_cap, k_name_cap * 2, k_subject_cap, 30, 4};
  table.floors = {k_id_cap, 4, 4, 7, 16, 4};
  for (const Message& m : messages) {
    table.rows.push_back({sanitize_line(m.id), sanitize_line(m.from), sanitize_line(join(m.to)),
                          truncate_line(m.subject, k_table_subject_bytes), format_sent_short(m.created_at),
                          m.state && m.state->read ? std::string(k_check_mark) : std::string()});
  }
  return render_table(table, style);
}

std::string render_thread_view(std::string_view thread_id, const std::vector<Message>& messages)
{
  std::string out = fmt::format("Thread {}: {} message{}\n", sanitize_line(thread_id), messages.size(),
                                messages.size() == 1 ? "" : "s");
  for (const Message& m : messages) {
    Message shown = m;
    shown.thread_id.clear(); // said once, above
    out += '\n';
    out += render_message_view(shown);
  }
  return out;
}

std::string render_status_table(const std::vector<DeliveryStatus>& records, const Style& style)
{
  Table table;
  table.header = {"RECIPIENT", "KIND", "DELIVERED", "READ", "ARCHIVED"};
  table.caps = {k_name_cap * 2, 10, 30, 30, 30};
  for (const DeliveryStatus& r : records) {
    table.rows.push_back({sanitize_line(r.recipient), r.kind, format_sent_short(r.delivered_at),
                          optional_time(r.read_at), optional_time(r.archived_at)});
  }
  return render_table(table, style);
}

std::string render_agents_table(const std::vector<Agent>& agents, UnixMillis now, const Style& style)
{
  Table table;
  table.header = {"NAME", "UNREAD", "LAST SEEN", "REGISTERED"};
  table.caps = {k_name_cap * 2, 8, 12, 30};
  for (const Agent& a : agents) {
    table.rows.push_back({sanitize_line(a.name), std::to_string(a.unread),
                          a.last_seen ? format_age(*a.last_seen, now) : std::string("-"),
                          format_sent_short(a.registered_at)});
  }
  return render_table(table, style);
}

} // namespace mailroom::render
