#include "render/json.hpp"

#include "mail/address.hpp"
#include "base/exit_code.hpp"
#include "render/render.hpp"

namespace mailroom::render {


nlohmann::json message_to_json(const Message& m)
{
  nlohmann::json j;
  j["id"] = m.id;
  j["from"] = m.from;
  j["to"] = m.to;
  j["cc"] = m.cc;
  j["subject"] = m.subject;
  j["body"] = m.body;
  j["created_at"] = format_rfc3339(m.created_at);
  // State is the viewing mailbox's own; a viewer who is not a recipient has none (null).
  j["read"] = m.state ? nlohmann::json(m.state->read) : nlohmann::json(nullptr);
  j["archived"] = m.state ? nlohmann::json(m.state->archived) : nlohmann::json(nullptr);
  j["ack_state"] = m.state ? nlohmann::json(mail::to_string(m.state->ack_state)) : nlohmann::json(nullptr);
  j["thread_id"] = m.thread_id;
  j["reply_to"] = m.reply_to ? nlohmann::json(*m.reply_to) : nlohmann::json(nullptr);
  j["priority"] = static_cast<int>(m.priority);
  j["type"] = m.type;
  j["addressed_to"] = m.addressed_to;
  j["trace_id"] = m.trace.trace_id;
  j["span_id"] = m.trace.span_id;
  j["parent_span_id"] = m.trace.parent_span_id ? nlohmann::json(*m.trace.parent_span_id) : nlohmann::json(nullptr);
  j["expires_at"] = m.expires_at ? nlohmann::json(format_rfc3339(*m.expires_at)) : nlohmann::json(nullptr);
  j["expired"] = m.expired;
  if (m.state && m.state->attempts > 0) {
    j["redelivered"] = {{"attempt", m.state->attempts}, {"first_sent_at", format_rfc3339(m.created_at)}};
  } else {
    j["redelivered"] = nullptr;
  }
  return j;
}

nlohmann::json json_document()
{
  nlohmann::json doc = nlohmann::json::object();
  doc["schema_version"] = 1;
  return doc;
}

nlohmann::json error_to_json(const Error& error)
{
  nlohmann::json doc = json_document();
  doc["ok"] = false;
  nlohmann::json e;
  e["code"] = std::string(to_string(error.code));
  e["message"] = error.message;
  e["exit_code"] = to_int(to_exit_code(error.code));
  if (!error.hint.empty()) {
    e["hint"] = error.hint;
  }
  if (error.code == ErrorCode::invalid_recipient || error.code == ErrorCode::unknown_recipient) {
    e["input"] = error.input;
    e["valid_shapes"] = mail::valid_address_shapes();
    e["suggestions"] = error.suggestions;
  }
  if (error.code == ErrorCode::ambiguous_id) {
    e["input"] = error.input;
    e["candidates"] = error.suggestions;
  }
  if (!error.reason.empty()) {
    e["reason"] = error.reason;
  }
  doc["error"] = std::move(e);
  return doc;
}

std::string dump_json(const nlohmann::json& doc)
{
  // nlohmann escapes C0 controls; C1 controls, DEL and the JavaScript line separators are valid
  // UTF-8 that it would print raw, so escape them here. They can only occur inside strings.
  const std::string raw = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(raw.size() + 1);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const auto c = static_cast<unsigned char>(raw[i]);
    const auto next = i + 1 < raw.size() ? static_cast<unsigned char>(raw[i + 1]) : 0U;
    const auto after = i + 2 < raw.size() ? static_cast<unsigned char>(raw[i + 2]) : 0U;
    if (c == 0x7F) {
      out += "\\u007f";
    } else if (c == 0xC2 && next >= 0x80 && next <= 0x9F) {
      static constexpr char k_hex[] = "0123456789abcdef";
      out += "\\u00";
      out += k_hex[next >> 4U];
      out += k_hex[next & 0xFU];
      ++i;
    } else if (c == 0xE2 && next == 0x80 && (after == 0xA8 || after == 0xA9)) {
      out += after == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\n';
  return out;
}

} // namespace mailroom::render
