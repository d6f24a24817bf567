#include "mcp/jsonrpc.hpp"

#include <cerrno>
#include <unistd.h>

#include "render/json.hpp"

namespace mailroom::mcp {

namespace {

constexpr std::size_t k_chunk = 64 * 1024;

bool valid_id(const json& id)
{
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

} // namespace

bool LineReader::fill()
{
  if (m_eof) {
    return false;
  }
  if (m_start > 0 && m_start >= m_buffer.size() / 2) {
    m_buffer.erase(0, m_start);
    m_start = 0;
  }
  const std::size_t old = m_buffer.size();
  m_buffer.resize(old + k_chunk);
  ssize_t got = 0;
  do {
    got = ::read(m_fd, m_buffer.data() + old, k_chunk);
  } while (got < 0 && errno == EINTR);
  m_buffer.resize(old + static_cast<std::size_t>(got > 0 ? got : 0));
  if (got <= 0) {
    m_eof = true;
    return false;
  }
  return true;
}

LineReader::Status LineReader::next(std::string& line)
{
  std::size_t scanned = 0; // bytes after m_start known to hold no newline (fill() may move m_start)
  for (;;) {
    const std::size_t newline = m_buffer.find('\n', m_start + scanned);
    if (newline != std::string::npos) {
      if (newline - m_start > m_max) {
        m_start = newline + 1;
        return Status::too_long;
      }
      line.assign(m_buffer, m_start, newline - m_start);
      m_start = newline + 1;
      return Status::line;
    }
    scanned = m_buffer.size() - m_start;
    if (scanned > m_max) {
      // Over the bound: drop what we have and skip to the end of this line.
      m_buffer.clear();
      m_start = 0;
      for (;;) {
        if (!fill()) {
          return Status::too_long;
        }
        const std::size_t nl = m_buffer.find('\n');
        if (nl != std::string::npos) {
          m_buffer.erase(0, nl + 1);
          return Status::too_long;
        }
        m_buffer.clear();
      }
    }
    if (!fill()) {
      if (m_start < m_buffer.size()) {
        line.assign(m_buffer, m_start, std::string::npos);
        m_start = m_buffer.size();
        return Status::line;
      }
      return Status::end;
    }
  }
}

Parsed parse_line(const std::string& line)
{
  Parsed parsed;
  // nlohmann's callback parser keeps its own stacks (no recursion); a container refused here is
  // never built, nor anything inside it. `depth` is the number of containers around the event.
  const json::parser_callback_t bound = [&parsed](int depth, json::parse_event_t event, json&) {
    const bool opens =
        event == json::parse_event_t::object_start || event == json::parse_event_t::array_start;
    if (opens && depth >= k_max_json_depth) {
      parsed.too_deep = true;
      return false;
    }
    return true;
  };
  parsed.message = json::parse(line, bound, false);
  return parsed;
}

Incoming classify(const json& message)
{
  Incoming in;
  if (!message.is_object()) {
    in.why = message.is_array() ? "batches are not supported" : "a message is a JSON object";
    return in;
  }
  const auto id = message.find("id");
  const bool has_id = id != message.end();
  if (has_id && valid_id(*id)) {
    in.id = *id;
  }
  const auto version = message.find("jsonrpc");
  if (version == message.end() || *version != "2.0") {
    in.why = "\"jsonrpc\" must be \"2.0\"";
    return in;
  }
  const auto method = message.find("method");
  if (method == message.end()) {
    if (has_id && (message.contains("result") || message.contains("error"))) {
      in.kind = Incoming::Kind::response;
      return in;
    }
    in.why = "a request needs a \"method\"";
    return in;
  }
  if (!method->is_string()) {
    in.why = "\"method\" must be a string";
    return in;
  }
  if (has_id && !valid_id(*id)) {
    in.why = "\"id\" must be a string or an integer";
    return in;
  }
  in.method = method->get<std::string>();
  const auto params = message.find("params");
  if (params != message.end()) {
    if (!params->is_object()) {
      in.why = "\"params\" must be an object";
      in.params = *params;
      in.kind = has_id ? Incoming::Kind::request : Incoming::Kind::notification;
      return in;
    }
    in.params = *params;
  }
  in.kind = has_id ? Incoming::Kind::request : Incoming::Kind::notification;
  return in;
}

json make_result(const json& id, json result)
{
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json make_error(const json& id, int code, std::string_view message, std::optional<json> data)
{
  json error{{"code", code}, {"message", message}};
  if (data) {
    error["data"] = std::move(*data);
  }
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
}

std::string to_line(const json& message)
{
  return render::dump_json(message);
}

} // namespace mailroom::mcp
