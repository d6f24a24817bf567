// The exec provider's lists, counts and threads (exec_provider_impl.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "exec/exec_provider_impl.hpp"
#include "exec/order.hpp"
#include "mail/hook_order.hpp"

namespace mailroom::providers::exec {

Result<mail::ListResult> ExecProvider::list(const mail::ListQuery& query)
{
  if (query.box != mail::Box::inbox || query.filters.any()) {
    return m_script.unsupported(query.box == mail::Box::inbox ? "list filters" : "sent and search");
  }
  std::vector<Message> messages;
  if (query.include_read) {
    TRY_ASSIGN(messages, list_all(query.mailbox));
  } else {
    TRY_ASSIGN(messages, run_list("inbox", query.mailbox, {}, false));
  }
  mail::sort_inbox(messages);
  mail::ListResult result;
  result.total = static_cast<std::int64_t>(messages.size());
  for (const Message& m : messages) {
    result.unread += m.unread() ? 1 : 0;
  }
  if (query.limit && messages.size() > *query.limit) {
    messages.resize(*query.limit);
  }
  for (Message& m : messages) {
    if (query.body_bytes) {
      // The script gives whole bodies; a list that asked for previews gets them cut here.
      mail::cut_to_preview(m, *query.body_bytes);
    }
    result.messages.push_back(mail::ListedMessage{std::move(m), std::nullopt});
  }
  return result;
}

Result<mail::CheckResult> ExecProvider::check(const Mailbox& mailbox, std::size_t limit,
                                              std::optional<std::size_t> body_bytes)
{
  TRY_ASSIGN(const ScriptOutput out, m_script.run("check", mailbox));
  return check_from_output(mailbox, out.text, limit, body_bytes);
}

Result<mail::CheckResult> ExecProvider::check_from_output(const Mailbox& mailbox, const std::string& text,
                                                          std::size_t limit,
                                                          std::optional<std::size_t> body_bytes)
{
  TRY_ASSIGN(std::vector<WireMessage> parsed, parse_list("check", mailbox, text));
  std::vector<Message> messages;
  for (WireMessage& wire : parsed) {
    messages.push_back(as_seen_by(std::move(wire), mailbox, false)); // check lists unread mail
  }
  // The hook's order and counts (mail/hook_order.hpp), decided on the whole unread list.
  mail::sort_for_hook(messages);
  mail::CheckResult result;
  mail::count_hook_classes(messages, result);
  if (messages.size() > limit) {
    messages.resize(limit);
  }
  if (body_bytes) {
    // The script gives whole bodies (it has no preview): previews are cut from them here.
    for (Message& m : messages) {
      mail::cut_to_preview(m, *body_bytes);
    }
  }
  result.messages = std::move(messages);
  return result;
}

Result<mail::Counts> ExecProvider::count(const Mailbox& mailbox)
{
  TRY_ASSIGN(const ScriptOutput out, m_script.run("count", mailbox));
  auto counts = parse_counts(out.text);
  if (!counts.ok()) {
    return m_script.bad_output("count", mailbox, counts.error());
  }
  return *counts;
}

Result<std::vector<MessageId>> ExecProvider::mark_all_read(const Mailbox& mailbox)
{
  TRY_ASSIGN(std::vector<Message> unread, run_list("inbox", mailbox, {}, false));
  mail::sort_inbox(unread);
  std::vector<MessageId> changed;
  for (const Message& m : unread) {
    forget_get();
    TRY(m_script.run("mark-read", m.id));
    changed.push_back(m.id);
  }
  return changed;
}

Result<mail::ThreadResult> ExecProvider::thread(const Mailbox& viewer,
                                                const std::string& thread_or_message_id)
{
  // At most one run more than gc's one `thread` (docs/exec-protocol.md): an id shaped like gc's
  // thread ids is asked of `thread` alone; any other id is first asked of `get`, and a message
  // found there names its thread (gascity#1526). A script whose `get` fails another way is not
  // trusted to have said "no such message": `thread` decides.
  mail::ThreadResult result;
  result.thread_id = thread_or_message_id;
  std::optional<WireMessage> found;
  bool no_such_message = false;
  if (!thread_or_message_id.starts_with(k_gc_thread_prefix)) {
    auto message = run_wire("get", thread_or_message_id);
    if (message.ok()) {
      found = std::move(message).value();
      if (!found->message.thread_id.empty()) {
        result.thread_id = found->message.thread_id;
      }
    } else if (message.error().code == ErrorCode::timeout) {
      return std::move(message).error();
    } else {
      no_such_message = message.error().code == ErrorCode::not_found;
    }
  }
  auto listed = run_list("thread", result.thread_id, viewer, std::nullopt);
  if (!listed.ok() && no_such_message) {
    // Neither a message (get said so) nor a thread the script can list.
    return make_error(ErrorCode::not_found,
                      fmt::format("thread or message \"{}\" not found", thread_or_message_id));
  }
  TRY_ASSIGN(result.messages, std::move(listed));
  if (result.messages.empty() && found) {
    result.messages.push_back(as_seen_by(std::move(*found), viewer, std::nullopt));
  }
  if (result.messages.empty()) {
    return make_error(ErrorCode::not_found,
                      fmt::format("thread or message \"{}\" not found", thread_or_message_id));
  }
  if (!result.messages.front().thread_id.empty()) {
    result.thread_id = result.messages.front().thread_id;
  }
  sort_thread(result.messages);
  return result;
}

Result<std::vector<Message>> ExecProvider::list_all(const Mailbox& mailbox)
{
  TRY_ASSIGN(std::optional<ScriptOutput> out, m_script.run_optional("all", mailbox));
  if (!out) {
    TRY_ASSIGN(const mail::Counts counts, count(mailbox));
    TRY_ASSIGN(std::vector<Message> unread, run_list("inbox", mailbox, {}, false));
    if (counts.total == counts.unread && static_cast<std::int64_t>(unread.size()) >= counts.total) {
      return unread;
    }
    const std::int64_t read = counts.total - counts.unread;
    return m_script.unsupported(
        "all", read > 0 ? fmt::format(
                              "{} of the {} open messages for {} are read, and only \"all\" lists read mail; "
                              "\"inbox\" lists the unread ones",
                              read, counts.total, mailbox)
                        : fmt::format("\"count\" and \"inbox\" disagree for {}", mailbox));
  }
  TRY_ASSIGN(std::vector<WireMessage> wires, parse_list("all", mailbox, out->text));
  // A read flag the script left out is learned from `inbox` (unread there, read otherwise).
  std::optional<std::vector<Message>> unread;
  std::vector<Message> messages;
  for (WireMessage& wire : wires) {
    if (!wire.read) {
      if (!unread) {
        TRY_ASSIGN(unread, run_list("inbox", mailbox, {}, false));
      }
      const std::string& id = wire.message.id;
      wire.read = std::none_of(unread->begin(), unread->end(), [&](const Message& m) { return m.id == id; });
    }
    messages.push_back(as_seen_by(std::move(wire), mailbox, std::nullopt));
  }
  return messages;
}

Result<std::vector<WireMessage>> ExecProvider::parse_list(std::string_view op, const std::string& arg,
                                                          const std::string& text)
{
  auto parsed = parse_messages(text);
  if (!parsed.ok()) {
    return m_script.bad_output(op, arg, parsed.error());
  }
  return parsed;
}

Result<std::vector<Message>> ExecProvider::run_list(std::string_view op, const std::string& arg,
                                                    const Mailbox& viewer,
                                                    std::optional<bool> read_if_unreported)
{
  TRY_ASSIGN(const ScriptOutput out, m_script.run(op, arg));
  TRY_ASSIGN(std::vector<WireMessage> parsed, parse_list(op, arg, out.text));
  std::vector<Message> messages;
  for (WireMessage& wire : parsed) {
    messages.push_back(as_seen_by(std::move(wire), viewer.empty() ? arg : viewer, read_if_unreported));
  }
  return messages;
}

} // namespace mailroom::providers::exec
