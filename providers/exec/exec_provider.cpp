#include "exec/exec_provider.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "exec/facts.hpp"
#include "exec/order.hpp"
#include "exec/script.hpp"
#include "exec/wire.hpp"
#include "mail/audience.hpp"

namespace mailroom::providers::exec {

namespace {

using mail::ChangeOutcome;
using mail::Mailbox;
using mail::Message;
using mail::MessageId;

class ExecProvider final : public mail::Provider {
public:
  ExecProvider(mail::ExecSettings settings, mail::MailPolicy policy, std::string identity, std::string facts_file)
      : m_script(std::move(settings), std::move(identity), std::move(facts_file)), m_policy(std::move(policy))
  {
  }

  mail::Capabilities capabilities() const override
  {
    mail::Capabilities caps;
    caps.unarchive = true; // asked of the script; exit 2 there is unsupported
    return caps;
  }

  // One recipient per call (capabilities().multi_recipient is false): the CLI expands addresses
  // with mail::resolve_audience and sends once per mailbox.
  Result<mail::SendReceipt> send(const mail::SendRequest& request) override
  {
    TRY(mail::check_send(request, m_policy));
    // Addresses arrive as written: @all is unsupported here (no registry), a group expands, and
    // what is left must be exactly one mailbox.
    TRY_ASSIGN(const mail::Audience audience,
               mail::resolve_audience(request.from, request.to, request.cc, nullptr, m_policy));
    if (audience.to.size() != 1 || !audience.cc.empty()) {
      return m_script.unsupported(audience.cc.empty() ? "several recipients in one send" : "--cc");
    }
    TRY(check_extras(request.priority, request.type, request.ack, request.ttl, request.idempotency_key));
    const std::string& to = audience.to.front();
    // gc sends the subject as given: empty when only a body was given (the script derives its own).
    TRY_ASSIGN(mail::Message sent,
               run_message("send", to, request.from, request.subject.value_or(""), request.body));
    mail::SendReceipt receipt;
    receipt.message = std::move(sent);
    receipt.recipients = {to};
    return receipt;
  }

  Result<mail::SendReceipt> reply(const mail::ReplyRequest& request) override
  {
    if (request.reply_all) {
      return m_script.unsupported("reply --all");
    }
    TRY(check_extras(request.priority, request.type.value_or(std::string(mail::k_default_type)), request.ack,
                     request.ttl, request.idempotency_key));
    // Only the sender or a recipient may reply; a script that cannot `get` is trusted, as gc
    // never asks.
    auto original = run_wire("get", request.id);
    if (!original.ok() && original.error().code != ErrorCode::unsupported) {
      return std::move(original).error();
    }
    if (original.ok() && !is_party(original->message, request.from)) {
      return not_party(request.from, request.id);
    }
    const bool recipient = original.ok() && is_recipient(original->message, request.from);
    if (original.ok() && !recipient) {
      // The protocol's reply goes to the original's sender, here the replier herself; a reply to
      // one's own message goes to its recipients (mail::reply_audience), which a script cannot do.
      return m_script.unsupported("a reply to your own message");
    }
    // gc sends the subject as given, empty without -s: the script decides what a reply is called.
    TRY_ASSIGN(mail::Message sent,
               run_message("reply", request.id, request.from, request.subject.value_or(""), request.body));
    if (recipient && original->read != true) {
      // Replying reads the original for the replier (provider.hpp); a script has no transaction
      // to do it in, so it follows the stored reply. Without `get` the replier's delivery is
      // unknown and nothing is marked.
      TRY(m_script.run("mark-read", request.id));
    }
    mail::SendReceipt receipt;
    receipt.recipients = sent.to;
    receipt.message = std::move(sent);
    return receipt;
  }

  Result<mail::ListResult> list(const mail::ListQuery& query) override
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
    sort_inbox(messages);
    mail::ListResult result;
    result.total = static_cast<std::int64_t>(messages.size());
    for (const Message& m : messages) {
      result.unread += m.unread() ? 1 : 0;
    }
    if (query.limit && messages.size() > *query.limit) {
      messages.resize(*query.limit);
    }
    for (Message& m : messages) {
      result.messages.push_back(mail::ListedMessage{std::move(m), std::nullopt});
    }
    return result;
  }

  Result<mail::CheckResult> check(const Mailbox& mailbox, std::size_t limit,
                                  std::optional<std::size_t> /*body_bytes*/) override
  {
    TRY_ASSIGN(std::vector<Message> messages, run_list("check", mailbox, {}, false));
    sort_inbox(messages);
    mail::CheckResult result;
    result.unread = static_cast<std::int64_t>(messages.size());
    if (messages.size() > limit) {
      messages.resize(limit);
    }
    result.messages = std::move(messages);
    return result;
  }

  Result<mail::Counts> count(const Mailbox& mailbox) override
  {
    TRY_ASSIGN(const ScriptOutput out, m_script.run("count", mailbox));
    auto counts = parse_counts(out.text);
    if (!counts.ok()) {
      return m_script.bad_output("count", mailbox, counts.error());
    }
    return *counts;
  }

  Result<Message> get(const Mailbox& viewer, const MessageId& id) override
  {
    TRY_ASSIGN(WireMessage wire, run_wire("get", id));
    return as_seen_by(std::move(wire), viewer, std::nullopt);
  }

  Result<Message> read(const mail::Actor& actor, const MessageId& id, const mail::DeliverFn& deliver) override
  {
    // The protocol's `read` marks before the output is written, so it is only the fallback: `get`,
    // deliver, and mark only once delivery worked (provider.hpp).
    auto got = run_wire("get", id);
    if (!got.ok() && got.error().code == ErrorCode::unsupported) {
      return read_with_protocol_read(actor.mailbox, id, deliver);
    }
    TRY(got);
    // Marked only when the script said it is read; a flag it did not report is unknown.
    const bool known_read = got->read == true;
    Message message = as_seen_by(std::move(got).value(), actor.mailbox, std::nullopt);
    if (!is_party(message, actor.mailbox)) {
      return not_party(actor.mailbox, id);
    }
    TRY(deliver(message));
    if (is_recipient(message, actor.mailbox) && !known_read) {
      TRY(m_script.run("mark-read", id));
    }
    return message;
  }

  // Every state change runs the script's operation: state the script did not report is unknown,
  // so `get` decides only who the recipients are, and what it reported only whether to say
  // `already` (the script's own "already archived" too).
  Result<ChangeOutcome> change(const mail::Actor& actor, const MessageId& id, mail::Change change) override
  {
    std::string_view op;
    switch (change) {
    case mail::Change::mark_read: op = "mark-read"; break;
    case mail::Change::mark_unread: op = "mark-unread"; break;
    case mail::Change::archive: op = "archive"; break;
    case mail::Change::unarchive: op = "unarchive"; break;
    case mail::Change::ack: return m_script.unsupported("ack");
    }
    TRY_ASSIGN(const std::optional<WireMessage> before, check_recipient(actor.mailbox, id));
    TRY_ASSIGN(const ScriptOutput out, m_script.run(op, id));
    if (out.already) {
      return ChangeOutcome::already;
    }
    const auto reported = [&](const std::optional<bool> WireMessage::*flag, bool value) {
      return before && ((*before).*flag) == value;
    };
    switch (change) {
    case mail::Change::mark_read: return reported(&WireMessage::read, true) ? ChangeOutcome::already : ChangeOutcome::changed;
    case mail::Change::mark_unread: return reported(&WireMessage::read, false) ? ChangeOutcome::already : ChangeOutcome::changed;
    case mail::Change::archive: return reported(&WireMessage::archived, true) ? ChangeOutcome::already : ChangeOutcome::changed;
    case mail::Change::unarchive: return reported(&WireMessage::archived, false) ? ChangeOutcome::already : ChangeOutcome::changed;
    case mail::Change::ack: break;
    }
    return ChangeOutcome::changed;
  }

  Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) override
  {
    TRY_ASSIGN(std::vector<Message> unread, run_list("inbox", mailbox, {}, false));
    sort_inbox(unread);
    std::vector<MessageId> changed;
    for (const Message& m : unread) {
      TRY(m_script.run("mark-read", m.id));
      changed.push_back(m.id);
    }
    return changed;
  }

  Result<mail::ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) override
  {
    mail::ThreadResult result;
    result.thread_id = thread_or_message_id;
    TRY_ASSIGN(result.messages, run_list("thread", thread_or_message_id, viewer, std::nullopt));
    if (result.messages.empty()) {
      // Not a thread id the script knows: maybe a message id (gascity#1526).
      auto message = run_wire("get", thread_or_message_id);
      if (!message.ok()) {
        if (message.error().code == ErrorCode::not_found || message.error().code == ErrorCode::unsupported) {
          return make_error(ErrorCode::not_found,
                            fmt::format("thread or message \"{}\" not found", thread_or_message_id));
        }
        return std::move(message).error();
      }
      const std::string thread_id = message->message.thread_id;
      if (!thread_id.empty() && thread_id != thread_or_message_id) {
        result.thread_id = thread_id;
        TRY_ASSIGN(result.messages, run_list("thread", thread_id, viewer, std::nullopt));
      }
      if (result.messages.empty()) {
        result.messages.push_back(as_seen_by(std::move(message).value(), viewer, std::nullopt));
      }
    } else if (!result.messages.front().thread_id.empty()) {
      result.thread_id = result.messages.front().thread_id;
    }
    sort_thread(result.messages);
    return result;
  }

private:
  // What the send JSON cannot carry is refused, never dropped (gc-mail.md §7.5).
  Result<void> check_extras(mail::Priority priority, const std::string& type, bool ack,
                            const std::optional<mail::Millis>& ttl,
                            const std::optional<std::string>& idempotency_key) const
  {
    if (priority != mail::Priority::normal) {
      return m_script.unsupported("--priority");
    }
    if (type != mail::k_default_type) {
      return m_script.unsupported("--type");
    }
    if (ack) {
      return m_script.unsupported("--ack");
    }
    if (ttl) {
      return m_script.unsupported("--ttl");
    }
    if (idempotency_key) {
      return m_script.unsupported("--idempotency-key");
    }
    return {};
  }

  static Error not_party(const Mailbox& viewer, const MessageId& id)
  {
    return make_error(ErrorCode::not_recipient,
                      fmt::format("\"{}\" is neither the sender nor a recipient of message \"{}\"", viewer, id));
  }

  // For a script that cannot `get`: its `read` marks before delivery, so a failed delivery
  // leaves the message read; nothing here can undo that reliably.
  Result<Message> read_with_protocol_read(const Mailbox& viewer, const MessageId& id, const mail::DeliverFn& deliver)
  {
    TRY_ASSIGN(WireMessage wire, run_wire("read", id));
    Message message = as_seen_by(std::move(wire), viewer, std::nullopt);
    if (!is_party(message, viewer)) {
      return not_party(viewer, id);
    }
    TRY(deliver(message));
    return message;
  }

  // A change needs a delivery record (provider.hpp): `get` first and refuse with not_recipient when
  // the script's message names recipients and `mailbox` is not one of them. Returns what `get`
  // said; nullopt when the script cannot answer it, which skips the check, as gc never asks.
  Result<std::optional<WireMessage>> check_recipient(const Mailbox& mailbox, const MessageId& id)
  {
    auto got = run_wire("get", id);
    if (!got.ok()) {
      if (got.error().code == ErrorCode::not_found || got.error().code == ErrorCode::usage) {
        return std::move(got).error();
      }
      return std::optional<WireMessage>();
    }
    const Message& message = got->message;
    if ((!message.to.empty() || !message.cc.empty()) && !is_recipient(message, mailbox)) {
      return make_error(ErrorCode::not_recipient,
                        fmt::format("\"{}\" is not a recipient of message \"{}\"", mailbox, id));
    }
    return std::optional<WireMessage>(std::move(got).value());
  }

  // inbox --all. The protocol's `all` when the script has it; otherwise composed from `count` and
  // `inbox`, which is exact when every open message is unread, and unsupported when some are read
  // (no gc op lists those): never a shorter list passed off as the whole.
  Result<std::vector<Message>> list_all(const Mailbox& mailbox)
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
          "all", read > 0 ? fmt::format("{} of the {} open messages for {} are read, and only \"all\" lists read mail; "
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

  Result<WireMessage> run_wire(std::string_view op, const std::string& arg)
  {
    return parse_one(op, arg, m_script.run(op, arg));
  }

  // send and reply: a fresh message is unread for its recipients.
  Result<Message> run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                              const std::string& subject, const std::string& body)
  {
    TRY_ASSIGN(WireMessage wire, parse_one(op, arg, m_script.run(op, arg, send_json(from, subject, body))));
    return as_seen_by(std::move(wire), from, false);
  }

  Result<WireMessage> parse_one(std::string_view op, const std::string& arg, Result<ScriptOutput> out)
  {
    TRY(out);
    if (out->text.empty()) {
      return make_error(ErrorCode::provider_error,
                        fmt::format("{}: exited 0 without printing a message", m_script.describe(op, arg)));
    }
    auto message = parse_wire_message(out->text);
    if (!message.ok()) {
      return m_script.bad_output(op, arg, message.error());
    }
    return message;
  }

  Result<std::vector<WireMessage>> parse_list(std::string_view op, const std::string& arg, const std::string& text)
  {
    auto parsed = parse_messages(text);
    if (!parsed.ok()) {
      return m_script.bad_output(op, arg, parsed.error());
    }
    return parsed;
  }

  // A list op's messages as `viewer` (default: `arg`, the mailbox listed) sees them; a read flag
  // the script left out is `read_if_unreported` (false for inbox and check: they list unread mail).
  Result<std::vector<Message>> run_list(std::string_view op, const std::string& arg, const Mailbox& viewer,
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

  Script m_script;
  mail::MailPolicy m_policy;
};

} // namespace

Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy, const std::string& identity)
{
  ExecOptions options;
  options.facts_file = default_facts_path(util::ProcessEnvironment());
  return open_exec_provider(settings, policy, identity, options);
}

Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy, const std::string& identity,
                                                           const ExecOptions& options)
{
  if (settings.command.empty()) {
    return make_error(ErrorCode::usage, "the exec provider needs a command after \"exec:\"");
  }
  return std::unique_ptr<mail::Provider>(
      std::make_unique<ExecProvider>(settings, policy, identity, options.facts_file));
}

} // namespace mailroom::providers::exec
