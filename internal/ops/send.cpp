#include "send.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/audience.hpp"
#include "mail/compose.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "send_checks.hpp"
#include "send_options.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "types.hpp"
#include "wake.hpp"

namespace mailroom::ops {

namespace {

Result<std::optional<mail::TraceParent>> resolve_trace_parent(Session& session, mail::Provider& provider,
                                                              const std::optional<std::string>& flag)
{
  if (flag) {
    if (auto parent = mail::parse_traceparent(*flag)) {
      return parent;
    }
    auto id = mail::resolve_id(provider, *flag);
    if (!id.ok()) {
      if (id.error().code == ErrorCode::not_found) {
        return usage_error(fmt::format("--trace \"{}\" is neither a traceparent nor a message id",
                                       text::cap_for_echo(*flag)),
                           "give 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>, or a message id");
      }
      return std::move(id).error();
    }
    TRY_ASSIGN(mail::Message message, provider.get(session.me.name, *id));
    return std::optional(mail::TraceParent{message.trace.trace_id, message.trace.span_id, "01"});
  }
  if (const auto env = session.env.get("TRACEPARENT"); env && !env->empty()) {
    if (auto parent = mail::parse_traceparent(*env)) {
      return parent;
    }
    session.tell("invalid_traceparent",
                 fmt::format("ignoring invalid TRACEPARENT \"{}\"", text::cap_for_echo(*env)));
  }
  return std::optional<mail::TraceParent>();
}

// Stores `request`: once, or once per recipient on a store without whole sends.
Result<std::vector<mail::SendReceipt>> send_all(const Session& session, mail::Provider& provider,
                                                const mail::SendRequest& request)
{
  std::vector<mail::SendReceipt> receipts;
  if (provider.facets().whole_sends != nullptr) {
    TRY_ASSIGN(mail::SendReceipt receipt, provider.send(request));
    receipts.push_back(std::move(receipt));
    return receipts;
  }
  TRY_ASSIGN(mail::Audience audience,
             mail::resolve_audience(request.from, request.to, request.cc, nullptr, session.policy));
  if (!audience.cc.empty()) {
    // Copies without the cc mark would silently turn cc into to.
    return make_error(ErrorCode::unsupported, "--cc needs a provider that stores cc recipients",
                      "send the copies with --to, or use the beads provider");
  }
  for (const mail::Mailbox& name : audience.to) {
    mail::SendRequest one = request;
    one.to = {name};
    auto receipt = provider.send(one);
    if (!receipt.ok()) {
      Error error = std::move(receipt).error();
      if (!receipts.empty()) {
        // Earlier copies are stored; say which, so a retry does not duplicate them.
        error.message += fmt::format(" (already sent: {})", text::join(ids_of(receipts), ", "));
      }
      return error;
    }
    receipts.push_back(std::move(receipt).value());
  }
  return receipts;
}

// request.max_reach: how many mailboxes `message` reaches, groups and @all expanded (against the
// registry when the provider has one).
Result<void> check_reach(const Session& session, mail::Provider& provider, const SendRequest& request,
                         const mail::SendRequest& message)
{
  if (!request.max_reach) {
    return {};
  }
  std::optional<mail::Directory> directory;
  if (mail::Registry* registry = provider.facets().registry) {
    TRY_ASSIGN(directory, registry->directory());
  }
  TRY_ASSIGN(const mail::Audience audience,
             mail::resolve_audience(message.from, message.to, message.cc, directory ? &*directory : nullptr,
                                    session.policy));
  const std::size_t reach = audience.to.size() + audience.cc.size();
  if (reach > *request.max_reach) {
    return usage_error(
        fmt::format("this send reaches {} mailboxes; the limit here is {}", reach, *request.max_reach),
        request.reach_hint);
  }
  return {};
}

void push_unique(std::vector<mail::Mailbox>& list, const mail::Mailbox& name)
{
  if (std::find(list.begin(), list.end(), name) == list.end()) {
    list.push_back(name);
  }
}

} // namespace

nlohmann::json warnings_to_json(const std::vector<Notice>& warnings)
{
  nlohmann::json list = nlohmann::json::array();
  for (const Notice& warning : warnings) {
    list.push_back({{"code", warning.code}, {"message", text::json_text(warning.message)}});
  }
  return list;
}

std::vector<mail::MessageId> ids_of(const std::vector<mail::SendReceipt>& receipts)
{
  std::vector<mail::MessageId> ids;
  for (const auto& r : receipts) {
    if (r.stored()) {
      ids.push_back(r.message.id);
    }
  }
  return ids;
}

Result<void> after_store(const std::vector<mail::MessageId>& ids, Result<void> written)
{
  if (!written.ok()) {
    return make_error(ErrorCode::store_error,
                      fmt::format("stored {} but {}", text::join(ids, ", "), written.error().message));
  }
  return {};
}

Result<mail::SendRequest> checked_message(Session& session, const SendRequest& request,
                                          const mail::Mailbox& from)
{
  TRY(refuse_empty_message(request.subject, request.body));
  mail::SendRequest message;
  message.from = from;
  if (request.subject && !request.subject->empty()) {
    message.subject = request.subject; // an empty subject is none: derived from the body
  }
  message.body = request.body;
  TRY_ASSIGN(message.priority, resolve_priority(request.sending));
  message.wake = wake_when(session, request.sending.wake);
  message.type = request.sending.type.value_or(std::string(mail::k_default_type));
  message.ack = request.sending.ack;
  TRY_ASSIGN(message.idempotency_key, resolve_idempotency_key(session, request.sending.idempotency_key));
  if (request.sending.ttl) {
    TRY_ASSIGN(message.ttl, mail::parse_duration(*request.sending.ttl, "--ttl"));
  }
  message.to = request.to;
  message.cc = request.cc;
  if (message.to.empty() && message.cc.empty()) {
    return usage_error("missing recipient", request.usage);
  }
  if (request.dedup && request.supersede) {
    return usage_error("--dedup and --supersede cannot be combined",
                       "--dedup keeps the live copy, --supersede replaces it: choose one");
  }
  message.dedup_key = request.dedup ? request.dedup : request.supersede;
  message.key_use = request.supersede ? mail::KeyUse::supersede : mail::KeyUse::dedup;
  TRY(mail::check_send(message, session.policy)); // caps, shapes and the type before the store opens
  if (auto notice = unknown_type_notice(session.policy, message.type)) {
    session.tell(notice->code, std::move(notice->message));
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  if (request.dedup && provider->facets().whole_sends == nullptr) {
    // A store that cannot tell whether a live copy exists sends, and says so (gc's rule).
    session.tell("dedup_unsupported",
                 fmt::format("this provider cannot tell whether a live copy of \"{}\" exists; sent without "
                             "--dedup",
                             text::cap_for_echo(*request.dedup)));
    message.dedup_key.reset();
  }
  if (request.subject_argument_of && message.subject) {
    TRY(refuse_address_subject(session, *provider, *request.subject_argument_of, *message.subject));
  }
  TRY(check_reach(session, *provider, request, message));
  return message;
}

Result<SendResult> send(Session& session, const SendRequest& request)
{
  TRY_ASSIGN(mail::SendRequest message, checked_message(session, request, session.me.name));
  message.seen_via = session.seen_via();
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(message.parent, resolve_trace_parent(session, *provider, request.trace));
  SendResult result;
  TRY_ASSIGN(result.receipts, send_all(session, *provider, message));
  result.idempotency_key = std::move(message.idempotency_key);
  if (auto notice = unknown_type_notice(session.policy, message.type)) {
    result.warnings.push_back(std::move(*notice));
  }
  return result;
}

nlohmann::json to_json(const SendResult& result)
{
  const auto& receipts = result.receipts;
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  std::vector<std::string> recipients;
  const mail::SendReceipt* first = nullptr;
  nlohmann::json suppressed = nlohmann::json::array();
  nlohmann::json superseded = nlohmann::json::array();
  const auto copies = [](nlohmann::json& into, const std::vector<mail::StreamCopy>& list) {
    for (const mail::StreamCopy& copy : list) {
      into.push_back({{"recipient", copy.recipient}, {"id", copy.id}});
    }
  };
  for (const auto& r : receipts) {
    for (const auto& name : r.recipients) {
      push_unique(recipients, name);
    }
    if (first == nullptr && r.stored()) {
      first = &r;
    }
    copies(suppressed, r.suppressed);
    copies(superseded, r.superseded);
  }
  doc["id"] = first == nullptr ? nlohmann::json(nullptr) : nlohmann::json(first->message.id);
  doc["thread_id"] = first == nullptr ? nlohmann::json(nullptr) : nlohmann::json(first->message.thread_id);
  doc["recipients"] = recipients;
  doc["ids"] = ids_of(receipts);
  doc["replayed"] = first != nullptr && first->replayed;
  doc["suppressed"] = std::move(suppressed);
  doc["superseded"] = std::move(superseded);
  if (!result.warnings.empty()) {
    doc["warnings"] = warnings_to_json(result.warnings);
  }
  return doc;
}

text::DisplayText to_text(const SendResult& result, const render::Style& /*style*/)
{
  text::DisplayText text;
  for (const auto& r : result.receipts) {
    if (r.stored()) {
      const text::DisplayText id = text::sanitize_line(r.message.id);
      const text::DisplayText to = recipients_summary(r.message, r.recipients);
      text += r.replayed
                  ? text::DisplayText::format("Already sent message {} to {} (idempotency key {})\n", id, to,
                                              text::sanitize_line(result.idempotency_key.value_or("")))
                  : text::DisplayText::format("Sent message {} to {}\n", id, to);
    }
    // gc's words for a send that one live copy suppressed; the recipient only when it says more.
    const bool alone = r.recipients.empty() && r.suppressed.size() == 1;
    for (const mail::StreamCopy& copy : r.suppressed) {
      text += alone ? text::DisplayText::format("Suppressed duplicate of {}\n", text::sanitize_line(copy.id))
                    : text::DisplayText::format("Suppressed duplicate of {} for {}\n",
                                                text::sanitize_line(copy.id),
                                                text::sanitize_line(copy.recipient));
    }
    for (const mail::StreamCopy& copy : r.superseded) {
      text += text::DisplayText::format("Superseded {} for {}\n", text::sanitize_line(copy.id),
                                        text::sanitize_line(copy.recipient));
    }
  }
  return text;
}

nlohmann::json send_output_schema()
{
  using namespace schema;
  const nlohmann::json copy = object({{"recipient", string()}, {"id", string()}});
  return document({{"ok", boolean()},
                   {"id", nullable(string())},
                   {"thread_id", nullable(string())},
                   {"recipients", array_of(string())},
                   {"ids", array_of(string())},
                   {"replayed", boolean()},
                   {"suppressed", array_of(copy)},
                   {"superseded", array_of(copy)}},
                  {{"warnings", warnings()}});
}

text::DisplayText recipients_summary(const mail::Message& message,
                                     const std::vector<mail::Mailbox>& recipients)
{
  mail::Message delivered = message;
  delivered.to = recipients; // who it reached: the summary of a group, or these names
  delivered.cc.clear();
  return render::addressees(delivered, recipients.size());
}

} // namespace mailroom::ops
