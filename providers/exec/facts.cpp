#include "exec/facts.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/atomic_file.hpp"
#include "util/file_read.hpp"
#include "util/xdg.hpp"

namespace mailroom::providers::exec {

namespace {

using nlohmann::json;

constexpr int k_cache_version = 1;

std::optional<ScriptKey> key_of(const std::string& candidate)
{
  // realpath(3), not std::filesystem::canonical: the same walk, without pulling path parsing
  // into every exec command's start-up.
  char* resolved = ::realpath(candidate.c_str(), nullptr);
  if (resolved == nullptr) {
    return std::nullopt;
  }
  ScriptKey key;
  key.path = resolved;
  std::free(resolved); // NOLINT(cppcoreguidelines-no-malloc): realpath(3) allocates with malloc
  struct stat st {};
  if (::stat(key.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return std::nullopt;
  }
  key.size = static_cast<std::uint64_t>(st.st_size);
  key.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return key;
}

std::string absolute_in(const std::string& dir, const std::string& name)
{
  if (!name.empty() && name.front() == '/') {
    return name;
  }
  return dir + "/" + name;
}

json read_document(const std::string& file)
{
  const std::optional<std::string> text = util::read_file(file);
  if (!text) {
    return json();
  }
  json doc = json::parse(*text, nullptr, false);
  if (!doc.is_object() || doc.value("version", 0) != k_cache_version || !doc.contains("scripts") ||
      !doc["scripts"].is_object()) {
    return json();
  }
  return doc;
}

} // namespace

void replace_private_file(const std::string& file, const std::string& text)
{
  const std::filesystem::path target(file);
  const std::filesystem::path dir = target.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return;
  }
  // A cache that cannot be written is only asked again next time.
  (void)util::write_file_atomically(file, text, 0600);
}

std::optional<ScriptKey> identify_script(const std::string& command, const util::Environment& env)
{
  if (command.empty()) {
    return std::nullopt;
  }
  const std::string cwd = env.cwd();
  if (command.find('/') != std::string::npos) {
    return key_of(absolute_in(cwd, command));
  }
  // execvp: the first executable regular file along $PATH; an empty entry is the working directory.
  const std::string path = env.get("PATH").value_or("/usr/local/bin:/usr/bin:/bin");
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    const std::string dir = path.substr(start, end - start);
    const std::string candidate = absolute_in(cwd, (dir.empty() ? std::string(".") : dir) + "/" + command);
    if (::access(candidate.c_str(), X_OK) == 0) {
      if (auto key = key_of(candidate)) {
        return key;
      }
    }
    start = end + 1;
  }
  return std::nullopt;
}

std::string default_facts_path(const util::Environment& env)
{
  const std::optional<std::string> cache = util::xdg_home(env, util::XdgDir::cache);
  return cache ? *cache + "/mailroom/exec-capabilities.json" : std::string();
}

FactsCache::FactsCache(std::string file) : m_file(std::move(file)) {}

ScriptFacts FactsCache::load(const ScriptKey& key) const
{
  ScriptFacts facts;
  if (m_file.empty()) {
    return facts;
  }
  const json doc = read_document(m_file);
  if (doc.is_null()) {
    return facts;
  }
  const auto entry = doc["scripts"].find(key.path);
  if (entry == doc["scripts"].end() || !entry->is_object()) {
    return facts;
  }
  const json& e = *entry;
  if (!e.contains("size") || !e.contains("mtime_ns") || !e["size"].is_number_unsigned() ||
      !e["mtime_ns"].is_number_integer() || e["size"].get<std::uint64_t>() != key.size ||
      e["mtime_ns"].get<std::int64_t>() != key.mtime_ns) {
    return facts; // another version of the script: forget it
  }
  facts.ensure_running_absent = e.value("ensure_running_absent", false);
  if (const auto absent = e.find("absent_ops");
      absent != e.end() && absent->is_array() &&
      std::all_of(absent->begin(), absent->end(), [](const json& op) { return op.is_string(); })) {
    facts.absent_ops = absent->get<std::vector<std::string>>();
  }
  if (const auto caps = e.find("capabilities"); caps != e.end()) {
    if (caps->is_null()) {
      facts.probed = true;
    } else if (caps->is_array() &&
               std::all_of(caps->begin(), caps->end(), [](const json& op) { return op.is_string(); })) {
      facts.probed = true;
      facts.ops = caps->get<std::vector<std::string>>();
    }
  }
  return facts;
}

void FactsCache::store(const ScriptKey& key, const ScriptFacts& facts) const
{
  if (m_file.empty()) {
    return;
  }
  json doc = read_document(m_file);
  if (doc.is_null()) {
    doc = json{{"version", k_cache_version}, {"scripts", json::object()}};
  }
  json entry = {{"size", key.size},
                {"mtime_ns", key.mtime_ns},
                {"learned_at", static_cast<std::int64_t>(::time(nullptr))},
                {"ensure_running_absent", facts.ensure_running_absent}};
  if (!facts.absent_ops.empty()) {
    entry["absent_ops"] = facts.absent_ops;
  }
  if (facts.probed) {
    entry["capabilities"] = facts.ops ? json(*facts.ops) : json(nullptr);
  }
  json& scripts = doc["scripts"];
  scripts[key.path] = std::move(entry);
  // Keep the most recently learned scripts.
  const auto learned_at = [](const json& e) {
    const auto it = e.is_object() ? e.find("learned_at") : e.end();
    return it != e.end() && it->is_number_integer() ? it->get<std::int64_t>() : std::int64_t{0};
  };
  while (scripts.size() > k_max_facts_entries) {
    auto oldest = scripts.end();
    for (auto it = scripts.begin(); it != scripts.end(); ++it) {
      if (it.key() != key.path && (oldest == scripts.end() || learned_at(*it) < learned_at(*oldest))) {
        oldest = it;
      }
    }
    if (oldest == scripts.end()) {
      break;
    }
    scripts.erase(oldest);
  }
  replace_private_file(m_file, doc.dump() + "\n");
}

} // namespace mailroom::providers::exec
