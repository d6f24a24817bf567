// The field table (mail/message_fields.hpp) walked through the message JSON, export and import:
// the output keeps its exact bytes, every key round-trips, a missing key is named, and import's
// comparison names every field that differs.

#include <cstdio>
#include <set>
#include <string>
#include <variant>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "mail/message_fields.hpp"
#include "mail/transfer.hpp"
#include "render/json.hpp"
#include "render/transfer.hpp"

using namespace mailroom;
using namespace mailroom::mail;

namespace {

// A message with every stored field set to a value that is not its default.
Message full_message()
{
  Message m;
  m.id = "mr-0123456789abcdef";
  m.from = "alice";
  m.to = {"bob", "rig/carol"};
  m.cc = {"dave"};
  m.addressed_to = {"@ops", "dave"};
  m.subject = "deploy \xE2\x9C\x93 done";
  m.body = "line one\nline two\x1b[0m";
  m.created_at = 1'700'000'000'123;
  m.thread_id = "thread-0123456789ab";
  m.reply_to = "mr-fedcba9876543210";
  m.priority = Priority::high;
  m.type = "task";
  m.trace.trace_id = "0123456789abcdef0123456789abcdef";
  m.trace.span_id = "0123456789abcdef";
  m.trace.parent_span_id = "fedcba9876543210";
  m.expires_at = 1'700'000'600'000;
  m.dedup_key = "disk-full";
  m.sender_uid = 1000;
  m.sender_host = "build-01";
  return m;
}

// The same with the optional fields absent and text that is not UTF-8.
Message sparse_message()
{
  Message m = full_message();
  m.cc.clear();
  m.subject = "bad \xFF byte";
  m.body = std::string("nul\0and \xC3", 9);
  m.reply_to.reset();
  m.priority = Priority::backlog;
  m.trace.parent_span_id.reset();
  m.expires_at.reset();
  m.dedup_key.reset();
  m.sender_uid = -1;
  m.sender_host = "host-\xFE";
  return m;
}

// Changes the field the visitor is at, so that it differs from before.
struct ChangeField {
  template <typename Tag, typename Value>
  void operator()(Tag /*kind*/, const MessageField& /*f*/, Value& v) const
  {
    constexpr FieldKind k = Tag::value;
    if constexpr (k == FieldKind::text || k == FieldKind::name || k == FieldKind::hex ||
                  k == FieldKind::body) {
      v += "x";
    } else if constexpr (k == FieldKind::optional_text || k == FieldKind::optional_hex) {
      v = v ? std::optional<std::string>() : std::optional<std::string>("x");
    } else if constexpr (k == FieldKind::names) {
      v.push_back("erin");
    } else if constexpr (k == FieldKind::millis || k == FieldKind::integer) {
      v += 1;
    } else if constexpr (k == FieldKind::optional_millis) {
      v = v ? std::optional<UnixMillis>() : std::optional<UnixMillis>(1);
    } else if constexpr (k == FieldKind::priority) {
      v = v == Priority::urgent ? Priority::low : Priority::urgent;
    } else {
      static_assert(k_unhandled_field_kind<k>);
    }
  }
};

Message round_trip(const Message& m)
{
  const std::string line = render::encode_record(MessageRecord{m});
  auto decoded = render::decode_line(line.substr(0, line.size() - 1));
  REQUIRE_MESSAGE(decoded.ok(), (decoded.ok() ? "" : decoded.error().message));
  const auto* record = std::get_if<Record>(&decoded.value());
  REQUIRE(record != nullptr);
  const auto* message = std::get_if<MessageRecord>(record);
  REQUIRE(message != nullptr);
  return message->message;
}

} // namespace

TEST_SUITE("mailroom::render message fields")
{
  TEST_CASE("the table's keys and columns are unique, in export order")
  {
    std::set<std::string_view> keys;
    std::set<std::string_view> columns;
    for (const MessageField& field : k_message_fields) {
      CHECK_MESSAGE(keys.insert(field.key).second, field.key);
      CHECK_MESSAGE(columns.insert(field.column).second, field.column);
    }
    CHECK(k_message_fields.front().key == "id");
    CHECK(count_message_fields(FieldKind::body) == 1);
  }

  TEST_CASE("the message JSON keeps its exact bytes")
  {
    CHECK(
        render::dump_json(render::message_to_json(full_message())) ==
        R"({"ack_state":null,"addressed_to":["@ops","dave"],"archived":null,"body":"line one\nline two\u001b[0m","body_bytes":21,"body_truncated":false,"cc":["dave"],"created_at":"2023-11-14T22:13:20.123Z","dedup_key":"disk-full","expired":false,"expires_at":"2023-11-14T22:23:20.000Z","from":"alice","id":"mr-0123456789abcdef","parent_span_id":"fedcba9876543210","priority":1,"read":null,"redelivered":null,"reply_to":"mr-fedcba9876543210","request_state":null,"schedule":null,"slot":null,"span_id":"0123456789abcdef","subject":"deploy )"
        "\xE2"
        "\x9C"
        "\x93"
        R"( done","thread_id":"thread-0123456789ab","to":["bob","rig/carol"],"trace_id":"0123456789abcdef0123456789abcdef","type":"task"})"
        "\n");
    Message sparse = sparse_message();
    sparse.expired = true;
    sparse.body_complete = false;
    sparse.cut_body_bytes = 100;
    sparse.state = DeliveryState{true, false, AckState::awaiting_ack, 2, std::nullopt};
    CHECK(
        render::dump_json(render::message_to_json(sparse)) ==
        R"({"ack_state":"awaiting_ack","addressed_to":["@ops","dave"],"archived":false,"body":"nul\u0000and )"
        "\xEF"
        "\xBF"
        "\xBD"
        R"(","body_bytes":100,"body_truncated":true,"cc":[],"created_at":"2023-11-14T22:13:20.123Z","dedup_key":null,"expired":true,"expires_at":null,"from":"alice","id":"mr-0123456789abcdef","parent_span_id":null,"priority":4,"read":true,"redelivered":{"attempt":2,"first_sent_at":"2023-11-14T22:13:20.123Z"},"reply_to":null,"request_state":null,"schedule":null,"slot":null,"span_id":"0123456789abcdef","subject":"bad )"
        "\xEF"
        "\xBF"
        "\xBD"
        R"( byte","thread_id":"thread-0123456789ab","to":["bob","rig/carol"],"trace_id":"0123456789abcdef0123456789abcdef","type":"task"})"
        "\n");
  }

  TEST_CASE("an export record keeps its exact bytes and every key round-trips through import")
  {
    CHECK(
        render::encode_record(MessageRecord{full_message()}) ==
        R"({"kind":"message","id":"mr-0123456789abcdef","from":"alice","to":["bob","rig/carol"],"cc":["dave"],"addressed_to":["@ops","dave"],"subject":"deploy )"
        "\xE2"
        "\x9C"
        "\x93"
        R"( done","body":"line one\nline two\u001b[0m","created_at":"2023-11-14T22:13:20.123Z","thread_id":"thread-0123456789ab","reply_to":"mr-fedcba9876543210","priority":1,"type":"task","trace_id":"0123456789abcdef0123456789abcdef","span_id":"0123456789abcdef","parent_span_id":"fedcba9876543210","expires_at":"2023-11-14T22:23:20.000Z","dedup_key":"disk-full","sender_uid":1000,"sender_host":"build-01"})"
        "\n");
    CHECK(
        render::encode_record(MessageRecord{sparse_message()}) ==
        R"({"kind":"message","id":"mr-0123456789abcdef","from":"alice","to":["bob","rig/carol"],"cc":[],"addressed_to":["@ops","dave"],"subject_b64":"YmFkIP8gYnl0ZQ==","body_b64":"bnVsAGFuZCDD","created_at":"2023-11-14T22:13:20.123Z","thread_id":"thread-0123456789ab","reply_to":null,"priority":4,"type":"task","trace_id":"0123456789abcdef0123456789abcdef","span_id":"0123456789abcdef","parent_span_id":null,"expires_at":null,"dedup_key":null,"sender_uid":-1,"sender_host_b64":"aG9zdC3+"})"
        "\n");
    for (const Message& m : {full_message(), sparse_message()}) {
      const Message back = round_trip(m);
      CHECK(differences(MessageRecord{m}, MessageRecord{back}).empty());
      const auto object = nlohmann::json::parse(render::encode_record(MessageRecord{m}));
      for (const MessageField& field : k_message_fields) {
        const std::string key(field.key);
        CHECK_MESSAGE((object.contains(key) || object.contains(key + "_b64")), key);
      }
    }
  }

  TEST_CASE("import names the first required key that is missing")
  {
    const auto whole = nlohmann::ordered_json::parse(render::encode_record(MessageRecord{full_message()}));
    for (const MessageField& field : k_message_fields) {
      auto object = whole;
      object.erase(std::string(field.key));
      const auto decoded = render::decode_line(object.dump());
      const bool optional = field.kind == FieldKind::optional_text || field.kind == FieldKind::optional_hex ||
                            field.kind == FieldKind::optional_millis;
      if (optional) {
        CHECK_MESSAGE(decoded.ok(), field.key);
      } else {
        REQUIRE_FALSE_MESSAGE(decoded.ok(), field.key);
        CHECK(decoded.error().message == "message record has no \"" + std::string(field.key) + "\"");
      }
    }
  }

  TEST_CASE("import's comparison names each field that differs, and only it")
  {
    const Message base = full_message();
    for (std::size_t row = 0; row < k_message_fields.size(); ++row) {
      Message changed = base;
      std::size_t at = 0;
      for_each_message_field(
          [&](auto kind, const MessageField& field, auto& value) {
            if (at++ == row) {
              ChangeField{}(kind, field, value);
            }
          },
          changed);
      CHECK(differences(MessageRecord{base}, MessageRecord{changed}) ==
            std::vector<std::string>{std::string(k_message_fields[row].key)});
      CHECK(differences(MessageRecord{changed}, MessageRecord{round_trip(changed)}).empty());
    }
  }
}
