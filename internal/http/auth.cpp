#include "auth.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "rules.hpp"
#include "text/strings.hpp"
#include "util/atomic_file.hpp"
#include "util/file_read.hpp"
#include "util/random.hpp"
#include "util/xdg.hpp"

namespace mailroom::http {

namespace {

constexpr std::size_t k_token_bytes = 32; // 256 bits

std::string hex(std::string_view bytes)
{
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(k_digits[b >> 4]);
    out.push_back(k_digits[b & 15]);
  }
  return out;
}

bool is_token(std::string_view text)
{
  return text.size() == 2 * k_token_bytes && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

Result<void> make_private_dirs(const std::string& dir)
{
  // Each missing component is created 0700; an existing one is left as it is, except the last.
  for (std::size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string part = dir.substr(0, slash);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) {
      return make_error(ErrorCode::store_error,
                        fmt::format("cannot create \"{}\": {}", part, std::strerror(errno)));
    }
    if (slash == std::string::npos) {
      break;
    }
  }
  if (::chmod(dir.c_str(), 0700) != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot make \"{}\" private: {}", dir, std::strerror(errno)));
  }
  return {};
}

} // namespace

Result<void> write_private_file(const std::string& path, const std::string& content)
{
  TRY(make_private_dirs(path.substr(0, path.rfind('/'))));
  return util::write_file_atomically(path, content, 0600);
}

Result<std::string> token_path(const util::Environment& env, std::string_view location)
{
  const std::optional<std::string> state = util::xdg_home(env, util::XdgDir::state);
  if (!state) {
    return make_error(ErrorCode::usage,
                      "cannot place the serve token: neither XDG_STATE_HOME nor HOME is set");
  }
  const std::string key = util::to_hex(util::sha256(location)).substr(0, 24);
  return fmt::format("{}/mailroom/serve/{}.token", *state, key);
}

Result<std::optional<std::string>> read_token(const std::string& path)
{
  if (const std::optional<std::string> stored = util::read_file(path, 4096)) {
    std::string token = text::trim(*stored);
    if (!is_token(token)) {
      return make_error(ErrorCode::usage, fmt::format("\"{}\" does not hold a serve token", path),
                        "mailroom serve --new-token replaces it");
    }
    return std::optional<std::string>(std::move(token));
  }
  if (errno != ENOENT) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot read \"{}\": {}", path, std::strerror(errno)));
  }
  return std::optional<std::string>();
}

Result<std::string> load_or_create_token(const std::string& path, bool replace)
{
  if (!replace) {
    TRY_ASSIGN(std::optional<std::string> stored, read_token(path));
    if (stored) {
      return std::move(*stored);
    }
  }
  const std::string token = hex(util::random_bytes(k_token_bytes));
  TRY(write_private_file(path, token + "\n"));
  return token;
}

Credentials::Credentials(std::string token) : m_token(std::move(token))
{
  const util::Sha256Digest mac = util::hmac_sha256(m_token, "session");
  m_session = util::to_hex(mac);
}

bool Credentials::accepts(std::string_view authorization) const
{
  const std::string_view bearer = bearer_of(authorization);
  // Both comparisons always run, so the time says nothing about which one matched.
  const bool token = constant_time_equal(bearer, m_token);
  const bool session = constant_time_equal(bearer, m_session);
  return !bearer.empty() && (token || session);
}

bool Credentials::accepts_token(std::string_view authorization) const
{
  const std::string_view bearer = bearer_of(authorization);
  return !bearer.empty() && constant_time_equal(bearer, m_token);
}

std::string login_link(std::string_view host, std::string_view code)
{
  return fmt::format("http://{}/login#c={}", host, code);
}

std::string LoginCodes::issue(mail::UnixMillis now)
{
  std::string code = hex(util::random_bytes(16));
  std::lock_guard lock(m_mutex);
  std::erase_if(m_issued, [now](const Issued& issued) { return issued.expires <= now; });
  m_issued.push_back(Issued{code, now + k_lifetime_ms});
  return code;
}

bool LoginCodes::redeem(std::string_view code, mail::UnixMillis now)
{
  std::lock_guard lock(m_mutex);
  std::erase_if(m_issued, [now](const Issued& issued) { return issued.expires <= now; });
  for (auto it = m_issued.begin(); it != m_issued.end(); ++it) {
    if (!code.empty() && constant_time_equal(code, it->code)) {
      m_issued.erase(it);
      return true;
    }
  }
  return false;
}

} // namespace mailroom::http
