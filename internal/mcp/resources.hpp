#pragma once

// The resources of `mailroom mcp` (contract "MCP, round 2"): `mailroom://inbox` (the server's
// unread list), the templates `mailroom://message/{id}` and `mailroom://thread/{id}`, and, under
// `--open-views` only, `mailroom://inbox/{mailbox}`. A resource is read as the structuredContent of
// the tool that shows the same thing (inbox, peek, thread) run with its default arguments: the
// same operation, the same identity and --open-views rules, the same JSON, bodies cut and the list
// bounded as the tool's are. Reading a resource changes nothing and records no presence (a view).
// Contents are one text item, mimeType application/json, holding that JSON as `--json` writes it.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mail/events.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

// "Resource not found" (contract: as the era specifies): -32002 before 2026-07-28, -32602 (invalid
// params) in 2026-07-28; data {"uri"}.
inline constexpr int k_resource_not_found_legacy = -32002;

enum class ResourceKind { inbox, message, thread };

// A parsed resource URI: the inbox (arg: the mailbox named, empty for the server's own), or a
// message or thread (arg: the id as given, a unique prefix allowed, percent-decoded).
struct ResourceRef {
  ResourceKind kind = ResourceKind::inbox;
  std::string arg;
  bool operator==(const ResourceRef&) const = default;
};

// The resource `uri` names, or nullopt when it names none of them (another scheme, an unknown
// path, an empty or malformed id). Ids are percent-decoded (RFC 6570 simple expansion encodes
// reserved characters); a decoded id holding '/' or a control character names nothing.
std::optional<ResourceRef> parse_resource_uri(std::string_view uri);

// The resources/list result's "resources" array (the inbox; static).
json resource_list();
// The resources/templates/list result's "resourceTemplates" array.
json resource_templates(bool open_views);

// What one read found.
struct ResourceRead {
  enum class Outcome { found, not_found, failed };
  Outcome outcome = Outcome::failed;
  // found: the tool's structuredContent; otherwise the CLI's error object
  // ({"schema_version":1,"ok":false,"error":{"code",…}}).
  json structured;
};

// Reads `ref` as the server's identity (a connection of env's pool). Never throws.
ResourceRead read_resource(const ToolEnv& env, const ResourceRef& ref);
// True when `read` failed because the store did not answer (store_error, provider_error,
// timeout): not an answer about the resource; ask again later.
bool store_away(const ResourceRead& read);

// The resources/read result for a found resource.
json read_contents(std::string_view uri, const json& structured);

// What the watcher remembers of a subscribed resource to tell whether an event may change it.
struct WatchedView {
  ResourceKind kind = ResourceKind::inbox;
  mail::Mailbox mailbox;          // inbox: whose deliveries it lists
  std::set<std::string> messages; // message: its full id; thread: the ids of its messages
};

// The view of `ref` as read: the inbox's mailbox (`me` for the server's own), the message ids that
// `structured` (a found read) shows.
WatchedView watched_view(const ResourceRef& ref, const std::string& me, const json& structured);

// Whether `event` may change what the resource shows (a hint: the watcher reads it again and
// compares): the inbox, any change to its mailbox's deliveries; a message, any change to that
// message (another recipient's delivery too: its sender sees them); a thread, a change to one of
// its messages or any new message (it may be a reply in the thread). Schedule events never.
bool may_change(const WatchedView& view, const mail::Event& event);
// Whether `event` certainly changes what the resource shows, so the watcher tells at once and reads
// it afterwards: new mail to an inbox's mailbox (one more unread message).
bool surely_changes(const WatchedView& view, const mail::Event& event);

// A digest of a read's outcome, compared between reads: equal digests mean nothing visible
// changed.
std::uint64_t read_digest(const ResourceRead& read);

} // namespace mailroom::mcp
