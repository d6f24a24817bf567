#include "exec/exec_provider.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

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
  ExecProvider(mail::ExecSettings settings, mail::MailPolicy policy, std::string identity)
      : m_script(std::move(settings), std::move(identity)), m_policy(std::move(policy))
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
    // Only the sender or a recipient may reply; a script that cannot `get` is trusted with an
    // explicit subject, as gc never asks.
    auto original = run_wire("get", request.id);
    if (!original.ok() && (original.error().code != ErrorCode::unsupported || !request.subject)) {
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
    const std::string subject =
        request.subject ? *request.subject : mail::reply_subject(original->message.subject);
    TRY_ASSIGN(mail::Message sent, run_message("reply", request.id, request.from, subject, request.body));
    if (recipient && !original->read.value_or(false)) {
      // Replying reads the original for the replier (provider.hpp); a script has no transaction
      // to do it in, so it follows the stored reply.
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
    TRY_ASSIGN(std::vector<Message> messages, run_list(query.include_read ? "all" : "inbox", query.mailbox));
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
    TRY_ASSIGN(std::vector<Message> messages, run_list("check", mailbox));
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
    return as_seen_by(std::move(wire), viewer);
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
    const bool unread_or_unknown = !got->read.value_or(false);
    Message message = as_seen_by(std::move(got).value(), actor.mailbox);
    if (!is_party(message, actor.mailbox)) {
      return not_party(actor.mailbox, id);
    }
    TRY(deliver(message));
    if (is_recipient(message, actor.mailbox) && unread_or_unknown) {
      TRY(m_script.run("mark-read", id));
    }
    return message;
  }

  // Every state change calls the script's operation: state the script did not report is unknown,
  // so nothing is inferred from `get` but who the recipients are.
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
    TRY(check_recipient(actor.mailbox, id));
    TRY_ASSIGN(const ScriptOutput out, m_script.run(op, id));
    return out.already ? ChangeOutcome::already : ChangeOutcome::changed;
  }

  Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) override
  {
    TRY_ASSIGN(const std::vector<Message> unread, run_list("inbox", mailbox));
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
    TRY_ASSIGN(result.messages, run_list("thread", thread_or_message_id, viewer));
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
        TRY_ASSIGN(result.messages, run_list("thread", thread_id, viewer));
      }
      if (result.messages.empty()) {
        result.messages.push_back(as_seen_by(std::move(message).value(), viewer));
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

  // The script's read/archived flags are the recipient's; anyone else sees no state.
  static Message as_seen_by(WireMessage wire, const Mailbox& viewer)
  {
    Message message = std::move(wire.message);
    if (is_recipient(message, viewer)) {
      mail::DeliveryState state;
      state.read = wire.read.value_or(false);
      state.archived = wire.archived.value_or(false);
      message.state = state;
    }
    return message;
  }

  // For a script that cannot `get`: its `read` marks before delivery, so a failed delivery
  // leaves the message read; nothing here can undo that reliably.
  Result<Message> read_with_protocol_read(const Mailbox& viewer, const MessageId& id, const mail::DeliverFn& deliver)
  {
    TRY_ASSIGN(WireMessage wire, run_wire("read", id));
    Message message = as_seen_by(std::move(wire), viewer);
    if (!is_party(message, viewer)) {
      return not_party(viewer, id);
    }
    TRY(deliver(message));
    return message;
  }

  // A change needs a delivery record (provider.hpp): `get` first and refuse with not_recipient when
  // the script's message names recipients and `mailbox` is not one of them. A `get` the script
  // cannot answer skips the check, as gc never asks.
  Result<void> check_recipient(const Mailbox& mailbox, const MessageId& id)
  {
    auto got = run_wire("get", id);
    if (!got.ok()) {
      if (got.error().code == ErrorCode::not_found || got.error().code == ErrorCode::usage) {
        return std::move(got).error();
      }
      return {};
    }
    const Message& message = got->message;
    if ((!message.to.empty() || !message.cc.empty()) && !is_recipient(message, mailbox)) {
      return make_error(ErrorCode::not_recipient,
                        fmt::format("\"{}\" is not a recipient of message \"{}\"", mailbox, id));
    }
    return {};
  }

  Result<WireMessage> run_wire(std::string_view op, const std::string& arg)
  {
    return parse_one(op, arg, m_script.run(op, arg));
  }

  Result<Message> run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                              const std::string& subject, const std::string& body)
  {
    TRY_ASSIGN(WireMessage wire, parse_one(op, arg, m_script.run(op, arg, send_json(from, subject, body))));
    return as_seen_by(std::move(wire), from);
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

  // A list op's messages as `viewer` (default: `arg`, the mailbox listed) sees them.
  Result<std::vector<Message>> run_list(std::string_view op, const std::string& arg, const Mailbox& viewer = {})
  {
    TRY_ASSIGN(const ScriptOutput out, m_script.run(op, arg));
    auto parsed = parse_messages(out.text);
    if (!parsed.ok()) {
      return m_script.bad_output(op, arg, parsed.error());
    }
    std::vector<Message> messages;
    for (WireMessage& wire : *parsed) {
      messages.push_back(as_seen_by(std::move(wire), viewer.empty() ? arg : viewer));
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
  if (settings.command.empty()) {
    return make_error(ErrorCode::usage, "the exec provider needs a command after \"exec:\"");
  }
  return std::unique_ptr<mail::Provider>(std::make_unique<ExecProvider>(settings, policy, identity));
}

} // namespace mailroom::providers::exec
