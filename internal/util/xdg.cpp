#include "util/xdg.hpp"

namespace mailroom::util {

std::string_view xdg_variable(XdgDir dir)
{
  switch (dir) {
  case XdgDir::config:
    return "XDG_CONFIG_HOME";
  case XdgDir::data:
    return "XDG_DATA_HOME";
  case XdgDir::state:
    return "XDG_STATE_HOME";
  case XdgDir::cache:
    return "XDG_CACHE_HOME";
  }
  return {};
}

std::optional<std::string> xdg_home(const Environment& env, XdgDir dir)
{
  const std::optional<std::string> set = env.get(xdg_variable(dir));
  if (set && !set->empty() && set->front() == '/') {
    return *set;
  }
  const std::optional<std::string> home = env.get("HOME");
  if (!home || home->empty()) {
    return std::nullopt;
  }
  switch (dir) {
  case XdgDir::config:
    return *home + "/.config";
  case XdgDir::data:
    return *home + "/.local/share";
  case XdgDir::state:
    return *home + "/.local/state";
  case XdgDir::cache:
    return *home + "/.cache";
  }
  return std::nullopt;
}

} // namespace mailroom::util
