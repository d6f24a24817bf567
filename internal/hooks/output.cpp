#include "hooks/output.hpp"

#include "render/render.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace mailroom::hooks {

namespace {

constexpr text::Literal k_closing = "</system-reminder>\n";
constexpr text::Literal k_cut_line = "[cut to fit the hook's size limit]\n";

// The last resort of bounded_reminder: whole lines while they fit, else a cut between characters
// (text::cut, which never splits an escape the sanitiser wrote).
text::DisplayText cut_block(const text::DisplayText& text, std::size_t max_bytes)
{
  const std::size_t tail = k_cut_line.view().size() + k_closing.view().size() + 1;
  const std::size_t budget = max_bytes > tail ? max_bytes - tail : 0;
  const std::size_t end = text.view().rfind('\n', budget == 0 ? 0 : budget - 1);
  text::DisplayText out;
  if (end == std::string_view::npos || end == 0) {
    out = text::cut(text, budget, "");
    out += "\n";
  } else {
    out = text::cut(text, end + 1, "");
  }
  out += k_cut_line;
  out += k_closing;
  return out;
}

bool needs_quotes(std::string_view word)
{
  return word.empty() || !std::all_of(word.begin(), word.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  std::string_view("_./:@%+=,-").find(c) != std::string_view::npos;
         });
}

// A word for a POSIX shell inside the reminder's '...' quotes, hence double quotes.
std::string shell_word(std::string_view word)
{
  if (!needs_quotes(word)) {
    return std::string(word);
  }
  std::string quoted = "\"";
  for (const char c : word) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') {
      quoted += '\\';
    }
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

bool from_flag(const config::Origin& origin)
{
  return origin.kind == config::Origin::Kind::flag;
}

} // namespace

text::DisplayText bounded_reminder(const render::ReminderHead& head,
                                   const std::vector<mail::Message>& messages, std::string_view program,
                                   std::size_t max_bytes, std::optional<mail::UnixMillis> now)
{
  text::DisplayText text = render::render_inject(head, messages, program, now);
  std::size_t shown = messages.size();
  while (text.size() > max_bytes && shown > 0) {
    // Shrink in proportion to the overshoot, and by at least one message, so this settles in a
    // few renders even for a --limit of thousands.
    shown = std::min(shown - 1, shown * max_bytes / text.size());
    const std::vector<mail::Message> shown_messages(messages.begin(),
                                                    messages.begin() + static_cast<std::ptrdiff_t>(shown));
    text = render::render_inject(head, shown_messages, program, now);
  }
  if (text.size() > max_bytes) {
    text = cut_block(text, max_bytes);
  }
  return text;
}

std::string hook_output(Agent /*agent*/, std::string_view event, std::string_view text)
{
  // The three agents read the same shape today; `agent` is here for the day one of them differs.
  while (!text.empty() && text.back() == '\n') {
    text.remove_suffix(1);
  }
  if (text.empty()) {
    return {};
  }
  nlohmann::ordered_json doc;
  doc["hookSpecificOutput"]["hookEventName"] = std::string(event);
  doc["hookSpecificOutput"]["additionalContext"] = std::string(text);
  return doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string choose_event(Agent agent, const std::optional<std::string>& flag, std::string_view payload_event)
{
  if (flag && !flag->empty()) {
    return *flag;
  }
  if (!payload_event.empty()) {
    return std::string(payload_event);
  }
  return std::string(default_event(agent));
}

std::string reminder_command(const config::Config& config, const config::Identity& me,
                             const mail::Mailbox& mailbox)
{
  std::string command = "mailroom";
  if (from_flag(config.file_origin) && !config.file.empty()) {
    command += " --config " + shell_word(config.file);
  }
  if (from_flag(config.store_path.origin) && !config.store_path.value.empty()) {
    command += " --db " + shell_word(text::redact_conninfo(config.store_path.value)); // never a password
  }
  if (from_flag(me.origin) || mailbox != me.name) {
    command += " --as " + shell_word(mailbox);
  }
  return command;
}

Error hook_error(const Error& error)
{
  const std::string message =
      error.hint.empty() ? error.message : fmt::format("{} ({})", error.message, error.hint);
  Error out = make_error(error.code, text::truncate_line(message, k_max_error_bytes));
  out.transient = error.transient;
  return out;
}

} // namespace mailroom::hooks
