#include "dashboard/assets.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "dashboard/asset_table.hpp"

namespace mailroom::dashboard {

namespace {

bool ends_with(std::string_view s, std::string_view suffix)
{
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view type_for(std::string_view path)
{
  if (path == "/" || path == "/login" || ends_with(path, ".html")) {
    return "text/html; charset=utf-8";
  }
  if (ends_with(path, ".css")) {
    return "text/css; charset=utf-8";
  }
  if (ends_with(path, ".js")) {
    return "text/javascript; charset=utf-8";
  }
  return "";
}

// The source file an asset path was built from.
std::string source_of(std::string_view path)
{
  std::string name = path == "/"        ? "index.html"
                     : path == "/login" ? "login.html"
                                        : std::string(path.substr(8));
  std::ifstream in(std::string(MAILROOM_TESTDATA_DIR) + "/../internal/dashboard/" + name, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

TEST_CASE("dashboard: the page, the login page, the stylesheet and every module are built in")
{
  for (std::string_view path :
       {"/", "/login", "/assets/style.css", "/assets/app.js", "/assets/login.js", "/assets/api.js",
        "/assets/safe.js", "/assets/events.js", "/assets/team.js", "/assets/mailbox.js", "/assets/traces.js",
        "/assets/health.js", "/assets/search.js", "/assets/message.js", "/assets/compose.js",
        "/assets/fmt.js", "/assets/schedules.js"}) {
    CAPTURE(path);
    const Asset* asset = find_asset(path);
    REQUIRE(asset != nullptr);
    CHECK(asset->content_type == type_for(path));
    CHECK(!asset->body.empty());
  }
  CHECK(find_asset("/")->body.find("<script type=\"module\" src=\"/assets/app.js\"></script>") !=
        std::string_view::npos);
  CHECK(find_asset("/login")->body.find("/assets/login.js") != std::string_view::npos);
}

TEST_CASE("dashboard: every entry has a known content type and its file's exact bytes")
{
  REQUIRE(!asset_entries().empty());
  for (const AssetEntry& entry : asset_entries()) {
    CAPTURE(entry.path);
    CHECK(entry.path.starts_with("/"));
    CHECK(entry.asset.content_type == type_for(entry.path));
    CHECK(find_asset(entry.path) == &entry.asset);
    CHECK(entry.asset.body == source_of(entry.path));
    // No file is cut at a NUL or padded with one: the text assets hold none.
    CHECK(entry.asset.body.find('\0') == std::string_view::npos);
  }
}

TEST_CASE("dashboard: any other path is not an asset")
{
  for (std::string_view path : {"", "/index.html", "/login.html", "/assets/", "/assets", "/assets/style.css/",
                                "/assets/../index.html", "/assets/style.css?x=1", "/api/v1/team", "/LOGIN",
                                "/assets/assets.cpp", "/assets/asset_table.hpp"}) {
    CAPTURE(path);
    CHECK(find_asset(path) == nullptr);
  }
}

} // namespace mailroom::dashboard
