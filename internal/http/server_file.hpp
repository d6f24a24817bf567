#pragma once

// How `mailroom serve login` finds the running server of a store: `serve` writes its address
// beside its token (the same name, ending .port instead of .token; file 0600), and removes it when
// it stops. The login then asks that server for a fresh login code with the token (POST
// /api/v1/login-codes) and prints the link. No network here but that one request.

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"

namespace mailroom::http {

struct ServerFile {
  std::int64_t pid = 0;
  std::string address; // what to connect to: the listening address (a wildcard: its loopback)
  std::uint16_t port = 0;
  std::string host; // the Host the server answers to, with its port (what its links name)
};

// The server file beside `token_path`.
std::string server_file_path(const std::string& token_path);
// Errors: store_error (cannot write it).
Result<void> write_server_file(const std::string& path, const ServerFile& file);
// nullopt when there is none, or when it does not hold a server's address.
std::optional<ServerFile> read_server_file(const std::string& path);
// Removes it when it still names process `pid` (a later server may have replaced it).
void remove_server_file(const std::string& path, std::int64_t pid);

// Asks the server in `file` for a new single-use login link, with the API `token`: the link.
// Errors: not_found (no server answers there, or not as this store's: its token differs),
// timeout (it did not answer within 10 s).
Result<std::string> request_login_link(const ServerFile& file, const std::string& token);

} // namespace mailroom::http
