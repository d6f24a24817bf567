#pragma once

// Who may call the API of `mailroom serve` (contract "Token" and "Browser login, without
// cookies"): the token file, the session token derived from it, and the single-use login codes.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "util/environment.hpp"
#include "util/sha256.hpp"

namespace mailroom::http {

// The token file of the store at `location`: $XDG_STATE_HOME/mailroom/serve/<hash>.token (else
// ~/.local/state/...), the hash being of the location, so two stores have two tokens.
// Errors: usage (neither XDG_STATE_HOME nor HOME is set).
Result<std::string> token_path(const util::Environment& env, std::string_view location);

// `content` written to `path` whole, then renamed into place (directory 0700, file 0600).
// Errors: store_error.
Result<void> write_private_file(const std::string& path, const std::string& content);

// The API token in `path`; nullopt when there is no such file. Errors: store_error (cannot read
// it), usage (a file that does not hold a token).
Result<std::optional<std::string>> read_token(const std::string& path);

// The API token read from `path`, created first (directory 0700, file 0600, written whole then
// renamed into place) when absent or when `replace`. Errors: store_error (cannot write or read
// it), usage (a file that does not hold a token: --new-token replaces it).
Result<std::string> load_or_create_token(const std::string& path, bool replace);

// What a bearer may be: the token itself, or the session token HMAC(token, "session") a browser
// receives for a login code. Both stay valid while the token file is unchanged.
class Credentials {
public:
  explicit Credentials(std::string token);
  const std::string& session_token() const { return m_session; }
  // True when `authorization` (the header's whole value) is `Bearer` with either credential;
  // compared in constant time.
  bool accepts(std::string_view authorization) const;
  // True only for the token itself (what a browser's session may not do, such as asking for a
  // login code).
  bool accepts_token(std::string_view authorization) const;

private:
  std::string m_token;
  std::string m_session;
};

// http://HOST/login#c=CODE: the code in the fragment, which a browser never sends.
std::string login_link(std::string_view host, std::string_view code);

// Single-use login codes: valid `lifetime_ms` from when they were issued, gone once redeemed.
class LoginCodes {
public:
  static constexpr mail::Millis k_lifetime_ms = 5 * 60 * 1000;
  // A new random code (128 bits, hex), valid until now + lifetime.
  std::string issue(mail::UnixMillis now);
  // True, once, for a code issued less than the lifetime before `now`.
  bool redeem(std::string_view code, mail::UnixMillis now);

private:
  struct Issued {
    std::string code;
    mail::UnixMillis expires = 0;
  };
  std::mutex m_mutex;
  std::vector<Issued> m_issued;
};

} // namespace mailroom::http
