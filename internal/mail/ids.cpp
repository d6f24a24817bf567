#include "mail/ids.hpp"

#include <fmt/format.h>

#include "text/strings.hpp"
#include "util/random.hpp"

namespace mailroom::mail {

namespace {

std::string random_hex(std::size_t digits)
{
  while (true) {
    std::string hex = text::to_hex(util::random_bytes((digits + 1) / 2)).substr(0, digits);
    if (hex.find_first_not_of('0') != std::string::npos) {
      return hex;
    }
  }
}

bool is_lower_hex(std::string_view text)
{
  return !text.empty() && text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool is_id_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

} // namespace

bool is_valid_id(std::string_view id)
{
  if (id.empty() || id.size() > k_max_id_bytes || id.front() == '-' || id.front() == '.' ||
      id.front() == '_') {
    return false;
  }
  for (const char c : id) {
    if (!is_id_char(c)) {
      return false;
    }
  }
  return true;
}

MessageId new_message_id(std::string_view prefix)
{
  return fmt::format("{}-{}", prefix, random_hex(k_message_id_hex));
}

ThreadId new_thread_id()
{
  return "thread-" + random_hex(12);
}

std::string new_trace_id()
{
  return random_hex(32);
}

std::string new_span_id()
{
  return random_hex(16);
}

IdPattern parse_id_pattern(std::string_view typed)
{
  IdPattern pattern;
  pattern.exact = std::string(typed);
  const auto dash = typed.find('-');
  pattern.tail = std::string(dash == std::string_view::npos ? typed : typed.substr(dash + 1));
  pattern.may_be_prefix = pattern.tail.size() >= k_min_id_prefix && is_lower_hex(pattern.tail);
  return pattern;
}

std::optional<TraceParent> parse_traceparent(std::string_view text)
{
  // 2 + 1 + 32 + 1 + 16 + 1 + 2
  if (text.size() != 55 || text[2] != '-' || text[35] != '-' || text[52] != '-') {
    return std::nullopt;
  }
  const std::string_view version = text.substr(0, 2);
  TraceParent parent;
  parent.trace_id = std::string(text.substr(3, 32));
  parent.span_id = std::string(text.substr(36, 16));
  parent.flags = std::string(text.substr(53, 2));
  if (!is_lower_hex(version) || version == "ff" || !is_lower_hex(parent.trace_id) ||
      !is_lower_hex(parent.span_id) || !is_lower_hex(parent.flags) ||
      parent.trace_id.find_first_not_of('0') == std::string::npos ||
      parent.span_id.find_first_not_of('0') == std::string::npos) {
    return std::nullopt;
  }
  return parent;
}

std::string format_traceparent(const Trace& trace)
{
  return fmt::format("00-{}-{}-01", trace.trace_id, trace.span_id);
}

Trace make_trace(const std::optional<TraceParent>& parent)
{
  Trace trace;
  trace.span_id = new_span_id();
  if (parent) {
    trace.trace_id = parent->trace_id;
    trace.parent_span_id = parent->span_id;
  } else {
    trace.trace_id = new_trace_id();
  }
  return trace;
}

} // namespace mailroom::mail
