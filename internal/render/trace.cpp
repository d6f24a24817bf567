#include "render/trace.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "mail/duration.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

namespace {

using text::DisplayText;

constexpr std::size_t k_subject_bytes = 80;

DisplayText names(const std::vector<mail::Mailbox>& list)
{
  std::vector<DisplayText> parts;
  for (const mail::Mailbox& name : list) {
    parts.push_back(text::sanitize(name, text::Sink::terminal_line, text::Limit{}));
  }
  return text::join(parts, ", ");
}

DisplayText line_of(const mail::Message& m, const mail::Message* parent)
{
  DisplayText line = text::sanitize_line(format_rfc3339(m.created_at));
  line += "  ";
  line += text::sanitize(m.from, text::Sink::terminal_line, text::Limit{});
  line += " \xE2\x86\x92 "; // →
  line += names(m.to);
  line += "  ";
  line += text::sanitize(m.type, text::Sink::terminal_line, text::Limit{});
  if (!m.subject.empty()) {
    line += "  ";
    line += text::truncate_line(m.subject, k_subject_bytes);
  }
  if (m.expired) {
    line += " (expired)";
  }
  if (parent != nullptr) {
    line += "  +";
    line += text::sanitize_line(mail::format_duration(std::max<mail::Millis>(m.created_at - parent->created_at, 0)));
  }
  return line;
}

} // namespace

DisplayText render_trace_tree(const std::vector<mail::Message>& input)
{
  std::vector<const mail::Message*> messages;
  for (const mail::Message& m : input) {
    messages.push_back(&m);
  }
  std::stable_sort(messages.begin(), messages.end(),
                   [](const mail::Message* a, const mail::Message* b) { return a->created_at < b->created_at; });
  std::map<std::string, const mail::Message*> by_span;
  for (const mail::Message* m : messages) {
    by_span.emplace(m->trace.span_id, m);
  }
  std::map<const mail::Message*, std::vector<const mail::Message*>> children;
  std::vector<const mail::Message*> roots;
  for (const mail::Message* m : messages) {
    const auto parent = m->trace.parent_span_id ? by_span.find(*m->trace.parent_span_id) : by_span.end();
    if (parent == by_span.end() || parent->second == m) {
      roots.push_back(m);
    } else {
      children[parent->second].push_back(m);
    }
  }
  DisplayText out;
  std::size_t emitted = 0;
  // Depth-first; the count bound stops a cycle of spans (possible only in a corrupt store).
  const std::function<void(const mail::Message*, const mail::Message*, std::size_t)> emit =
      [&](const mail::Message* m, const mail::Message* parent, std::size_t depth) {
        if (emitted++ >= messages.size()) {
          return;
        }
        if (depth > 0) {
          out += text::spaces(3 * (depth - 1));
          out += "\xE2\x94\x94\xE2\x94\x80 "; // └─
        }
        out += line_of(*m, parent);
        out += "\n";
        for (const mail::Message* child : children[m]) {
          emit(child, m, depth + 1);
        }
      };
  for (const mail::Message* root : roots) {
    emit(root, nullptr, 0);
  }
  return out;
}

} // namespace mailroom::render
