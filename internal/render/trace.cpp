#include "render/trace.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/claims.hpp"
#include "mail/duration.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

namespace {

using text::DisplayText;

constexpr std::size_t k_trace_subject_bytes = 80;
constexpr const char* k_branch = "\xE2\x94\x9C\xE2\x94\x80 "; // ├─
constexpr const char* k_last = "\xE2\x94\x94\xE2\x94\x80 ";   // └─
constexpr const char* k_pipe = "\xE2\x94\x82  ";              // │ and two spaces
constexpr const char* k_blank = "   ";

DisplayText name_of(const mail::Mailbox& name)
{
  return text::sanitize(name, text::Sink::terminal_line, text::Limit{});
}

DisplayText names_line(const std::vector<mail::Mailbox>& list)
{
  std::vector<DisplayText> parts;
  for (const mail::Mailbox& name : list) {
    parts.push_back(name_of(name));
  }
  return text::join(parts, ", ");
}

DisplayText line_of(const mail::Message& m, const mail::Message* parent)
{
  DisplayText line = text::sanitize_line(m.id);
  line += "  ";
  line += text::sanitize_line(format_rfc3339(m.created_at));
  line += "  ";
  line += name_of(m.from);
  line += " \xE2\x86\x92 "; // →
  line += names_line(m.to);
  line += "  ";
  line += text::sanitize(m.type, text::Sink::terminal_line, text::Limit{});
  if (!m.subject.empty()) {
    line += "  ";
    line += text::truncate_line(m.subject, k_trace_subject_bytes);
  }
  if (const auto mark = render::end_mark(m)) {
    line += " ";
    line += text::DisplayText(*mark);
  }
  if (parent != nullptr) {
    line += "  +";
    line += text::sanitize_line(trace_duration(std::max<mail::Millis>(m.created_at - parent->created_at, 0)));
  }
  return line;
}

std::string after(mail::UnixMillis when, mail::UnixMillis sent)
{
  return "+" + trace_duration(std::max<mail::Millis>(when - sent, 0));
}

// "<recipient>: working, read +1.4s, acked +2s, 2 failed handler attempts, set aside" (the
// request state first, for a request).
DisplayText delivery_line(const mail::DeliveryStatus& d, const mail::Message& m)
{
  std::vector<std::string> parts;
  if (d.request_state) {
    parts.emplace_back(mail::to_string(*d.request_state));
  }
  parts.push_back(d.read_at ? "read " + after(*d.read_at, m.created_at) : std::string("unread"));
  if (d.archived_at) {
    parts.emplace_back("archived");
  }
  if (d.ack_state == mail::AckState::acked && d.acked_at) {
    parts.push_back("acked " + after(*d.acked_at, m.created_at));
  } else if (d.ack_state != mail::AckState::none) {
    parts.emplace_back(mail::to_string(d.ack_state));
  }
  if (d.attempts > 0) {
    parts.push_back(fmt::format("redelivered {}", d.attempts));
  }
  const std::int64_t failed = mail::failed_handler_attempts(d);
  if (failed > 0) {
    parts.push_back(fmt::format("{} failed handler attempt{}", failed, failed == 1 ? "" : "s"));
  }
  DisplayText line = name_of(d.recipient);
  line += ": ";
  std::string joined;
  for (const std::string& part : parts) {
    joined += joined.empty() ? part : ", " + part;
  }
  line += text::sanitize_line(joined);
  if (d.claim) {
    line += ", claimed by ";
    line += name_of(d.claim->claimed_by);
  }
  if (d.set_aside_at) {
    line += ", set aside";
  }
  return line;
}

} // namespace

std::string trace_duration(mail::Millis ms)
{
  if (ms < mail::k_second_ms) {
    return fmt::format("{}ms", std::max<mail::Millis>(ms, 0));
  }
  if (ms < mail::k_minute_ms) {
    const mail::Millis tenths = ms / 100;
    return tenths % 10 == 0 ? fmt::format("{}s", tenths / 10)
                            : fmt::format("{}.{}s", tenths / 10, tenths % 10);
  }
  return mail::format_duration(ms / mail::k_second_ms * mail::k_second_ms);
}

DisplayText render_trace_tree(const std::vector<mail::Message>& input, const TraceDeliveries& deliveries)
{
  std::vector<const mail::Message*> messages;
  for (const mail::Message& m : input) {
    messages.push_back(&m);
  }
  std::stable_sort(messages.begin(), messages.end(), [](const mail::Message* a, const mail::Message* b) {
    return a->created_at < b->created_at;
  });
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
  // Depth-first. `lead` is what the ancestors draw to the left; the count bound stops a cycle of
  // spans (possible only in a corrupt store).
  const std::function<void(const mail::Message*, const mail::Message*, const std::string&, bool)> emit =
      [&](const mail::Message* m, const mail::Message* parent, const std::string& lead, bool last) {
        if (emitted++ >= messages.size()) {
          return;
        }
        if (parent != nullptr) {
          out += text::sanitize_line(lead + (last ? k_last : k_branch));
        }
        out += line_of(*m, parent);
        out += "\n";
        const std::string below = parent == nullptr ? lead : lead + (last ? k_blank : k_pipe);
        const auto& kids = children[m];
        const auto found = deliveries.find(m->id);
        if (found != deliveries.end()) {
          for (const mail::DeliveryStatus& d : found->second) {
            out += text::sanitize_line(below + (kids.empty() ? k_blank : k_pipe) + " ");
            out += delivery_line(d, *m);
            out += "\n";
          }
        }
        for (std::size_t i = 0; i < kids.size(); ++i) {
          emit(kids[i], m, below, i + 1 == kids.size());
        }
      };
  for (const mail::Message* root : roots) {
    emit(root, nullptr, "", true);
  }
  return out;
}

} // namespace mailroom::render
