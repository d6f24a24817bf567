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
#include "util/file_read.hpp"
#include "util/random.hpp"

namespace mailroom::http {

namespace {

constexpr std::size_t k_block = 64;
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
  const std::string dir = path.substr(0, path.rfind('/'));
  TRY(make_private_dirs(dir));
  const std::string temporary = fmt::format("{}.{}.tmp", path, ::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot write \"{}\": {}", temporary, std::strerror(errno)));
  }
  const bool written =
      ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), path.c_str()) != 0) {
    const int cause = written ? errno : saved;
    ::unlink(temporary.c_str());
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot write \"{}\": {}", path, std::strerror(cause)));
  }
  return {};
}

util::Sha256Digest hmac_sha256(std::string_view key, std::string_view message)
{
  std::string block(k_block, '\0');
  if (key.size() > k_block) {
    const util::Sha256Digest hashed = util::sha256(key);
    std::copy(hashed.begin(), hashed.end(), block.begin());
  } else {
    std::copy(key.begin(), key.end(), block.begin());
  }
  std::string inner_pad(block);
  std::string outer_pad(block);
  for (std::size_t i = 0; i < k_block; ++i) {
    inner_pad[i] = static_cast<char>(inner_pad[i] ^ 0x36);
    outer_pad[i] = static_cast<char>(outer_pad[i] ^ 0x5c);
  }
  util::Sha256 inner;
  inner.update(inner_pad);
  inner.update(message);
  const util::Sha256Digest inner_digest = inner.digest();
  util::Sha256 outer;
  outer.update(outer_pad);
  outer.update(std::string_view(reinterpret_cast<const char*>(inner_digest.data()), inner_digest.size()));
  return outer.digest();
}

Result<std::string> token_path(const util::Environment& env, std::string_view location)
{
  std::string state;
  const auto xdg = env.get("XDG_STATE_HOME");
  if (xdg && !xdg->empty() && (*xdg)[0] == '/') {
    state = *xdg;
  } else {
    const auto home = env.get("HOME");
    if (!home || home->empty()) {
      return make_error(ErrorCode::usage,
                        "cannot place the serve token: neither XDG_STATE_HOME nor HOME is set");
    }
    state = *home + "/.local/state";
  }
  const std::string key = util::to_hex(util::sha256(location)).substr(0, 24);
  return fmt::format("{}/mailroom/serve/{}.token", state, key);
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
  const util::Sha256Digest mac = hmac_sha256(m_token, "session");
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
