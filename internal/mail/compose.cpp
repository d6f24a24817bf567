#include "mail/compose.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "text/strings.hpp"
#include "util/sha256.hpp"

namespace mailroom::mail {

namespace {

// A usage error (exit 2) about the send's content or flags.
Error send_usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

std::string describe_limit(std::size_t limit)
{
  if (limit % (1024U * 1024U) == 0) {
    return fmt::format("{} bytes ({} MiB)", limit, limit / (1024U * 1024U));
  }
  return fmt::format("{} bytes", limit);
}

Result<void> check_content(const std::optional<std::string>& subject, const std::string& body,
                           const std::optional<std::string>& key, const std::optional<Millis>& ttl)
{
  if (body.size() > k_max_body_bytes) {
    return send_usage(
        fmt::format("body is {} bytes; the limit is {}", body.size(), describe_limit(k_max_body_bytes)));
  }
  if (subject && subject->size() > k_max_subject_bytes) {
    return send_usage(fmt::format("subject is {} bytes; the limit is {}", subject->size(),
                                  describe_limit(k_max_subject_bytes)));
  }
  if (key) {
    if (key->empty()) {
      return send_usage("idempotency key is empty");
    }
    if (key->size() > k_max_idempotency_key_bytes) {
      return send_usage(fmt::format("idempotency key is {} bytes; the limit is {}", key->size(),
                                    describe_limit(k_max_idempotency_key_bytes)));
    }
  }
  if (ttl && *ttl <= 0) {
    return send_usage("--ttl must be longer than 0");
  }
  return {};
}

std::optional<AckState> tracked_state(const MessageType& type, bool ack_flag, const MailPolicy& policy)
{
  if (is_ack_tracked(type, ack_flag, policy.ack)) {
    return AckState::awaiting_ack;
  }
  return std::nullopt;
}

Result<void> check_ack_flag(bool ack_flag, const MailPolicy& policy)
{
  if (ack_flag && policy.ack == AckPolicy::never) {
    return send_usage("--ack is off: [delivery] ack is \"never\" in the config",
                      "set [delivery] ack = \"typed\" to track replies");
  }
  return {};
}

// The parts of a record that sends and replies share.
Composed make_record(const Audience& audience, const MessageType& type, bool ack_flag, std::string subject,
                     const std::string& body, Priority priority, const std::optional<Millis>& ttl,
                     const MailPolicy& policy, const Stamp& stamp)
{
  Composed out;
  Message& m = out.message;
  m.id = new_message_id(policy.id_prefix);
  m.to = audience.to;
  m.cc = audience.cc;
  m.addressed_to = audience.addressed_to;
  m.subject = std::move(subject);
  m.body = body;
  m.created_at = stamp.now;
  m.priority = priority;
  m.type = type.name;
  if (ttl) {
    m.expires_at = stamp.now + *ttl;
  }
  m.sender_uid = stamp.uid;
  m.sender_host = stamp.host;
  const std::optional<AckState> tracked = tracked_state(type, ack_flag, policy);
  for (const auto* list : {&m.to, &m.cc}) {
    for (const Mailbox& recipient : *list) {
      PlannedDelivery delivery;
      delivery.recipient = recipient;
      delivery.kind = list == &m.to ? "to" : "cc";
      if (tracked) {
        delivery.ack_state = *tracked;
        delivery.next_attempt_at = next_attempt_at(stamp.now, 0, policy.redelivery);
      }
      if (type.expects_reply) {
        delivery.request_state = RequestState::submitted;
      }
      out.deliveries.push_back(std::move(delivery));
    }
  }
  return out;
}

// Length-prefixed, so that no two different field lists hash the same bytes.
std::string field_hash(std::string_view field)
{
  return util::to_hex(util::sha256(fmt::format("{}:{}", field.size(), field))).substr(0, 16);
}

std::string sorted_joined(std::vector<std::string> names)
{
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return text::join(names, "\n");
}

} // namespace

Result<void> check_send(const SendRequest& request, const MailPolicy& policy)
{
  TRY(check_content(request.subject, request.body, request.idempotency_key, request.ttl));
  if (request.dedup_key) {
    const std::string_view flag = request.key_use == KeyUse::dedup ? "--dedup" : "--supersede";
    if (request.dedup_key->empty()) {
      return send_usage(fmt::format("{} needs a key", flag));
    }
    if (request.dedup_key->size() > k_max_idempotency_key_bytes) {
      return send_usage(fmt::format("{} key is {} bytes; the limit is {}", flag, request.dedup_key->size(),
                                    describe_limit(k_max_idempotency_key_bytes)));
    }
  }
  const std::size_t addresses = request.to.size() + request.cc.size();
  if (addresses > k_max_recipients) {
    return send_usage(fmt::format("{} recipients; the limit is {}", addresses, k_max_recipients));
  }
  for (const auto* list : {&request.to, &request.cc}) {
    for (const std::string& text : *list) {
      TRY(parse_address(text));
    }
  }
  TRY(policy.types.resolve(request.type));
  return check_ack_flag(request.ack, policy);
}

Result<Composed> compose_send(const SendRequest& request, const Directory& directory,
                              const MailPolicy& policy, const Stamp& stamp)
{
  TRY(check_send(request, policy));
  TRY_ASSIGN(Audience audience, resolve_audience(request.from, request.to, request.cc, &directory, policy));
  TRY_ASSIGN(MessageType type, policy.types.resolve(request.type));
  std::string subject = request.subject ? *request.subject : derive_subject(request.body);
  Composed out = make_record(audience, type, request.ack, std::move(subject), request.body, request.priority,
                             request.ttl, policy, stamp);
  out.message.from = request.from;
  out.message.thread_id = new_thread_id();
  out.message.trace = make_trace(request.parent);
  out.message.schedule = request.schedule;
  out.message.slot = request.slot;
  if (request.ttl && request.ttl_from) {
    out.message.expires_at = *request.ttl_from + *request.ttl;
  }
  out.idempotency_key = request.idempotency_key;
  out.message.dedup_key = request.dedup_key;
  out.key_use = request.key_use;
  out.seen_via = request.seen_via;
  out.plan_wakes = wakes(request.wake, out.message.priority, type.expects_reply);
  // Config agents become real registry entries on the first write; an on-send workspace also
  // registers an unknown sender.
  for (const Mailbox& name : policy.config_agents) {
    if (!sorted_contains(directory.active, name) && !sorted_contains(directory.retired, name)) {
      out.register_names.push_back(name);
    }
  }
  const bool sender_known =
      sorted_contains(directory.active, request.from) || is_reserved_mailbox(request.from);
  if (!sender_known && policy.register_policy == RegisterPolicy::on_send &&
      std::find(out.register_names.begin(), out.register_names.end(), request.from) ==
          out.register_names.end()) {
    out.register_names.push_back(request.from);
  }
  out.fingerprint = fingerprint_of(out);
  return out;
}

Result<Composed> compose_reply(const Message& original, const ReplyRequest& request, const MailPolicy& policy,
                               const Stamp& stamp)
{
  TRY(check_content(request.subject, request.body, request.idempotency_key, request.ttl));
  TRY(check_ack_flag(request.ack, policy));
  if (request.verb) {
    TRY(check_verb(*request.verb, original, request.from));
    if (*request.verb == RequestVerb::ask && text::trim(request.body).empty()) {
      return send_usage("ask needs a question", "usage: mailroom ask <id> <question>");
    }
  } else if (request.type && is_request_notice(*request.type)) {
    const std::optional<RequestVerb> verb = verb_of_notice(*request.type);
    return send_usage(
        fmt::format("a reply of type {} is sent by its own command", *request.type),
        verb ? fmt::format("use: mailroom {} {}", to_string(*verb), original.id)
             : fmt::format("its sender withdraws a request with: mailroom cancel {}", original.id));
  }
  TRY_ASSIGN(Audience audience, reply_audience(original, request.from, request.reply_all, request.confirmed));
  std::string type_name = request.type.value_or("");
  if (request.verb) {
    type_name = std::string(notice_type(*request.verb));
  } else if (!request.type) {
    auto original_type = policy.types.resolve(original.type);
    type_name = original_type.ok() ? original_type->reply_type : std::string(k_default_type);
  }
  TRY_ASSIGN(MessageType type, policy.types.resolve(type_name));
  std::string subject = request.subject ? *request.subject
                        : request.verb  ? notice_subject(type.name, original.subject)
                                        : reply_subject(original.subject);
  Composed out = make_record(audience, type, request.ack, std::move(subject), request.body, request.priority,
                             request.ttl, policy, stamp);
  out.message.from = request.from;
  out.message.thread_id = original.thread_id;
  out.message.reply_to = original.id;
  out.message.trace = make_trace(TraceParent{original.trace.trace_id, original.trace.span_id, "01"});
  out.idempotency_key = request.idempotency_key;
  out.reply_ack = reply_ack(original, request.from);
  out.request_moves = reply_moves(original, request.from, request.verb);
  out.seen_via = request.seen_via;
  out.plan_wakes = wakes(request.wake, out.message.priority, type.expects_reply);
  out.fingerprint = fingerprint_of(out);
  return out;
}

Result<Composed> compose_cancel_notice(const Message& original, const std::vector<Mailbox>& recipients,
                                       const std::string& reason, const MailPolicy& policy,
                                       const Stamp& stamp)
{
  TRY(check_content(std::nullopt, reason, std::nullopt, std::nullopt));
  TRY_ASSIGN(MessageType type, policy.types.resolve(k_canceled_type));
  Audience audience;
  audience.to = recipients;
  audience.addressed_to = recipients;
  Composed out = make_record(audience, type, false, notice_subject(type.name, original.subject), reason,
                             original.priority, std::nullopt, policy, stamp);
  out.message.from = original.from;
  out.message.thread_id = original.thread_id;
  out.message.reply_to = original.id;
  out.message.trace = make_trace(TraceParent{original.trace.trace_id, original.trace.span_id, "01"});
  out.fingerprint = fingerprint_of(out);
  return out;
}

void drop_suppressed(Composed& composed, const std::vector<StreamCopy>& live)
{
  const auto suppressed = [&](const Mailbox& name) {
    return std::any_of(live.begin(), live.end(),
                       [&](const StreamCopy& copy) { return copy.recipient == name; });
  };
  std::erase_if(composed.deliveries, [&](const PlannedDelivery& d) { return suppressed(d.recipient); });
  std::erase_if(composed.message.to, suppressed);
  std::erase_if(composed.message.cc, suppressed);
}

std::string fingerprint_of(const Composed& composed)
{
  const Message& m = composed.message;
  const auto tracked = std::any_of(composed.deliveries.begin(), composed.deliveries.end(),
                                   [](const PlannedDelivery& d) { return d.ack_state != AckState::none; });
  const std::pair<std::string_view, std::string> fields[] = {
      {"from", field_hash(m.from)},
      {"to", field_hash(sorted_joined(m.addressed_to))},
      {"subject", field_hash(m.subject)},
      {"body", field_hash(m.body)},
      {"priority", field_hash(to_string(m.priority))},
      {"type", field_hash(m.type)},
      {"reply_to", field_hash(m.reply_to.value_or(""))},
      {"ack", field_hash(tracked ? "tracked" : "")},
      {"ttl", field_hash(m.expires_at ? std::to_string(*m.expires_at - m.created_at) : "")},
  };
  std::string out = "v2";
  for (const auto& [name, hash] : fields) {
    out += fmt::format(";{}={}", name, hash);
  }
  return out;
}

std::vector<std::string> fingerprint_differences(const std::string& stored, const std::string& fresh)
{
  if (stored == fresh) {
    return {};
  }
  if (!text::starts_with(stored, "v2;") || !text::starts_with(fresh, "v2;")) {
    return {"content"};
  }
  const auto split = [](const std::string& text) {
    std::vector<std::pair<std::string, std::string>> fields;
    std::size_t pos = 3;
    while (pos < text.size()) {
      const std::size_t end = std::min(text.find(';', pos), text.size());
      const std::string field = text.substr(pos, end - pos);
      const std::size_t eq = field.find('=');
      fields.emplace_back(field.substr(0, eq), eq == std::string::npos ? "" : field.substr(eq + 1));
      pos = end + 1;
    }
    return fields;
  };
  const auto a = split(stored);
  const auto b = split(fresh);
  std::vector<std::string> differing;
  for (const auto& [name, hash] : b) {
    const auto match = std::find_if(a.begin(), a.end(), [&](const auto& f) { return f.first == name; });
    if (match == a.end() || match->second != hash) {
      differing.push_back(name);
    }
  }
  if (differing.empty()) {
    differing.emplace_back("content");
  }
  return differing;
}

} // namespace mailroom::mail
