#pragma once

// Request targets of `mailroom serve` and the route table's shape: the path split into
// percent-decoded segments (so `rig%2Fname` is one segment, `rig/name`), the query string decoded
// into pairs, and the row of the API's route table (routes.cpp) a method and path name, with the
// path's parameters. No network here.

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace mailroom::http {

// `text` with each %XX decoded (and `+` as a space when `plus_is_space`, as in a query).
// Errors: usage (a bad escape, or a decoded NUL byte).
Result<std::string> percent_decode(std::string_view text, bool plus_is_space);

struct Target {
  std::string path;                         // as sent, before decoding
  std::vector<std::string> segments;        // the path's segments, each decoded
  std::map<std::string, std::string> query; // decoded; the last of a repeated name wins
};
// Errors: usage (a target that is not an absolute path, a bad escape).
Result<Target> parse_target(std::string_view target);

struct Call; // endpoints.hpp: what an endpoint runs with

// Who may call a route: anyone (the login), a bearer of the token or of a browser's session
// token, or a bearer of the token itself (what only the token's owner may do, such as asking
// for a login code).
enum class Auth { none, bearer, token };

// One row of the API's route table (routes.cpp), as the command table has one per command and
// the MCP server one per tool.
struct RouteSpec {
  std::string_view method; // GET (which answers HEAD too) or POST
  // Under /api/v1/: literal segments and {name} parameters, one segment each
  // ("messages/{id}/reply").
  std::string_view path;
  // The endpoint (endpoints.hpp): the --json object of the operation it calls, or an error.
  Result<nlohmann::json> (*run)(Call& call);
  // The arguments it takes, an ops::args::input schema: of a GET, the query parameters (each a
  // string); of a POST, the keys of its JSON body. Anything else is a usage error (400).
  nlohmann::json (*args)();
  Auth auth = Auth::bearer;
};

// The API's route table.
std::span<const RouteSpec> api_routes();

// A route found: the row (nullptr for a path outside /api/: the page's assets) and the values of
// its {name} parameters, decoded.
struct Route {
  const RouteSpec* spec = nullptr;
  std::vector<std::pair<std::string_view, std::string>> params;
  // The value of parameter `name` ("" when the row has none of that name).
  const std::string& param(std::string_view name) const;
};

// Why a request has no route: an unknown path (404) or a known path with another method (405,
// with the methods the path takes, for the Allow header).
struct NoRoute {
  int status = 404;
  std::string allow;
};

// The route of `method` on `target` in `table`. GET rows answer HEAD too.
std::variant<Route, NoRoute> route(std::string_view method, const Target& target,
                                   std::span<const RouteSpec> table = api_routes());

} // namespace mailroom::http
