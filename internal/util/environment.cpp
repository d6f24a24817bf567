#include "util/environment.hpp"

#include <algorithm>
#include <string_view>

extern char** environ; // NOLINT: the process environment, read only

namespace mailroom::util {

std::vector<std::string> build_environment(const std::vector<std::pair<std::string, std::string>>& extra)
{
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool replaced = std::any_of(extra.begin(), extra.end(),
                                      [&](const auto& kv) { return kv.first == name; });
    if (!replaced) {
      env.emplace_back(text);
    }
  }
  for (const auto& [name, value] : extra) {
    env.push_back(name + "=" + value);
  }
  return env;
}

} // namespace mailroom::util
