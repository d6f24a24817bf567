#include "mail/events.hpp"

#include <array>
#include <utility>

namespace mailroom::mail {

namespace {

constexpr std::array<std::pair<EventType, std::string_view>, 12> k_names = {{
    {EventType::sent, "mail.sent"},
    {EventType::read, "mail.read"},
    {EventType::unread, "mail.unread"},
    {EventType::acked, "mail.acked"},
    {EventType::archived, "mail.archived"},
    {EventType::unarchived, "mail.unarchived"},
    {EventType::claimed, "mail.claimed"},
    {EventType::set_aside, "mail.set_aside"},
    {EventType::request_state, "request.state"},
    {EventType::schedule_fired, "schedule.fired"},
    {EventType::schedule_changed, "schedule.changed"},
    {EventType::wake_done, "wake.done"},
}};

} // namespace

std::string_view to_string(EventType type)
{
  for (const auto& [known, name] : k_names) {
    if (known == type) {
      return name;
    }
  }
  return "mail.unknown";
}

std::optional<EventType> parse_event_type(std::string_view name)
{
  for (const auto& [known, text] : k_names) {
    if (text == name) {
      return known;
    }
  }
  return std::nullopt;
}

} // namespace mailroom::mail
