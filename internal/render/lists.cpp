#include "render/lists.hpp"

#include <fmt/format.h>

#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::render {

namespace {

constexpr std::size_t k_to_bytes = 40;
constexpr std::size_t k_subject_bytes = 60;

} // namespace

std::string summary_text(const mail::DeliverySummary& s)
{
  std::string out = fmt::format("{}/{} read", s.read, s.recipients);
  if (s.acked > 0) {
    out += fmt::format(", {} acked", s.acked);
  }
  if (s.awaiting_ack > 0) {
    out += fmt::format(", {} awaiting ack", s.awaiting_ack);
  }
  if (s.failed > 0) {
    out += fmt::format(", {} failed", s.failed);
  }
  if (s.claimed > 0) {
    out += fmt::format(", {} claimed", s.claimed);
  }
  if (s.handler_failed > 0) {
    out += fmt::format(", {} handler failed", s.handler_failed);
  }
  if (s.set_aside > 0) {
    out += fmt::format(", {} set aside", s.set_aside);
  }
  return out;
}

nlohmann::json summary_to_json(const mail::DeliverySummary& s)
{
  return {{"recipients", s.recipients},
          {"read", s.read},
          {"archived", s.archived},
          {"acked", s.acked},
          {"awaiting_ack", s.awaiting_ack},
          {"failed", s.failed},
          {"claimed", s.claimed},
          {"set_aside", s.set_aside},
          {"handler_failed", s.handler_failed}};
}

text::DisplayText render_sent_table(const std::vector<mail::ListedMessage>& messages, mail::UnixMillis now,
                                    const Style& style)
{
  Table table;
  table.header = {"ID", "TO", "SUBJECT", "RECIPIENTS", "AGE"};
  table.caps = {40, 40, 50, 40, 10};
  table.floors = {20, 4, 8, 10, 8}; // ids stay whole: they are what a person types next
  for (const mail::ListedMessage& listed : messages) {
    const mail::Message& m = listed.message;
    table.rows.push_back({m.id, text::cap_bytes(text::join(m.addressed_to, ", "), k_to_bytes),
                          text::cap_bytes(m.subject, k_subject_bytes),
                          listed.summary ? summary_text(*listed.summary) : std::string("-"),
                          format_age(m.created_at, now)});
  }
  return render_table(table, style);
}

} // namespace mailroom::render
