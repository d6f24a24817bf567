#include "mail/message.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace mailroom::mail {

namespace {

constexpr std::array<std::string_view, 5> k_priority_names = {"urgent", "high", "normal", "low", "backlog"};

// Largest n <= limit such that s[0, n) ends on a UTF-8 character boundary.
std::size_t utf8_floor(std::string_view s, std::size_t limit)
{
  if (limit >= s.size()) {
    return s.size();
  }
  std::size_t n = limit;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0U) == 0x80U) {
    --n;
  }
  return n;
}

} // namespace

bool inbox_before(const Message& a, const Message& b)
{
  if (a.priority != b.priority) {
    return a.priority < b.priority;
  }
  return a.created_at < b.created_at;
}

void sort_inbox(std::vector<Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), inbox_before);
}

std::size_t preview_length(std::string_view body, std::size_t limit)
{
  if (limit >= body.size()) {
    return body.size();
  }
  // A UTF-8 character is at most 4 bytes: back up over at most 3 continuation bytes, so that a
  // body of stray continuation bytes (not UTF-8 at all) still keeps a preview.
  std::size_t n = limit;
  while (n > 0 && limit - n < 3 && (static_cast<unsigned char>(body[n]) & 0xC0U) == 0x80U) {
    --n;
  }
  return (static_cast<unsigned char>(body[n]) & 0xC0U) == 0x80U ? limit : n;
}

void cut_to_preview(Message& m, std::size_t limit)
{
  if (!m.body_complete || m.body.size() <= limit) {
    return;
  }
  m.cut_body_bytes = m.body.size();
  m.body.resize(preview_length(m.body, limit));
  m.body_complete = false;
}

std::optional<Priority> parse_priority(std::string_view text)
{
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '4') {
    return static_cast<Priority>(text[0] - '0');
  }
  for (std::size_t i = 0; i < k_priority_names.size(); ++i) {
    if (text == k_priority_names[i]) {
      return static_cast<Priority>(i);
    }
  }
  return std::nullopt;
}

std::string_view to_string(Priority priority)
{
  const auto index = static_cast<std::size_t>(priority);
  return index < k_priority_names.size() ? k_priority_names[index] : "normal";
}

bool is_reserved_mailbox(std::string_view name)
{
  return name == k_human || name == k_system_sender;
}

namespace {

constexpr std::array<std::string_view, 5> k_ack_names = {"none", "awaiting_ack", "acked", "escalated",
                                                         "failed"};

} // namespace

std::string_view to_string(AckState state)
{
  return k_ack_names[static_cast<std::size_t>(state)];
}

std::optional<AckState> parse_ack_state(std::string_view text)
{
  for (std::size_t i = 0; i < k_ack_names.size(); ++i) {
    if (text == k_ack_names[i]) {
      return static_cast<AckState>(i);
    }
  }
  return std::nullopt;
}

std::string reply_subject(std::string_view original)
{
  const bool has_re = original.size() >= 3 && std::tolower(static_cast<unsigned char>(original[0])) == 'r' &&
                      std::tolower(static_cast<unsigned char>(original[1])) == 'e' && original[2] == ':';
  if (has_re) {
    return std::string(original);
  }
  return "Re: " + std::string(original);
}

std::string derive_subject(std::string_view body)
{
  const auto newline = body.find('\n');
  std::string_view line = body.substr(0, newline);
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  if (line.size() <= 80) {
    return std::string(line);
  }
  return std::string(line.substr(0, utf8_floor(line, 77))) + "...";
}

} // namespace mailroom::mail
