#include "render/json.hpp"

#include "base/exit_code.hpp"
#include "mail/address.hpp"
#include "mail/message_fields.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/unicode.hpp"
#include "text/utf8.hpp"

namespace mailroom::render {

namespace {

using text::json_text;

nlohmann::json json_texts(const std::vector<std::string>& values)
{
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& value : values) {
    out.push_back(json_text(value));
  }
  return out;
}

// An echoed value inside an error: capped like the human error line, exact otherwise.
std::string echoed(std::string_view raw, std::size_t cap)
{
  return text::cap_bytes(json_text(raw), cap);
}

void append_u_escape(std::string& out, char32_t unit)
{
  static constexpr char k_hex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out += k_hex[(unit >> static_cast<unsigned>(shift)) & 0xFU];
  }
}

} // namespace

nlohmann::json message_to_json(const Message& m)
{
  nlohmann::json j;
  // The stored fields the view shows, from the field table (the document's keys are sorted).
  mail::for_each_message_field(
      [&](auto kind, const mail::MessageField& field, const auto& value) {
        constexpr mail::FieldKind k = decltype(kind)::value;
        if (field.view != mail::FieldView::shown) {
          return;
        }
        nlohmann::json& out = j[std::string(field.key)];
        if constexpr (k == mail::FieldKind::text || k == mail::FieldKind::name ||
                      k == mail::FieldKind::body) {
          out = json_text(value);
        } else if constexpr (k == mail::FieldKind::hex || k == mail::FieldKind::integer) {
          out = value;
        } else if constexpr (k == mail::FieldKind::optional_text) {
          out = value ? nlohmann::json(json_text(*value)) : nlohmann::json(nullptr);
        } else if constexpr (k == mail::FieldKind::optional_hex) {
          out = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
        } else if constexpr (k == mail::FieldKind::names) {
          out = json_texts(value);
        } else if constexpr (k == mail::FieldKind::millis) {
          out = format_rfc3339(value);
        } else if constexpr (k == mail::FieldKind::optional_millis) {
          out = value ? nlohmann::json(format_rfc3339(*value)) : nlohmann::json(nullptr);
        } else if constexpr (k == mail::FieldKind::priority) {
          out = static_cast<int>(value);
        } else {
          static_assert(mail::k_unhandled_field_kind<k>);
        }
      },
      m);
  // The whole body's size, and whether "body" holds only its start (a preview: never on the CLI,
  // whose JSON views load whole bodies).
  j["body_bytes"] = m.body_bytes();
  j["body_truncated"] = !m.body_complete;
  // State is the viewing mailbox's own; a viewer who is not a recipient has none (null).
  j["read"] = m.state ? nlohmann::json(m.state->read) : nlohmann::json(nullptr);
  j["archived"] = m.state ? nlohmann::json(m.state->archived) : nlohmann::json(nullptr);
  j["ack_state"] = m.state ? nlohmann::json(mail::to_string(m.state->ack_state)) : nlohmann::json(nullptr);
  // The viewer's request state (mail/request.hpp): null for a non-recipient and for a message that
  // expects no reply (and on a store that keeps none).
  j["request_state"] = m.state && m.state->request_state
                           ? nlohmann::json(mail::to_string(*m.state->request_state))
                           : nlohmann::json(nullptr);
  j["expired"] = m.expired;
  if (m.state && m.state->attempts > 0) {
    j["redelivered"] = {{"attempt", m.state->attempts}, {"first_sent_at", format_rfc3339(m.created_at)}};
  } else {
    j["redelivered"] = nullptr;
  }
  // A schedule's firing: the schedule's name and the slot (contract "Schedules").
  j["schedule"] = m.schedule ? nlohmann::json(json_text(*m.schedule)) : nlohmann::json(nullptr);
  j["slot"] = m.slot ? nlohmann::json(format_rfc3339(*m.slot)) : nlohmann::json(nullptr);
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
  e["message"] = echoed(error.message, text::k_error_line_cap_bytes);
  e["exit_code"] = to_int(to_exit_code(error.code));
  if (!error.hint.empty()) {
    e["hint"] = echoed(error.hint, text::k_error_line_cap_bytes);
  }
  if (error.code == ErrorCode::invalid_recipient || error.code == ErrorCode::unknown_recipient) {
    e["input"] = echoed(error.input, text::k_default_cap_bytes);
    e["valid_shapes"] = mail::valid_address_shapes();
    nlohmann::json suggestions = nlohmann::json::array();
    for (const std::string& s : error.suggestions) {
      suggestions.push_back(echoed(s, text::k_default_cap_bytes));
    }
    e["suggestions"] = std::move(suggestions);
  }
  if (error.code == ErrorCode::ambiguous_id) {
    e["input"] = echoed(error.input, text::k_default_cap_bytes);
    nlohmann::json candidates = nlohmann::json::array();
    for (const std::string& c : error.suggestions) {
      candidates.push_back(echoed(c, text::k_default_cap_bytes));
    }
    e["candidates"] = std::move(candidates);
  }
  if (!error.reason.empty()) {
    e["reason"] = error.reason;
  }
  doc["error"] = std::move(e);
  return doc;
}

namespace {

// nlohmann escapes C0 controls, '"' and '\\'. Every other hidden character (C1, DEL, bidi,
// format, tags, variation selectors, U+2028/U+2029, ...) is valid UTF-8 that it would print raw,
// so escape it here: the text stays exact for a JSON reader and inert on a terminal. Outside
// strings the document is ASCII, so only string contents are touched.
std::string escape_hidden(const std::string& raw)
{
  std::string out;
  out.reserve(raw.size() + 1);
  for (std::size_t pos = 0; pos < raw.size();) {
    if (static_cast<unsigned char>(raw[pos]) < 0x7F) {
      out += raw[pos++]; // ASCII below DEL: nothing to escape (nlohmann escaped C0 already)
      continue;
    }
    const text::utf8::Decoded d = text::utf8::decode(raw, pos);
    const char32_t cp = d.code_point;
    if (d.valid && (cp == 0x7F || (cp >= 0x80 && text::unicode::is_hidden(text::unicode::classify(cp))))) {
      if (cp >= 0x10000) {
        append_u_escape(out, 0xD800 + ((cp - 0x10000) >> 10U));
        append_u_escape(out, 0xDC00 + ((cp - 0x10000) & 0x3FFU));
      } else {
        append_u_escape(out, cp);
      }
    } else {
      out.append(raw, pos, d.length);
    }
    pos += d.length;
  }
  out += '\n';
  return out;
}

} // namespace

std::string dump_json(const nlohmann::json& doc)
{
  return escape_hidden(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string dump_json(const nlohmann::ordered_json& doc)
{
  return escape_hidden(doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

} // namespace mailroom::render
