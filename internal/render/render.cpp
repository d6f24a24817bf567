#include "render/render.hpp"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <initializer_list>
#include <optional>

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/duration.hpp"
#include "render/health.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

using text::display_width;
using text::Literal;
using text::sanitize_line;
using text::sanitize_text;
using text::truncate_line;

namespace {

using Cells = std::vector<DisplayText>;

constexpr std::size_t k_label_width = 10;
constexpr std::size_t k_inbox_body_bytes = 60;
constexpr std::size_t k_table_subject_bytes = 60;
constexpr Literal k_check_mark = "\xE2\x9C\x93"; // U+2713

// Column caps in display cells.
constexpr std::size_t k_id_cap = 40;
constexpr std::size_t k_name_cap = 24;
constexpr std::size_t k_subject_cap = 50;
constexpr std::size_t k_body_cap = 60;

Cells headings(std::initializer_list<Literal> names)
{
  return Cells(names.begin(), names.end());
}

// One value (an id, a name) as one line, capped at text::k_default_cap_bytes.
DisplayText value_line(std::string_view raw)
{
  return text::sanitize(raw, text::Sink::terminal_line, text::Limit{});
}

// Mailbox names, each sanitised as one line, joined with ", ".
DisplayText join(const std::vector<Mailbox>& names)
{
  Cells parts;
  parts.reserve(names.size());
  for (const Mailbox& name : names) {
    parts.push_back(value_line(name));
  }
  return text::join(parts, ", ");
}

// True when `m` was addressed to a group (@all, @ops): its views then say so in one short line.
bool addressed_to_group(const Message& m)
{
  return std::any_of(m.addressed_to.begin(), m.addressed_to.end(),
                     [](const std::string& a) { return !a.empty() && a.front() == '@'; });
}

void add_field(DisplayText& out, Literal label, const DisplayText& value)
{
  out += label;
  const std::size_t size = label.view().size();
  out += text::spaces(k_label_width > size ? k_label_width - size : 1);
  out += value;
  out += "\n";
}

DisplayText priority_cell(Priority priority)
{
  return priority == Priority::normal ? DisplayText() : sanitize_line(to_string(priority));
}

DisplayText optional_time(const std::optional<UnixMillis>& when)
{
  return when ? sanitize_line(format_sent_short(*when)) : DisplayText{"-"};
}

} // namespace

std::optional<Literal> end_mark(const Message& m)
{
  if (m.state && m.state->request_state == mail::RequestState::canceled) {
    return Literal("(canceled)");
  }
  if (m.expired) {
    return Literal("(expired)");
  }
  return std::nullopt;
}

namespace {

// The subject in a table, marked when the message has expired (or its request was canceled,
// which ends its life as expiry does).
DisplayText subject_cell(const Message& m)
{
  DisplayText cell = truncate_line(m.subject, k_table_subject_bytes);
  if (const auto mark = end_mark(m)) {
    cell += cell.empty() ? DisplayText(*mark) : DisplayText(" ") + DisplayText(*mark);
  }
  return cell;
}

// The BODY cell: one line of the body; a body the store gave only a preview of ends in "…" even
// when what is shown was not cut here (e.g. 4,094 newlines, then "Ap").
DisplayText body_cell(const Message& m)
{
  DisplayText cell = truncate_line(m.body, k_inbox_body_bytes);
  if (!m.body_complete && !cell.truncated()) {
    cell += DisplayText{"\xE2\x80\xA6"}; // U+2026
  }
  return cell;
}

DisplayText read_cell(bool read)
{
  return read ? DisplayText{k_check_mark} : DisplayText();
}

std::optional<text::Style> priority_style(Priority priority)
{
  if (priority == Priority::urgent) {
    return text::Style::alert;
  }
  if (priority == Priority::high) {
    return text::Style::warning;
  }
  return std::nullopt;
}

// The inbox's SUBJECT cell, led by the redelivery note when there is one.
DisplayText redelivered_subject(const Message& m, UnixMillis now)
{
  const std::string note = redelivery_note(m, now);
  if (note.empty()) {
    return subject_cell(m);
  }
  return DisplayText::format("({}) {}", sanitize_line(note), subject_cell(m));
}

} // namespace

DisplayText addressees(const Message& m, std::size_t mailboxes)
{
  if (!addressed_to_group(m)) {
    return join(m.to);
  }
  return DisplayText::format("{} ({} mailbox{})", join(m.addressed_to), mailboxes,
                             mailboxes == 1 ? DisplayText() : DisplayText("es"));
}

namespace {

// The addresses as written (the store keeps to and cc addresses in one list, addressed_to), split
// into the To: and Cc: lines. A mailbox address goes where it was delivered. A group (or @all)
// goes to Cc: when every To recipient is named by a mailbox address (the group reached only
// copies), else to To:.
struct SplitAddresses {
  std::vector<std::string> to;
  std::vector<std::string> cc;
};

bool named(const Message& m, const Mailbox& name)
{
  return std::find(m.addressed_to.begin(), m.addressed_to.end(), name) != m.addressed_to.end();
}

SplitAddresses split_addresses(const Message& m)
{
  const bool groups_are_cc =
      !m.cc.empty() && std::all_of(m.to.begin(), m.to.end(), [&](const Mailbox& r) { return named(m, r); });
  SplitAddresses split;
  for (const std::string& address : m.addressed_to) {
    const bool group = !address.empty() && address.front() == '@';
    const bool in_cc = group ? groups_are_cc
                             : std::find(m.cc.begin(), m.cc.end(), address) != m.cc.end() &&
                                   std::find(m.to.begin(), m.to.end(), address) == m.to.end();
    (in_cc ? split.cc : split.to).push_back(address);
  }
  return split;
}

// "a, @ops (3 mailboxes)": the addresses, and how many mailboxes they reached when a group is
// among them.
DisplayText counted(const std::vector<std::string>& addresses, std::size_t mailboxes)
{
  const bool group = std::any_of(addresses.begin(), addresses.end(),
                                 [](const std::string& a) { return !a.empty() && a.front() == '@'; });
  if (!group) {
    return join(addresses);
  }
  return DisplayText::format("{} ({} mailbox{})", join(addresses), mailboxes,
                             mailboxes == 1 ? DisplayText() : DisplayText("es"));
}

} // namespace

DisplayText render_message_view(const Message& m, std::optional<UnixMillis> now)
{
  DisplayText out;
  add_field(out, "ID:", value_line(m.id));
  add_field(out, "From:", value_line(m.from));
  if (addressed_to_group(m)) {
    // The addresses as written, To: apart from Cc:, each with how many mailboxes it reached.
    const SplitAddresses split = split_addresses(m);
    add_field(out, "To:", counted(split.to, m.to.size()));
    if (!split.cc.empty()) {
      add_field(out, "Cc:", counted(split.cc, m.cc.size()));
    }
  } else {
    add_field(out, "To:", join(m.to));
    if (!m.cc.empty()) {
      add_field(out, "Cc:", join(m.cc));
    }
  }
  if (!m.subject.empty()) {
    add_field(out, "Subject:", sanitize_line(m.subject));
  }
  add_field(out, "Sent:", sanitize_line(format_sent(m.created_at)));
  if (const std::string note = now ? redelivery_note(m, *now) : std::string(); !note.empty()) {
    add_field(out, "Delivery:", sanitize_line(note));
  }
  if (m.priority != Priority::normal) {
    add_field(out, "Priority:", priority_cell(m.priority));
  }
  if (!m.type.empty() && m.type != mail::k_default_type) {
    add_field(out, "Type:", value_line(m.type));
  }
  if (m.state && m.state->request_state) {
    add_field(out, "Request:", value_line(mail::to_string(*m.state->request_state)));
  }
  if (!m.thread_id.empty()) {
    add_field(out, "Thread:", value_line(m.thread_id));
  }
  if (m.reply_to) {
    add_field(out, "In-Reply-To:", value_line(*m.reply_to));
  }
  if (m.expires_at) {
    const bool canceled = m.state && m.state->request_state == mail::RequestState::canceled;
    add_field(out, m.expired && !canceled ? Literal("Expired:") : Literal("Expires:"),
              sanitize_line(format_sent(*m.expires_at)));
  }
  if (!m.body.empty()) {
    std::string_view body = m.body;
    while (!body.empty() && body.back() == '\n') {
      body.remove_suffix(1);
    }
    add_field(out, "Body:", sanitize_text(body));
  }
  return out;
}

DisplayText render_inbox_table(const std::vector<Message>& messages, UnixMillis now, bool show_read,
                               const Style& style)
{
  // TYPE only when a listed message is not of type "message" (blank for those that are).
  const bool typed = std::any_of(messages.begin(), messages.end(),
                                 [](const Message& m) { return m.type != mail::k_default_type; });
  CellTable table;
  if (typed) {
    table.header = headings({"ID", "PRI", "TYPE", "FROM", "SUBJECT", "BODY", "AGE"});
    table.caps = {k_id_cap, 7, k_name_cap, k_name_cap, k_subject_cap, k_body_cap, 10, 4};
    table.floors = {k_id_cap, 6, 4, 8, 8, 4, 8, 4};
    table.drop_order = {5, 6, 3, 2}; // BODY, AGE, FROM, then TYPE
  } else {
    table.header = headings({"ID", "PRI", "FROM", "SUBJECT", "BODY", "AGE"});
    table.caps = {k_id_cap, 7, k_name_cap, k_subject_cap, k_body_cap, 10, 4};
    table.floors = {k_id_cap, 6, 8, 8, 4, 8, 4}; // ids stay whole: they are what a person types next
    table.drop_order = {4, 5, 2};                // BODY, then AGE, then FROM
  }
  if (show_read) {
    table.header.push_back(DisplayText{"READ"});
  }
  for (const Message& m : messages) {
    Cells row = {value_line(m.id), priority_cell(m.priority)};
    if (typed) {
      row.push_back(m.type == mail::k_default_type ? DisplayText() : value_line(m.type));
    }
    row.insert(row.end(), {value_line(m.from), redelivered_subject(m, now), body_cell(m),
                           sanitize_line(format_age(m.created_at, now))});
    if (show_read) {
      row.push_back(read_cell(m.state && m.state->read));
    }
    table.rows.push_back(std::move(row));
    table.row_style.push_back(priority_style(m.priority));
  }
  return render_cells(table, style);
}

DisplayText render_thread_table(const std::vector<Message>& messages, const Style& style)
{
  CellTable table;
  table.header = headings({"ID", "FROM", "TO", "SUBJECT", "SENT", "READ"});
  table.caps = {k_id_cap, k_name_cap, k_name_cap * 2, k_subject_cap, 30, 4};
  table.floors = {k_id_cap, 4, 4, 7, 16, 4};
  for (const Message& m : messages) {
    const DisplayText to = addressed_to_group(m) ? counted(split_addresses(m).to, m.to.size()) : join(m.to);
    table.rows.push_back({value_line(m.id), value_line(m.from), to, subject_cell(m),
                          sanitize_line(format_sent_short(m.created_at)),
                          read_cell(m.state && m.state->read)});
  }
  return render_cells(table, style);
}

DisplayText render_thread_view(std::string_view thread_id, const std::vector<Message>& messages)
{
  DisplayText out = DisplayText::format("Thread {}: {} message{}\n", value_line(thread_id), messages.size(),
                                        messages.size() == 1 ? DisplayText() : DisplayText{"s"});
  for (const Message& m : messages) {
    Message shown = m;
    shown.thread_id.clear(); // said once, above
    out += "\n";
    out += render_message_view(shown);
  }
  return out;
}

DisplayText render_status_table(const std::vector<DeliveryStatus>& records, const Style& style)
{
  // REQUEST only for a request (a message whose type expects a reply).
  const bool requests = std::any_of(records.begin(), records.end(),
                                    [](const DeliveryStatus& r) { return r.request_state.has_value(); });
  CellTable table;
  if (requests) {
    table.header = headings({"RECIPIENT", "KIND", "DELIVERED", "READ", "ARCHIVED", "ACK", "REQUEST",
                             "ATTEMPTS", "CLAIM", "SET ASIDE"});
    table.caps = {k_name_cap * 2, 10, 30, 30, 30, 40, 16, 8, 60, 30};
  } else {
    table.header = headings(
        {"RECIPIENT", "KIND", "DELIVERED", "READ", "ARCHIVED", "ACK", "ATTEMPTS", "CLAIM", "SET ASIDE"});
    table.caps = {k_name_cap * 2, 10, 30, 30, 30, 40, 8, 60, 30};
  }
  for (const DeliveryStatus& r : records) {
    std::string ack =
        r.ack_state == mail::AckState::none ? std::string("-") : std::string(mail::to_string(r.ack_state));
    if (r.attempts > 0) {
      ack += fmt::format(" (redelivered {})", r.attempts);
    }
    DisplayText claim{"-"};
    if (r.claim) {
      const std::int64_t left = std::max<std::int64_t>(r.claim->lease_left_ms, 0) / 1000 * 1000;
      claim = value_line(r.claim->claimed_by) +
              sanitize_line(fmt::format(" ({} left)", mail::format_duration(left)));
    }
    Cells row = {value_line(r.recipient),
                 value_line(r.kind),
                 sanitize_line(format_sent_short(r.delivered_at)),
                 optional_time(r.read_at),
                 optional_time(r.archived_at),
                 sanitize_line(ack)};
    if (requests) {
      row.push_back(r.request_state ? value_line(mail::to_string(*r.request_state)) : DisplayText{"-"});
    }
    row.push_back(DisplayText::format("{}", r.handler_attempts));
    row.push_back(claim);
    row.push_back(optional_time(r.set_aside_at));
    table.rows.push_back(std::move(row));
  }
  return render_cells(table, style);
}

DisplayText render_agents_table(const std::vector<Agent>& agents, UnixMillis now, const Style& style)
{
  CellTable table;
  table.header = headings({"NAME", "UNREAD", "LAST SEEN", "REGISTERED"});
  table.caps = {k_name_cap * 2, 8, 12, 30};
  for (const Agent& a : agents) {
    table.rows.push_back({value_line(a.name), DisplayText::format("{}", a.unread),
                          a.last_seen ? sanitize_line(format_age(*a.last_seen, now)) : DisplayText{"-"},
                          sanitize_line(format_sent_short(a.registered_at))});
  }
  return render_cells(table, style);
}

} // namespace mailroom::render
