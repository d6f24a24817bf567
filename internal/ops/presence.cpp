#include "presence.hpp"

#include <array>
#include <utility>

namespace mailroom::ops {

namespace {

using Row = std::pair<std::string_view, PresenceKind>;

// Every operation a surface runs as a mailbox, CLI commands and MCP tools by one name each
// (docs/delivery-health.md "Presence"). Views are listed so that a new operation is a decision,
// not an omission: presence_test.cpp and the MCP tool tests check that every tool has a row.
constexpr std::array k_presence = {
    Row{"ack", PresenceKind::write},
    Row{"agents", PresenceKind::none},
    Row{"archive", PresenceKind::write},
    Row{"ask", PresenceKind::write},
    Row{"cancel", PresenceKind::write},
    Row{"check", PresenceKind::read},
    Row{"config", PresenceKind::none},
    Row{"count", PresenceKind::read},
    Row{"decline", PresenceKind::write},
    Row{"delete", PresenceKind::write},
    Row{"fail", PresenceKind::write},
    Row{"inbox", PresenceKind::read},
    Row{"mark-read", PresenceKind::write},
    Row{"mark-unread", PresenceKind::write},
    Row{"peek", PresenceKind::none},
    Row{"peers", PresenceKind::none},
    Row{"read", PresenceKind::write},
    Row{"reply", PresenceKind::write},
    Row{"resources/read", PresenceKind::none}, // MCP: a resource read is a view, as peek is
    Row{"schedule-add", PresenceKind::write},
    Row{"schedule-cancel", PresenceKind::write},
    Row{"schedule-edit", PresenceKind::write},
    Row{"schedule-list", PresenceKind::none},
    Row{"schedule-pause", PresenceKind::write},
    Row{"schedule-resume", PresenceKind::write},
    Row{"schedule-run-due", PresenceKind::none}, // a firer's pass, for every sender
    Row{"schedule-run-now", PresenceKind::write},
    Row{"schedule-show", PresenceKind::none},
    Row{"search", PresenceKind::read},
    Row{"send", PresenceKind::write},
    Row{"sent", PresenceKind::read},
    Row{"status", PresenceKind::none},
    Row{"team", PresenceKind::none},
    Row{"thread", PresenceKind::none},
    Row{"trace", PresenceKind::none},
    Row{"unarchive", PresenceKind::write},
    Row{"wait", PresenceKind::wait},
    Row{"wake-status", PresenceKind::none},
    Row{"watch", PresenceKind::wait},
};

// `mark_read` (a tool), `mark-read` (a command) are one name, and so are `schedule_add` (a tool)
// and `schedule add` (a command and its subcommand).
bool same_operation(std::string_view row, std::string_view name)
{
  if (row.size() != name.size()) {
    return false;
  }
  for (std::size_t i = 0; i < row.size(); ++i) {
    if ((name[i] == '_' || name[i] == ' ' ? '-' : name[i]) != row[i]) {
      return false;
    }
  }
  return true;
}

} // namespace

PresenceKind presence_kind(std::string_view operation)
{
  for (const auto& [name, kind] : k_presence) {
    if (same_operation(name, operation)) {
      return kind;
    }
  }
  return PresenceKind::none;
}

std::optional<mail::SeenVia> presence_of(std::string_view operation, Source source)
{
  const PresenceKind kind = presence_kind(operation);
  if (kind == PresenceKind::none) {
    return std::nullopt;
  }
  switch (source) {
  case Source::mcp:
    return mail::SeenVia::mcp;
  case Source::http:
    return mail::SeenVia::http;
  case Source::command:
    break;
  }
  if (operation == "check") {
    return mail::SeenVia::check;
  }
  if (operation == "wait") {
    return mail::SeenVia::wait;
  }
  if (operation == "watch") {
    return mail::SeenVia::watch;
  }
  return mail::SeenVia::command;
}

std::optional<mail::SeenVia> presence_of_request(std::string_view method)
{
  if (method == "GET" || method == "HEAD") {
    return std::nullopt;
  }
  return mail::SeenVia::http;
}

Presence Presence::of(Session& session, std::string_view operation, Source source)
{
  session.presence = presence_of(operation, source);
  return Presence{session.presence ? presence_kind(operation) : PresenceKind::none};
}

Presence Presence::of_request(Session& session, std::string_view method)
{
  session.presence = presence_of_request(method);
  return Presence{session.presence ? PresenceKind::write : PresenceKind::none};
}

void Presence::before(Session& session) const
{
  // A failure to open the store here is the operation's to report, not presence's.
  if (kind == PresenceKind::wait && session.presence && session.provider().ok()) {
    record_presence(session);
  }
}

void Presence::after(Session& session) const
{
  if (kind == PresenceKind::read || kind == PresenceKind::write) {
    record_presence(session);
  }
}

void record_presence(Session& session, std::int64_t min_interval_ms)
{
  if (!session.presence || !session.providers.opened()) {
    return;
  }
  auto provider = session.provider();
  if (!provider.ok()) {
    return;
  }
  if (*session.presence == mail::SeenVia::hook) {
    // The hook's own last-run time, for [wake] idle_after: written on every run, never throttled
    // (decisions after review, "Timing"), and only for a mailbox with a wake target.
    if (mail::Wakes* wakes = (*provider)->facets().wakes) {
      (void)wakes->hook_ran(session.me.name);
    }
  }
  // Presence is a courtesy: a store without a registry has nowhere to keep it.
  if (mail::Registry* registry = (*provider)->facets().registry) {
    (void)registry->touch(session.me.name, min_interval_ms, *session.presence);
  }
}

} // namespace mailroom::ops
