#pragma once

// Request targets of `mailroom serve`: the path split into percent-decoded segments (so
// `rig%2Fname` is one segment, `rig/name`), the query string decoded into pairs, and the API
// route a method and path name. No network here.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

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

enum class Endpoint {
  asset,            // not under /api: the page's assets
  session,          // POST /api/v1/session
  team,             // GET team
  peers,            // GET peers[?mailbox=NAME]
  mailboxes,        // GET mailboxes
  mailbox_messages, // GET mailboxes/{name}/messages
  message,          // GET messages/{id}
  thread,           // GET threads/{id}
  status,           // GET status/{id}
  traces,           // GET traces
  trace,            // GET traces/{id}
  search,           // GET search
  events,           // GET events
  send,             // POST messages
  reply,            // POST messages/{id}/reply
  change,           // POST messages/{id}/{read|unread|archive|unarchive|delete|ack}
  request,          // POST messages/{id}/{cancel|decline|ask|fail}
  schedules,        // GET schedules (list), POST schedules (add)
  schedule,         // GET schedules/{from}/{name}
  schedule_action,  // POST schedules/{from}/{name}/{pause|resume|cancel|run-now}
};

struct Route {
  Endpoint endpoint = Endpoint::asset;
  std::string id;        // {name} or {id}; schedules: {from}
  std::string action;    // change: read, unread, archive, unarchive, delete, ack; request: cancel,
                         // decline, ask, fail; schedule_action's
  std::string name = {}; // schedules: {name}
};

// Why a request has no route: an unknown path (404) or a known path with another method (405).
struct NoRoute {
  int status = 404;
};

// The route of `method` on `target`. GET covers HEAD.
std::variant<Route, NoRoute> route(std::string_view method, const Target& target);

} // namespace mailroom::http
