#include "exec/hook_cache.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "exec/facts.hpp"
#include "text/base64.hpp"
#include "util/file_read.hpp"
#include "util/sha256.hpp"

namespace mailroom::providers::exec {

namespace {

using nlohmann::json;

constexpr int k_hook_cache_version = 1;

} // namespace

HookCache::HookCache(const std::string& dir, const std::string& script, const mail::Mailbox& mailbox)
{
  if (dir.empty()) {
    return;
  }
  // One file per (script, mailbox); the name says nothing of either.
  const std::string key = util::to_hex(util::sha256(fmt::format("{}\n{}", script, mailbox))).substr(0, 32);
  m_file = fmt::format("{}/{}.json", dir, key);
  m_lock = fmt::format("{}/{}.lock", dir, key);
}

std::string HookCache::dir_beside(const std::string& facts_file)
{
  const std::size_t slash = facts_file.rfind('/');
  if (facts_file.empty() || slash == std::string::npos) {
    return {};
  }
  return facts_file.substr(0, slash) + "/hook";
}

KeptAnswer HookCache::load() const
{
  KeptAnswer kept;
  if (m_file.empty()) {
    return kept;
  }
  const std::optional<std::string> text = util::read_file(m_file);
  if (!text) {
    return kept;
  }
  const json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || doc.value("version", 0) != k_hook_cache_version) {
    return kept;
  }
  const auto at = doc.find("at");
  const auto output = doc.find("output_b64");
  if (at != doc.end() && at->is_number_integer() && output != doc.end() && output->is_string()) {
    if (auto decoded = text::base64_decode(output->get_ref<const std::string&>())) {
      kept.at = at->get<std::int64_t>();
      kept.output = std::move(*decoded);
    }
  }
  const auto failed_at = doc.find("failed_at");
  const auto error = doc.find("error_b64");
  if (failed_at != doc.end() && failed_at->is_number_integer() && error != doc.end() && error->is_string()) {
    if (auto decoded = text::base64_decode(error->get_ref<const std::string&>())) {
      kept.failed_at = failed_at->get<std::int64_t>();
      kept.error = std::move(*decoded);
    }
  }
  return kept;
}

void HookCache::store(const KeptAnswer& kept) const
{
  if (m_file.empty()) {
    return;
  }
  json doc = {{"version", k_hook_cache_version}};
  if (kept.at) {
    doc["at"] = *kept.at;
    doc["output_b64"] = text::base64_encode(kept.output);
  }
  if (kept.failed_at) {
    doc["failed_at"] = *kept.failed_at;
    doc["error_b64"] = text::base64_encode(kept.error);
  }
  replace_private_file(m_file, doc.dump() + "\n");
}

HookCache::Lock::~Lock()
{
  if (m_fd >= 0) {
    ::close(m_fd); // releases the flock
  }
}

std::optional<HookCache::Lock> HookCache::try_lock() const
{
  if (m_lock.empty()) {
    return std::nullopt;
  }
  const std::filesystem::path dir = std::filesystem::path(m_lock).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir.parent_path(), ec);
  ::mkdir(dir.c_str(), 0700); // an existing one is kept as it is
  const int fd = ::open(m_lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return std::nullopt;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  return Lock(fd);
}

bool HookCache::busy() const
{
  if (m_lock.empty()) {
    return false;
  }
  const int fd = ::open(m_lock.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return false; // never locked: nothing runs
  }
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

} // namespace mailroom::providers::exec
