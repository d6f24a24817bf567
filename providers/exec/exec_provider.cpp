#include "exec/exec_provider.hpp"

#include <fmt/format.h>

#include "exec/exec_provider_impl.hpp"
#include "exec/facts.hpp"
#include "exec/order.hpp"
#include "mail/audience.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::exec {

ExecProvider::ExecProvider(mail::ExecSettings settings, mail::MailPolicy policy, std::string identity,
                           std::string facts_file, RegistryLoader registry, const mail::Clock* clock)
    : m_script(settings, std::move(identity), facts_file), m_command(settings.command),
      m_hook_dir(HookCache::dir_beside(facts_file)), m_policy(std::move(policy)),
      m_registry(std::move(registry)), m_clock(clock != nullptr ? clock : &m_system_clock)
{
}

mail::Facets ExecProvider::facets()
{
  mail::Facets facets;
  if (!m_script.lacks_extension("unarchive")) {
    facets.unarchive = this; // asked of the script; exit 2 there is unsupported
  }
  facets.roster = this;
  if (!m_hook_dir.empty()) {
    facets.hook_check = this;
  }
  return facets;
}

Result<mail::SendReceipt> ExecProvider::send(const mail::SendRequest& request)
{
  TRY(mail::check_send(request, m_policy));
  // Addresses arrive as written: a group expands, and what is left must be exactly one mailbox,
  // checked against the configured registry when there is one (contract "Gas City, both ways").
  TRY_ASSIGN(const std::optional<mail::Directory> directory, roster());
  TRY_ASSIGN(const mail::Audience audience,
             mail::resolve_audience(request.from, request.to, request.cc, directory ? &*directory : nullptr,
                                    m_policy));
  if (audience.to.size() != 1 || !audience.cc.empty()) {
    return m_script.unsupported(audience.cc.empty() ? "several recipients in one send" : "--cc");
  }
  TRY(check_extras(request.priority, request.type, request.ack, request.ttl, request.idempotency_key));
  if (request.dedup_key) {
    // The send JSON carries no key, and no op lists a mailbox's copies of a stream (ops::send
    // sends without --dedup, with a warning, before it comes to this).
    return m_script.unsupported(request.key_use == mail::KeyUse::dedup ? "--dedup" : "--supersede");
  }
  const std::string& to = audience.to.front();
  // gc sends the subject as given: empty when only a body was given (the script derives its own).
  TRY_ASSIGN(mail::Message sent,
             run_message("send", to, request.from, request.subject.value_or(""), request.body));
  mail::SendReceipt receipt;
  receipt.message = std::move(sent);
  receipt.recipients = {to};
  return receipt;
}

Result<std::optional<mail::Directory>> ExecProvider::roster()
{
  if (m_roster) {
    return *m_roster; // read once per command: the identity guard and a send both ask
  }
  std::optional<mail::Directory> directory;
  if (m_registry) {
    TRY_ASSIGN(directory, m_registry());
  }
  if (!directory && !m_policy.config_agents.empty()) {
    directory.emplace(); // [agents] names alone
  }
  m_roster = directory;
  return directory;
}

Result<mail::SendReceipt> ExecProvider::reply(const mail::ReplyRequest& request)
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
  if (original.ok() && !is_recipient(original->message, request.from)) {
    // The protocol's reply goes to the original's sender, here the replier herself; a reply to
    // one's own message goes to its recipients (mail::reply_audience), which a script cannot do.
    return m_script.unsupported("a reply to your own message");
  }
  // gc sends the subject as given, empty without -s: the script decides what a reply is called.
  // Nothing follows the stored reply: marking the original read for the replier would be a third
  // script run where gc makes one (docs/exec-protocol.md, "Script runs per command"), and a
  // failure after the reply was stored would invite a retry that sends it twice.
  TRY_ASSIGN(mail::Message sent,
             run_message("reply", request.id, request.from, request.subject.value_or(""), request.body));
  mail::SendReceipt receipt;
  receipt.recipients = sent.to;
  receipt.message = std::move(sent);
  return receipt;
}

Result<Message> ExecProvider::get(const Mailbox& viewer, const MessageId& id)
{
  TRY_ASSIGN(WireMessage wire, run_wire("get", id));
  return as_seen_by(std::move(wire), viewer, std::nullopt);
}

Result<Message> ExecProvider::read(const mail::Actor& actor, const MessageId& id,
                                   const mail::DeliverFn& deliver)
{
  // The protocol's `read` marks before the output is written, so it is only the fallback: `get`,
  // deliver, and mark only once delivery worked (provider.hpp).
  auto got = run_wire("get", id);
  if (!got.ok() && got.error().code == ErrorCode::unsupported) {
    return read_with_protocol_read(actor.mailbox, id, deliver);
  }
  TRY(got);
  return deliver_then_mark(actor, id, std::move(got).value(), deliver);
}

Result<Message> ExecProvider::deliver_then_mark(const mail::Actor& actor, const MessageId& id,
                                                WireMessage got, const mail::DeliverFn& deliver)
{
  // Marked only when the script said it is read; a flag it did not report is unknown.
  const bool known_read = got.read == true;
  Message message = as_seen_by(std::move(got), actor.mailbox, std::nullopt);
  if (!is_party(message, actor.mailbox)) {
    return not_party(actor.mailbox, id);
  }
  TRY(deliver(message));
  if (is_recipient(message, actor.mailbox) && !known_read) {
    TRY(m_script.run("mark-read", id));
    forget_get();
  }
  return message;
}

Result<std::optional<Message>> ExecProvider::take(const mail::Actor& actor, const MessageId& id,
                                                  const mail::DeliverFn& deliver)
{
  // The script protocol has no conditional mark: this is `read`, except that a message the script
  // reports read is not taken. Two takers through one script at once can both get a message
  // (docs/exec-protocol.md). The state is asked afresh, never from an earlier get.
  forget_get();
  auto got = run_wire("get", id);
  if (!got.ok() && got.error().code == ErrorCode::unsupported) {
    TRY_ASSIGN(Message message, read_with_protocol_read(actor.mailbox, id, deliver));
    return std::optional<Message>(std::move(message));
  }
  TRY(got);
  if (!is_recipient(got->message, actor.mailbox)) {
    return not_party(actor.mailbox, id); // only a recipient has a delivery to take
  }
  if (got->read == true) {
    return std::optional<Message>();
  }
  TRY_ASSIGN(Message message, deliver_then_mark(actor, id, std::move(got).value(), deliver));
  if (message.state) {
    message.state->read = true; // as the mailbox sees it after the mark (Provider::take)
  }
  return std::optional<Message>(std::move(message));
}

Result<ChangeOutcome> ExecProvider::change(const mail::Actor& actor, const MessageId& id, mail::Change change)
{
  std::string_view op;
  switch (change) {
  case mail::Change::mark_read:
    op = "mark-read";
    break;
  case mail::Change::mark_unread:
    op = "mark-unread";
    break;
  case mail::Change::archive:
    op = "archive";
    break;
  case mail::Change::unarchive:
    op = "unarchive";
    break;
  case mail::Change::remove:
    op = "delete";
    break;
  case mail::Change::ack:
    return m_script.unsupported("ack");
  }
  TRY_ASSIGN(const std::optional<WireMessage> before, check_recipient(actor.mailbox, id));
  bool archived_instead = false;
  std::optional<ScriptOutput> out;
  if (change == mail::Change::remove) {
    // The script's delete; only a script that has none (exit 2) gets archive, and the caller
    // says so (contract "Gas City, both ways").
    TRY_ASSIGN(out, m_script.run_optional(op, id));
    if (!out) {
      archived_instead = true;
      TRY_ASSIGN(out, m_script.run("archive", id));
    }
  } else {
    TRY_ASSIGN(out, m_script.run(op, id));
  }
  forget_get();
  if (out->already) {
    return ChangeOutcome::already;
  }
  const auto reported = [&](const std::optional<bool> WireMessage::*flag, bool value) {
    return before && ((*before).*flag) == value;
  };
  switch (change) {
  case mail::Change::mark_read:
    return reported(&WireMessage::read, true) ? ChangeOutcome::already : ChangeOutcome::changed;
  case mail::Change::mark_unread:
    return reported(&WireMessage::read, false) ? ChangeOutcome::already : ChangeOutcome::changed;
  case mail::Change::archive:
  case mail::Change::remove:
    if (reported(&WireMessage::archived, true)) {
      return ChangeOutcome::already;
    }
    return archived_instead ? ChangeOutcome::archived_instead : ChangeOutcome::changed;
  case mail::Change::unarchive:
    return reported(&WireMessage::archived, false) ? ChangeOutcome::already : ChangeOutcome::changed;
  case mail::Change::ack:
    break;
  }
  return ChangeOutcome::changed;
}

Result<void> ExecProvider::check_extras(mail::Priority priority, const std::string& type, bool ack,
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

Error ExecProvider::not_party(const Mailbox& viewer, const MessageId& id)
{
  return make_error(ErrorCode::not_recipient,
                    fmt::format("mailbox \"{}\" is not a recipient of {}", viewer, text::cap_for_echo(id)));
}

Result<Message> ExecProvider::read_with_protocol_read(const Mailbox& viewer, const MessageId& id,
                                                      const mail::DeliverFn& deliver)
{
  TRY_ASSIGN(WireMessage wire, run_wire("read", id));
  Message message = as_seen_by(std::move(wire), viewer, std::nullopt);
  if (!is_party(message, viewer)) {
    return not_party(viewer, id);
  }
  TRY(deliver(message));
  return message;
}

Result<std::optional<WireMessage>> ExecProvider::check_recipient(const Mailbox& mailbox, const MessageId& id)
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
    return make_error(ErrorCode::not_recipient, fmt::format("mailbox \"{}\" is not a recipient of {}",
                                                            mailbox, text::cap_for_echo(id)));
  }
  return std::optional<WireMessage>(std::move(got).value());
}

Result<WireMessage> ExecProvider::run_wire(std::string_view op, const std::string& arg)
{
  if (op == "get" && m_last_get && m_last_get->first == arg) {
    return m_last_get->second;
  }
  auto wire = parse_one(op, arg, m_script.run(op, arg));
  forget_get();
  if (op == "get" && wire.ok()) {
    m_last_get.emplace(arg, *wire);
  }
  return wire;
}

void ExecProvider::forget_get()
{
  m_last_get.reset();
}

Result<Message> ExecProvider::run_message(std::string_view op, const std::string& arg, const Mailbox& from,
                                          const std::string& subject, const std::string& body)
{
  forget_get();
  TRY_ASSIGN(WireMessage wire, parse_one(op, arg, m_script.run(op, arg, send_json(from, subject, body))));
  return as_seen_by(std::move(wire), from, false);
}

Result<WireMessage> ExecProvider::parse_one(std::string_view op, const std::string& arg,
                                            Result<ScriptOutput> out)
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

Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy,
                                                           const std::string& identity,
                                                           RegistryLoader registry, const mail::Clock* clock)
{
  ExecOptions options;
  options.facts_file = default_facts_path(util::ProcessEnvironment());
  options.registry = std::move(registry);
  options.clock = clock;
  return open_exec_provider(settings, policy, identity, options);
}

Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy,
                                                           const std::string& identity,
                                                           const ExecOptions& options)
{
  if (settings.command.empty()) {
    return make_error(ErrorCode::usage, "the exec provider needs a command after \"exec:\"");
  }
  return std::unique_ptr<mail::Provider>(std::make_unique<ExecProvider>(
      settings, policy, identity, options.facts_file, options.registry, options.clock));
}

} // namespace mailroom::providers::exec
