#pragma once

// JSON-RPC 2.0 over newline-delimited stdio, as MCP frames it: one message per line, each line at
// most a bound long (a longer one is answered -32700 and the rest of it discarded).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mailroom::mcp {

using nlohmann::json;

// The longest line accepted (contract "MCP server": 64 MiB).
inline constexpr std::size_t k_max_line_bytes = std::size_t{64} << 20;
// The deepest nesting of objects and arrays accepted in one message (the envelope counts): a
// deeper value is dropped while parsing, so nothing recursive ever sees it, and the message is
// answered -32600 naming the limit.
inline constexpr int k_max_json_depth = 64;

// JSON-RPC and MCP error codes.
namespace rpc {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int server_busy = -32000;
inline constexpr int unsupported_version = -32022; // modern era: data {supported, requested}
} // namespace rpc

// Reads lines from a file descriptor, each at most `max_bytes` bytes (without the '\n').
class LineReader {
public:
  enum class Status { line, too_long, end };

  explicit LineReader(int fd, std::size_t max_bytes = k_max_line_bytes) : m_fd(fd), m_max(max_bytes) {}

  // The next line in `line` (a final unterminated line counts). `too_long` once per over-long
  // line, whose bytes are skipped up to and including its '\n'. `end` at end of input or on a
  // read error.
  Status next(std::string& line);

private:
  bool fill(); // reads more into m_buffer; false at end of input

  int m_fd;
  std::size_t m_max;
  std::string m_buffer;
  std::size_t m_start = 0;
  bool m_eof = false;
};

// One parsed line.
struct Incoming {
  enum class Kind {
    request,      // method and id
    notification, // method, no id: never answered
    response,     // result or error from the client: ignored (the server sends no requests)
    invalid,      // answered -32600 (id null unless a valid id was present)
  };
  Kind kind = Kind::invalid;
  json id; // string or integer; null when absent or invalid
  std::string method;
  json params;     // object, or null when absent
  std::string why; // for invalid
};

// One line parsed: the message, with every value nested deeper than k_max_json_depth dropped
// (`too_deep` then set). Discarded (is_discarded()) when the line is not JSON. Iterative: a line
// of any nesting costs time and memory linear in its length, never stack.
struct Parsed {
  json message;
  bool too_deep = false;
};
Parsed parse_line(const std::string& line);

// Classifies an already parsed JSON value. A batch (array) is invalid with id null.
Incoming classify(const json& message);

// {"jsonrpc":"2.0","id":id,"result":result}
json make_result(const json& id, json result);
// {"jsonrpc":"2.0","id":id,"error":{"code","message"[,"data"]}}
json make_error(const json& id, int code, std::string_view message, std::optional<json> data = std::nullopt);

// `message` serialised as one line with '\n' through the JSON output gate (render::dump_json):
// invalid UTF-8 replaced, and every control, bidi, format, tag and other hidden character inside a
// string written as a \uXXXX escape, as `mailroom --json` writes them. Never throws.
std::string to_line(const json& message);

} // namespace mailroom::mcp
