#include "util/environment.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include <unistd.h>

extern char** environ; // NOLINT: the process environment, read only

namespace mailroom::util {

std::vector<std::string> build_environment(const std::vector<std::pair<std::string, std::string>>& extra)
{
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool replaced =
        std::any_of(extra.begin(), extra.end(), [&](const auto& kv) { return kv.first == name; });
    if (!replaced) {
      env.emplace_back(text);
    }
  }
  for (const auto& [name, value] : extra) {
    env.push_back(name + "=" + value);
  }
  return env;
}

std::optional<std::string> ProcessEnvironment::get(std::string_view name) const
{
  const char* value = std::getenv(std::string(name).c_str());
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

std::string ProcessEnvironment::cwd() const
{
  // getcwd(3) with glibc's own allocation (any length), not std::filesystem::current_path.
  char* path = ::getcwd(nullptr, 0);
  if (path == nullptr) {
    return ".";
  }
  std::string result(path);
  std::free(path); // NOLINT(cppcoreguidelines-no-malloc): getcwd(3) allocates with malloc
  return result;
}

std::optional<std::string> MapEnvironment::get(std::string_view name) const
{
  const auto it = m_vars.find(std::string(name));
  if (it == m_vars.end()) {
    return std::nullopt;
  }
  return it->second;
}

} // namespace mailroom::util
