#include "render/transfer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mail/delivery_fields.hpp"
#include "mail/duration.hpp"
#include "mail/message_fields.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "render/transfer_fields.hpp"
#include "text/base64.hpp"
#include "text/strings.hpp"

namespace mailroom::render {

namespace {

using Json = nlohmann::ordered_json;
using Fields = detail::RecordFields;
using detail::names;
using detail::put_optional_text;
using detail::put_text;
using detail::time_value;

// --- encoding ---------------------------------------------------------------------------------

Json encode(const mail::MailboxRecord& r)
{
  Json j;
  j["kind"] = "mailbox";
  j["name"] = r.name;
  j["registered_at"] = format_rfc3339(r.registered_at);
  j["retired_at"] = time_value(r.retired_at);
  j["last_seen"] = time_value(r.last_seen);
  return j;
}

Json encode(const mail::MessageRecord& r)
{
  Json j;
  j["kind"] = "message";
  // Every stored field, in table order (mail/message_fields.hpp).
  mail::for_each_message_field(
      [&](auto kind, const mail::MessageField& field, const auto& value) {
        constexpr mail::FieldKind k = decltype(kind)::value;
        const std::string key(field.key);
        if constexpr (k == mail::FieldKind::text || k == mail::FieldKind::body) {
          put_text(j, key, value);
        } else if constexpr (k == mail::FieldKind::name || k == mail::FieldKind::hex ||
                             k == mail::FieldKind::integer) {
          j[key] = value;
        } else if constexpr (k == mail::FieldKind::optional_text) {
          put_optional_text(j, key, value);
        } else if constexpr (k == mail::FieldKind::optional_hex) {
          j[key] = value ? Json(*value) : Json(nullptr);
        } else if constexpr (k == mail::FieldKind::names) {
          j[key] = names(value);
        } else if constexpr (k == mail::FieldKind::millis) {
          j[key] = format_rfc3339(value);
        } else if constexpr (k == mail::FieldKind::optional_millis) {
          j[key] = time_value(value);
        } else if constexpr (k == mail::FieldKind::priority) {
          j[key] = static_cast<int>(value);
        } else {
          static_assert(mail::k_unhandled_field_kind<k>);
        }
      },
      r.message);
  // A schedule's message: its schedule and slot (kept beside the message, mail/message_fields.hpp).
  if (r.message.schedule && r.message.slot) {
    j["schedule"] = *r.message.schedule;
    j["slot"] = format_rfc3339(*r.message.slot);
  }
  return j;
}

Json encode(const mail::DeliveryRecord& r)
{
  Json j;
  j["kind"] = "delivery";
  put_text(j, "message", r.message);
  // Every stored field, in table order (mail/delivery_fields.hpp), as stored.
  mail::for_each_delivery_field(
      [&](auto kind, const mail::DeliveryField& field, const auto& value) {
        constexpr mail::DeliveryFieldKind k = decltype(kind)::value;
        const std::string key(field.export_key);
        if constexpr (k == mail::DeliveryFieldKind::name || k == mail::DeliveryFieldKind::text ||
                      k == mail::DeliveryFieldKind::integer) {
          j[key] = value;
        } else if constexpr (k == mail::DeliveryFieldKind::millis) {
          j[key] = format_rfc3339(value);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_millis) {
          j[key] = time_value(value);
        } else if constexpr (k == mail::DeliveryFieldKind::optional_name) {
          j[key] = value ? Json(*value) : Json(nullptr);
        } else if constexpr (k == mail::DeliveryFieldKind::ack_state) {
          j[key] = std::string(mail::to_string(value));
        } else if constexpr (k == mail::DeliveryFieldKind::request_state) {
          j[key] = value ? Json(mail::to_string(*value)) : Json(nullptr);
        } else {
          static_assert(mail::k_unhandled_delivery_field_kind<k>);
        }
      },
      r.status);
  return j;
}

Json encode(const mail::KeyRecord& r)
{
  Json j;
  j["kind"] = "idempotency_key";
  j["sender"] = r.sender;
  put_text(j, "key", r.key);
  put_text(j, "fingerprint", r.fingerprint);
  put_optional_text(j, "message", r.message);
  j["created_at"] = format_rfc3339(r.created_at);
  return j;
}

// --- decoding ---------------------------------------------------------------------------------

Result<mail::Record> decode_mailbox(const Fields& f)
{
  mail::MailboxRecord r;
  TRY_ASSIGN(r.name, f.text("name"));
  TRY_ASSIGN(r.registered_at, f.time("registered_at"));
  TRY_ASSIGN(r.retired_at, f.optional_time("retired_at"));
  TRY_ASSIGN(r.last_seen, f.optional_time("last_seen"));
  return mail::Record(std::move(r));
}

Result<mail::Record> decode_message(const Fields& f)
{
  mail::MessageRecord r;
  // Every stored field, in table order: the first one missing or wrong is the error.
  Result<void> read;
  mail::for_each_message_field(
      [&](auto kind, const mail::MessageField& field, auto& value) {
        constexpr mail::FieldKind k = decltype(kind)::value;
        if (!read.ok()) {
          return;
        }
        read = [&]() -> Result<void> {
          const std::string key(field.key);
          if constexpr (k == mail::FieldKind::text || k == mail::FieldKind::name ||
                        k == mail::FieldKind::hex || k == mail::FieldKind::body) {
            TRY_ASSIGN(value, f.text(key));
          } else if constexpr (k == mail::FieldKind::optional_text || k == mail::FieldKind::optional_hex) {
            TRY_ASSIGN(value, f.optional_text(key));
          } else if constexpr (k == mail::FieldKind::names) {
            TRY_ASSIGN(value, f.names(key));
          } else if constexpr (k == mail::FieldKind::millis) {
            TRY_ASSIGN(value, f.time(key));
          } else if constexpr (k == mail::FieldKind::optional_millis) {
            TRY_ASSIGN(value, f.optional_time(key));
          } else if constexpr (k == mail::FieldKind::integer) {
            TRY_ASSIGN(value, f.integer(key));
          } else if constexpr (k == mail::FieldKind::priority) {
            TRY_ASSIGN(const std::int64_t priority, f.integer(key));
            if (priority < 0 || priority > 4) {
              return f.wrong(key, "0 to 4");
            }
            value = static_cast<mail::Priority>(priority);
          } else {
            static_assert(mail::k_unhandled_field_kind<k>);
          }
          return {};
        }();
      },
      r.message);
  TRY(std::move(read));
  TRY_ASSIGN(r.message.schedule, f.optional_text("schedule"));
  TRY_ASSIGN(r.message.slot, f.optional_time("slot"));
  if (r.message.schedule.has_value() != r.message.slot.has_value()) {
    return f.wrong("schedule", "given with its slot");
  }
  return mail::Record(std::move(r));
}

Result<mail::Record> decode_delivery(const Fields& f)
{
  mail::DeliveryRecord r;
  TRY_ASSIGN(r.message, f.text("message"));
  // Every stored field, in table order (mail/delivery_fields.hpp): the first one missing or wrong
  // is the error. The life of a request's fields are absent from exports older than it (no request
  // state kept, and the message's expiry).
  Result<void> read;
  mail::for_each_delivery_field(
      [&](auto kind, const mail::DeliveryField& field, auto& value) {
        constexpr mail::DeliveryFieldKind k = decltype(kind)::value;
        if (!read.ok()) {
          return;
        }
        read = [&]() -> Result<void> {
          const std::string key(field.export_key);
          if constexpr (k == mail::DeliveryFieldKind::name || k == mail::DeliveryFieldKind::text) {
            TRY_ASSIGN(value, f.text(key));
          } else if constexpr (k == mail::DeliveryFieldKind::millis) {
            TRY_ASSIGN(value, f.time(key));
          } else if constexpr (k == mail::DeliveryFieldKind::optional_millis) {
            TRY_ASSIGN(value, f.optional_time(key));
          } else if constexpr (k == mail::DeliveryFieldKind::optional_name) {
            TRY_ASSIGN(value, f.optional_text(key));
          } else if constexpr (k == mail::DeliveryFieldKind::integer) {
            TRY_ASSIGN(value, f.integer(key));
          } else if constexpr (k == mail::DeliveryFieldKind::ack_state) {
            TRY_ASSIGN(const std::string state, f.text(key));
            const auto ack = mail::parse_ack_state(state);
            if (!ack) {
              return f.wrong(key, "none, awaiting_ack, acked or escalated");
            }
            value = *ack;
          } else if constexpr (k == mail::DeliveryFieldKind::request_state) {
            TRY_ASSIGN(const std::optional<std::string> request, f.optional_text(key));
            if (request) {
              value = mail::parse_request_state(*request);
              if (!value) {
                return f.wrong(key, "submitted, working, input_required, completed, failed, rejected or "
                                    "canceled");
              }
            }
          } else {
            static_assert(mail::k_unhandled_delivery_field_kind<k>);
          }
          return {};
        }();
      },
      r.status);
  TRY(std::move(read));
  r.own_expiry = f.has("expires_at");
  return mail::Record(std::move(r));
}

Result<mail::Record> decode_key(const Fields& f)
{
  mail::KeyRecord r;
  TRY_ASSIGN(r.sender, f.text("sender"));
  TRY_ASSIGN(r.key, f.text("key"));
  TRY_ASSIGN(r.fingerprint, f.text("fingerprint"));
  TRY_ASSIGN(r.message, f.optional_text("message"));
  TRY_ASSIGN(r.created_at, f.time("created_at"));
  return mail::Record(std::move(r));
}

Result<ExportHeader> decode_header(const Json& object)
{
  const Fields f(object, "header");
  ExportHeader header;
  TRY_ASSIGN(const std::int64_t version, f.integer("schema_version"));
  if (version < 1) {
    return f.wrong("schema_version", "a format version (1)");
  }
  if (version > k_export_format_version) {
    return make_error(ErrorCode::usage,
                      fmt::format("written in export format {}, newer than this mailroom reads ({})", version,
                                  k_export_format_version),
                      "import it with a newer mailroom");
  }
  header.schema_version = static_cast<int>(version);
  TRY_ASSIGN(header.exported_at, f.time("exported_at"));
  TRY_ASSIGN(std::optional<std::string> store, f.optional_text("store"));
  header.store = store.value_or("");
  return header;
}

} // namespace

std::string encode_header(const ExportHeader& header)
{
  Json j;
  j["kind"] = "header";
  j["schema_version"] = header.schema_version;
  j["exported_at"] = format_rfc3339(header.exported_at);
  put_text(j, "store", header.store);
  return dump_json(j);
}

std::string encode_record(const mail::Record& record)
{
  return dump_json(std::visit(
      [](const auto& r) -> Json {
        if constexpr (std::is_same_v<std::decay_t<decltype(r)>, mail::ScheduleRecord> ||
                      std::is_same_v<std::decay_t<decltype(r)>, mail::FiringRecord>) {
          return detail::encode_schedule_record(r);
        } else if constexpr (std::is_same_v<std::decay_t<decltype(r)>, mail::WakeTargetRecord> ||
                             std::is_same_v<std::decay_t<decltype(r)>, mail::WakeRecord>) {
          return detail::encode_wake_record(r);
        } else {
          return encode(r);
        }
      },
      record));
}

Result<ExportLine> decode_line(std::string_view line)
{
  Json object;
  try {
    object = Json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." without the tag.
    std::string what = e.what();
    const auto tag = what.find("] ");
    if (tag != std::string::npos) {
      what.erase(0, tag + 2);
    }
    return make_error(ErrorCode::usage, fmt::format("not JSON: {}", text::cap_for_echo(what, 160)));
  }
  if (!object.is_object()) {
    return make_error(ErrorCode::usage, "not a JSON object");
  }
  const auto kind = object.find("kind");
  if (kind == object.end() || !kind->is_string()) {
    return make_error(ErrorCode::usage, "the object has no \"kind\"");
  }
  const std::string& name = kind->get_ref<const std::string&>();
  if (name == "header") {
    TRY_ASSIGN(ExportHeader header, decode_header(object));
    return ExportLine(std::move(header));
  }
  const Fields fields(object, name);
  Result<mail::Record> record = [&]() -> Result<mail::Record> {
    if (name == "mailbox") {
      return decode_mailbox(fields);
    }
    if (name == "message") {
      return decode_message(fields);
    }
    if (name == "delivery") {
      return decode_delivery(fields);
    }
    if (name == "idempotency_key") {
      return decode_key(fields);
    }
    if (name == "schedule") {
      return detail::decode_schedule(fields);
    }
    if (name == "firing") {
      return detail::decode_firing(fields);
    }
    if (name == "wake_target") {
      return detail::decode_wake_target(fields);
    }
    if (name == "wake") {
      return detail::decode_wake(fields);
    }
    return make_error(ErrorCode::usage,
                      fmt::format("unknown kind \"{}\" (header, mailbox, message, delivery, idempotency_key, "
                                  "schedule, firing, wake_target or wake)",
                                  text::cap_for_echo(name, 60)));
  }();
  TRY_ASSIGN(mail::Record decoded, std::move(record));
  return ExportLine(std::move(decoded));
}

} // namespace mailroom::render
