// check --inject rendering (render.hpp): the <system-reminder> block and its Claude hook wrapper.
// The messages come in the hook's order (mail/hook_order.hpp); ReminderHead's `urgent` and
// `awaiting` are its first two classes (mail::count_hook_classes), counted in that order ("1
// urgent; 2 requests await your reply; 4 more"). A message that awaits the mailbox's reply is
// marked after its priority ("- [urgent] [reply expected] <id> ..."), and the block's last line
// names mail::message_to_answer's id: "To answer, run 'mailroom reply <id> <your reply>'.".

#include <algorithm>

#include <nlohmann/json.hpp>

#include "mail/hook_order.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/utf8.hpp"

namespace mailroom::render {

namespace utf8 = text::utf8;
using text::Sink;

namespace {

constexpr std::size_t k_preview_bytes = 240;
// Only this much of a subject or body is looked at; the rest could not be shown anyway.
constexpr std::size_t k_scan_bytes = 4096;

struct Preview {
  DisplayText text;
  bool cut = false; // something of the raw text is not shown
};

// One hook line of at most k_preview_bytes: Sink::hook, trimmed, cut without a marker (the
// caller says "[preview truncated]"). `complete` is false when `raw` is the store's preview of a
// longer text: that is cut too, however short the line it makes (every byte counts, newlines too).
Preview preview(std::string_view raw, bool complete = true)
{
  const std::size_t scan = utf8::floor_boundary(raw, k_scan_bytes);
  DisplayText text = text::preview_line(raw.substr(0, scan), Sink::hook, k_preview_bytes, "");
  return {text, !complete || scan < raw.size() || text.truncated()};
}

// An id or a sender: they come from the provider (an exec script may print anything), so they
// pass the same gate, capped like any echoed value.
DisplayText hook_value(std::string_view raw)
{
  return text::trim(text::sanitize(raw, Sink::hook, text::Limit{}));
}

DisplayText render_line(const Message& m, std::optional<UnixMillis> now)
{
  const Preview subject = preview(m.subject);
  const Preview body = preview(m.body, m.body_complete);
  const DisplayText id = hook_value(m.id);
  const DisplayText from = hook_value(m.from);
  const DisplayText subject_cut = subject.cut ? DisplayText{" ... [subject truncated]"} : DisplayText();
  const DisplayText preview_cut{" ... [preview truncated]"};
  // Urgent and high mail says so at the start of its line, and so does mail that awaits the
  // mailbox's reply (mail/hook_order.hpp): "[urgent] [reply expected] ".
  DisplayText mark;
  if (m.priority == Priority::urgent) {
    mark = DisplayText{"[urgent] "};
  } else if (m.priority == Priority::high) {
    mark = DisplayText{"[high] "};
  }
  if (mail::awaits_reply(m)) {
    mark += "[reply expected] ";
  }
  // A redelivered message says so, so an agent never takes an old instruction for a fresh one.
  const std::string note = now ? redelivery_note(m, *now) : std::string();
  const DisplayText from_part =
      note.empty() ? from : DisplayText::format("{} ({})", from, text::sanitize_line(note));
  DisplayText line;
  if (body.text.empty()) {
    // A subject-only message shows its subject as the preview, never "[subject]: ".
    line = DisplayText::format("- {}{} from {}: {}", mark, id, from_part, subject.text);
    if (subject.cut || body.cut) {
      line += preview_cut;
    }
  } else {
    line = DisplayText::format("- {}{} from {}", mark, id, from_part);
    if (!subject.text.empty() && subject.text.view() != body.text.view()) {
      line += DisplayText::format(" [{}{}]", subject.text, subject_cut);
    }
    line += DisplayText::format(": {}", body.text);
    if (body.cut) {
      line += preview_cut;
    }
  }
  // Each part is already tag-free; this keeps the line so even where two parts meet.
  return text::neutralise_reminder_tags(line);
}

// "1 urgent; 2 requests await your reply; 4 more\n" (the hook's classes in its order), or nothing
// when neither of the first two classes has mail.
DisplayText class_line(const ReminderHead& head)
{
  if (head.awaiting <= 0 && head.urgent <= 0) {
    return {};
  }
  DisplayText out;
  auto part = [&out](const DisplayText& text) {
    if (!out.empty()) {
      out += "; ";
    }
    out += text;
  };
  if (head.urgent > 0) {
    part(DisplayText::format("{} urgent", head.urgent));
  }
  if (head.awaiting == 1) {
    part(DisplayText{"1 request awaits your reply"});
  } else if (head.awaiting > 1) {
    part(DisplayText::format("{} requests await your reply", head.awaiting));
  }
  const std::int64_t more =
      head.unread - std::max<std::int64_t>(head.awaiting, 0) - std::max<std::int64_t>(head.urgent, 0);
  if (more > 0) {
    part(DisplayText::format("{} more", more));
  }
  out += "\n";
  return out;
}

} // namespace

DisplayText age_words(std::int64_t age_ms)
{
  const std::int64_t seconds = std::max<std::int64_t>(age_ms, 0) / 1000;
  if (seconds < 120) {
    return DisplayText::format("{} s", seconds);
  }
  if (seconds < 120 * 60) {
    return DisplayText::format("{} min", seconds / 60);
  }
  if (seconds < 48 * 3600) {
    return DisplayText::format("{} h", seconds / 3600);
  }
  return DisplayText::format("{} d", seconds / 86400);
}

DisplayText render_inject(const ReminderHead& head, const std::vector<Message>& messages,
                          std::string_view program, std::optional<UnixMillis> now)
{
  const std::int64_t unread = head.unread;
  if (unread <= 0) {
    return {};
  }
  const DisplayText name = hook_value(program);
  DisplayText out{"<system-reminder>\n"};
  out += DisplayText::format("You have {} unread message(s).\n", unread);
  if (!head.mailbox.empty()) {
    out += DisplayText::format("For mailbox {}:\n", hook_value(head.mailbox));
  }
  if (head.age_ms) {
    out += DisplayText::format("(as of {} ago)\n", age_words(*head.age_ms));
  }
  out += class_line(head);
  out += "\n";
  if (static_cast<std::size_t>(unread) > messages.size()) {
    out += DisplayText::format("Showing the first {} message(s) here; run '{} inbox' for the full list.\n\n",
                               messages.size(), name);
  }
  for (const Message& m : messages) {
    out += render_line(m, now);
    out += "\n";
  }
  if (!messages.empty()) {
    out += "\n";
  }
  out += DisplayText::format("Run '{0} read <id>' for full details, or '{0} inbox' to see all.\n", name);
  if (const Message* answer = mail::message_to_answer(messages)) {
    out += DisplayText::format("To answer, run '{} reply {} <your reply>'.\n", name, hook_value(answer->id));
  }
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
  doc["hookSpecificOutput"]["hookEventName"] = text::json_text(text::cap_bytes(event));
  doc["hookSpecificOutput"]["additionalContext"] = text::json_text(context);
  return dump_json(doc);
}

} // namespace mailroom::render
