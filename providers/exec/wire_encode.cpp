// The encoders of wire.hpp: the send JSON, with the exact bytes Go's encoding/json produces so
// scripts and golden tests see what gc would send, and the Message JSON a script prints.

#include "exec/wire.hpp"

#include <ctime>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::providers::exec {

namespace {

constexpr std::string_view k_hex = "0123456789abcdef";

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one (Go's utf8.DecodeRune
// rules: no overlongs, no surrogates, nothing past U+10FFFF).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i)
{
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80U) {
    return 1;
  }
  std::size_t length = 0;
  unsigned char low = 0x80U;
  unsigned char high = 0xBFU;
  if (b0 >= 0xC2U && b0 <= 0xDFU) {
    length = 2;
  } else if (b0 >= 0xE0U && b0 <= 0xEFU) {
    length = 3;
    low = b0 == 0xE0U ? 0xA0U : 0x80U;
    high = b0 == 0xEDU ? 0x9FU : 0xBFU;
  } else if (b0 >= 0xF0U && b0 <= 0xF4U) {
    length = 4;
    low = b0 == 0xF0U ? 0x90U : 0x80U;
    high = b0 == 0xF4U ? 0x8FU : 0xBFU;
  } else {
    return 0;
  }
  if (i + length > s.size() || byte(i + 1) < low || byte(i + 1) > high) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80U || byte(i + k) > 0xBFU) {
      return 0;
    }
  }
  return length;
}

void append_unicode_escape(std::string& out, unsigned value)
{
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out += k_hex[(value >> static_cast<unsigned>(shift)) & 0xFU];
  }
}

} // namespace

std::string go_json_string(std::string_view text)
{
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80U) {
      switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '<':
      case '>':
      case '&':
        append_unicode_escape(out, c);
        break;
      default:
        if (c < 0x20U) {
          append_unicode_escape(out, c);
        } else {
          out += static_cast<char>(c);
        }
      }
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    const std::string_view sequence = text.substr(i, length);
    if (sequence == "\xE2\x80\xA8") {
      out += "\\u2028";
    } else if (sequence == "\xE2\x80\xA9") {
      out += "\\u2029";
    } else {
      out += sequence;
    }
    i += length;
  }
  out += '"';
  return out;
}

std::string send_json(std::string_view from, std::string_view subject, std::string_view body)
{
  return "{\"from\":" + go_json_string(from) + ",\"subject\":" + go_json_string(subject) +
         ",\"body\":" + go_json_string(body) + "}";
}

std::string wire_time(mail::UnixMillis when)
{
  const std::time_t seconds = static_cast<std::time_t>(when / 1000 - (when % 1000 < 0 ? 1 : 0));
  const auto millis = static_cast<int>(((when % 1000) + 1000) % 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

std::string wire_message_json(const mail::Message& message)
{
  std::string out = "{\"id\":" + go_json_string(message.id) + ",\"from\":" + go_json_string(message.from);
  out += ",\"to\":" + go_json_string(text::join(message.to, ", "));
  if (!message.cc.empty()) {
    out += ",\"cc\":[";
    for (std::size_t i = 0; i < message.cc.size(); ++i) {
      out += (i == 0 ? "" : ",") + go_json_string(message.cc[i]);
    }
    out += "]";
  }
  out += ",\"subject\":" + go_json_string(message.subject) + ",\"body\":" + go_json_string(message.body);
  out += ",\"created_at\":\"" + wire_time(message.created_at) + "\"";
  out += std::string(",\"read\":") + (message.state && message.state->read ? "true" : "false");
  if (!message.thread_id.empty()) {
    out += ",\"thread_id\":" + go_json_string(message.thread_id);
  }
  if (message.reply_to) {
    out += ",\"reply_to\":" + go_json_string(*message.reply_to);
  }
  out += std::string(",\"archived\":") + (message.state && message.state->archived ? "true" : "false");
  out += "}";
  return out;
}

} // namespace mailroom::providers::exec
