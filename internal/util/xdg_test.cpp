#include "util/xdg.hpp"

#include <doctest/doctest.h>

namespace mailroom::util {
namespace {

TEST_CASE("xdg_home: the variable when absolute, else HOME and the default, else nothing")
{
  const MapEnvironment set({{"XDG_STATE_HOME", "/s"}, {"XDG_CACHE_HOME", "relative"}, {"HOME", "/h"}}, "/");
  CHECK(xdg_home(set, XdgDir::state) == "/s");
  CHECK(xdg_home(set, XdgDir::cache) == "/h/.cache"); // a relative path is ignored
  CHECK(xdg_home(set, XdgDir::config) == "/h/.config");
  CHECK(xdg_home(set, XdgDir::data) == "/h/.local/share");
  const MapEnvironment empty({{"HOME", ""}}, "/");
  CHECK_FALSE(xdg_home(empty, XdgDir::state).has_value());
  CHECK(xdg_variable(XdgDir::data) == "XDG_DATA_HOME");
}

} // namespace
} // namespace mailroom::util
