#include "render/render.hpp"

#include <ctime>

#include <fmt/format.h>

#include "text/sanitize.hpp"

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

std::tm local_tm(UnixMillis when)
{
  const std::time_t seconds = static_cast<std::time_t>(when / 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  return tm;
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
  return when ? format_sent(*when) : std::string("-");
}

} // namespace

std::string render_table(const Table& table)
{
  const std::size_t columns = table.header.size();
  std::vector<std::size_t> widths(columns, 0);
  const auto measure = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < columns && c < row.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  };
  measure(table.header);
  for (const auto& row : table.rows) {
    measure(row);
  }
  std::string out;
  const auto emit = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < columns; ++c) {
      const std::string& cell = c < row.size() ? row[c] : std::string();
      line += cell;
      if (c + 1 < columns) {
        line.append(widths[c] - display_width(cell) + 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    out += line;
    out += '\n';
  };
  emit(table.header);
  for (const auto& row : table.rows) {
    emit(row);
  }
  return out;
}

std::string format_sent(UnixMillis when)
{
  const std::tm tm = local_tm(when);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string format_sent_short(UnixMillis when)
{
  return format_sent(when).substr(0, 16);
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

std::string render_inbox_table(const std::vector<Message>& messages, UnixMillis now, bool show_read)
{
  Table table;
  table.header = {"ID", "PRI", "FROM", "SUBJECT", "BODY", "AGE"};
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
  }
  return render_table(table);
}

std::string render_thread_table(const std::vector<Message>& messages)
{
  Table table;
  table.header = {"ID", "FROM", "TO", "SUBJECT", "SENT", "READ"};
  for (const Message& m : messages) {
    table.rows.push_back({sanitize_line(m.id), sanitize_line(m.from), sanitize_line(join(m.to)),
                          truncate_line(m.subject, k_table_subject_bytes), format_sent_short(m.created_at),
                          m.state && m.state->read ? std::string(k_check_mark) : std::string()});
  }
  return render_table(table);
}

std::string render_status_table(const std::vector<DeliveryStatus>& records)
{
  Table table;
  table.header = {"RECIPIENT", "KIND", "DELIVERED", "READ", "ARCHIVED"};
  for (const DeliveryStatus& r : records) {
    table.rows.push_back({sanitize_line(r.recipient), r.kind, format_sent(r.delivered_at), optional_time(r.read_at),
                          optional_time(r.archived_at)});
  }
  return render_table(table);
}

std::string render_agents_table(const std::vector<Agent>& agents, UnixMillis now)
{
  Table table;
  table.header = {"NAME", "UNREAD", "LAST SEEN", "REGISTERED"};
  for (const Agent& a : agents) {
    table.rows.push_back({sanitize_line(a.name), std::to_string(a.unread),
                          a.last_seen ? format_age(*a.last_seen, now) : std::string("-"),
                          format_sent(a.registered_at)});
  }
  return render_table(table);
}

} // namespace mailroom::render
