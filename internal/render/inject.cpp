// check --inject rendering (render.hpp): the <system-reminder> block and its Claude hook wrapper.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/utf8.hpp"

namespace mailroom::render {

namespace utf8 = text::utf8;
using text::display_width;
using text::neutralise_reminder_tags;
using text::sanitize_line;
using text::sanitize_text;
using text::truncate_line;

namespace {

constexpr std::size_t k_preview_bytes = 240;
constexpr std::size_t k_scan_bytes = 4096;

bool is_space_or_control(const utf8::Decoded& d)
{
  const char32_t cp = d.code_point;
  return cp <= 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029;
}

bool is_bidi_control(char32_t cp)
{
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// The hook preview: whitespace and control runs become one space, bidi controls vanish, invalid
// bytes become U+FFFD, reminder tags are removed, and the ends are trimmed. Only the first
// k_scan_bytes of input are looked at; `cut` says whether anything was left out.
std::string flatten(std::string_view raw, bool& cut)
{
  const std::size_t scan = utf8::floor_boundary(raw, k_scan_bytes);
  cut = scan < raw.size();
  std::string out;
  bool pending_space = false;
  for (std::size_t pos = 0; pos < scan;) {
    const utf8::Decoded d = utf8::decode(raw, pos);
    pos += d.length;
    if (d.valid && is_space_or_control(d)) {
      pending_space = !out.empty();
      continue;
    }
    if (d.valid && is_bidi_control(d.code_point)) {
      continue;
    }
    if (pending_space) {
      out += ' ';
      pending_space = false;
    }
    if (d.valid) {
      utf8::append(out, d.code_point);
    } else {
      out += "\xEF\xBF\xBD"; // U+FFFD
    }
  }
  return neutralise_reminder_tags(out);
}

std::string trim(std::string text)
{
  const auto first = text.find_first_not_of(' ');
  if (first == std::string::npos) {
    return {};
  }
  const auto last = text.find_last_not_of(' ');
  return text.substr(first, last - first + 1);
}

// `flatten`, then cut at a character boundary so the text fits k_preview_bytes.
std::string preview(std::string_view raw, bool& cut)
{
  std::string text = trim(flatten(raw, cut));
  if (text.size() > k_preview_bytes) {
    text = trim(text.substr(0, utf8::floor_boundary(text, k_preview_bytes)));
    cut = true;
  }
  return text;
}

std::string render_line(const Message& m)
{
  bool subject_cut = false;
  bool body_cut = false;
  const std::string subject = preview(m.subject, subject_cut);
  std::string body = preview(m.body, body_cut);
  // Ids and senders come from the provider (an exec script may print anything), so they are
  // flattened like the text.
  bool ignored = false;
  const std::string id = trim(flatten(m.id, ignored));
  const std::string from = trim(flatten(m.from, ignored));
  if (body.empty()) {
    // A subject-only message shows its subject as the preview, never "[subject]: ".
    return fmt::format("- {} from {}: {}{}", id, from, subject, subject_cut ? " ... [preview truncated]" : "");
  }
  std::string line = fmt::format("- {} from {}", id, from);
  if (!subject.empty() && subject != body) {
    line += fmt::format(" [{}{}]", subject, subject_cut ? " ... [subject truncated]" : "");
  }
  line += fmt::format(": {}{}", body, body_cut ? " ... [preview truncated]" : "");
  return line;
}

} // namespace

std::string render_inject(std::int64_t unread, const std::vector<Message>& messages, std::string_view program)
{
  if (unread <= 0) {
    return {};
  }
  std::string out = "<system-reminder>\n";
  out += fmt::format("You have {} unread message(s).\n\n", unread);
  if (static_cast<std::size_t>(unread) > messages.size()) {
    out += fmt::format("Showing the first {} message(s) here; run '{} inbox' for the full list.\n\n",
                       messages.size(), program);
  }
  for (const Message& m : messages) {
    std::string line = render_line(m);
    if (m.priority == Priority::urgent || m.priority == Priority::high) {
      line.insert(2, fmt::format("[{}] ", mail::to_string(m.priority))); // after "- "
    }
    out += line;
    out += '\n';
  }
  if (!messages.empty()) {
    out += '\n';
  }
  out += fmt::format("Run '{0} read <id>' for full details, or '{0} inbox' to see all.\n", program);
  out += "</system-reminder>\n";
  return out;
}

std::string render_claude_hook(std::string_view text, std::string_view event)
{
  if (text.empty()) {
    return {};
  }
  std::string_view context = text;
  while (!context.empty() && context.back() == '\n') {
    context.remove_suffix(1);
  }
  nlohmann::json doc;
  doc["hookSpecificOutput"]["hookEventName"] = std::string(event);
  doc["hookSpecificOutput"]["additionalContext"] = std::string(context);
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace mailroom::render
