#pragma once

// The XDG base directories (the XDG Base Directory Specification), looked up in one place: the
// config file, the user-wide store, the state (serve's token, settings backups and install
// records) and the caches (exec capabilities and hook answers, PostgreSQL hosts).

#include <optional>
#include <string>
#include <string_view>

#include "util/environment.hpp"

namespace mailroom::util {

enum class XdgDir {
  config, // $XDG_CONFIG_HOME, else ~/.config
  data,   // $XDG_DATA_HOME, else ~/.local/share
  state,  // $XDG_STATE_HOME, else ~/.local/state
  cache,  // $XDG_CACHE_HOME, else ~/.cache
};

// The variable's name, "XDG_CONFIG_HOME" …, for messages and origins.
std::string_view xdg_variable(XdgDir dir);

// The base directory: the variable when it holds an absolute path (the specification ignores a
// relative one), else $HOME and the default; nullopt when neither is set.
std::optional<std::string> xdg_home(const Environment& env, XdgDir dir);

} // namespace mailroom::util
