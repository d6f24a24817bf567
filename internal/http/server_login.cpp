// `mailroom serve login`'s one request to the running server (server_file.hpp), on Boost.Beast
// like the server itself: POST /api/v1/login-codes with the API token, within 10 s.

#include <chrono>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "server_file.hpp"

namespace mailroom::http {

// The same names as server_impl.hpp's, declared alike in this namespace (not a file-scope one),
// so the unity build's one translation unit holds redeclarations, not two ambiguous names.
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::chrono::seconds k_answer_within{10};

Error no_server(const ServerFile& file, std::string_view why)
{
  return make_error(ErrorCode::not_found,
                    fmt::format("no mailroom serve for this store answers at {} ({})", file.host, why),
                    "start one with mailroom serve");
}

} // namespace

Result<std::string> request_login_link(const ServerFile& file, const std::string& token)
{
  asio::io_context io;
  beast::tcp_stream stream(io);
  error_code ec;
  const asio::ip::address address = asio::ip::make_address(file.address, ec);
  if (ec) {
    return no_server(file, "its address file names no address");
  }
  bhttp::request<bhttp::string_body> request{bhttp::verb::post, "/api/v1/login-codes", 11};
  request.set(bhttp::field::host, file.host);
  request.set(bhttp::field::authorization, "Bearer " + token);
  request.set(bhttp::field::content_type, "application/json");
  request.body() = "{}";
  request.prepare_payload();
  request.keep_alive(false);
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(64 * 1024);
  beast::flat_buffer buffer;
  stream.expires_after(k_answer_within);
  stream.async_connect(tcp::endpoint(address, file.port), [&](error_code connected) {
    if (connected) {
      ec = connected;
      return;
    }
    bhttp::async_write(stream, request, [&](error_code written, std::size_t) {
      if (written) {
        ec = written;
        return;
      }
      bhttp::async_read(stream, buffer, parser, [&](error_code read, std::size_t) { ec = read; });
    });
  });
  io.run();
  if (ec == beast::error::timeout) {
    return make_error(ErrorCode::timeout,
                      fmt::format("the server at {} did not answer within 10s", file.host));
  }
  if (ec) {
    return no_server(file, ec.message());
  }
  const auto& answer = parser.get();
  const nlohmann::json doc = nlohmann::json::parse(answer.body(), nullptr, false);
  if (answer.result_int() == 401) {
    return no_server(file, "it does not take this store's token");
  }
  if (answer.result_int() != 200 || !doc.is_object() || !doc.value("url", nlohmann::json()).is_string()) {
    return no_server(file, fmt::format("it answered HTTP {}", answer.result_int()));
  }
  return doc["url"].get<std::string>();
}

} // namespace mailroom::http
