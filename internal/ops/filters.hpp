#pragma once

// What the list operations (inbox, sent, search) share: the filters as typed, resolved into
// mail::Filters; the limit; and the list's JSON and "Showing N of M" line.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/views.hpp"
#include "session.hpp"
#include "text/display.hpp"

namespace mailroom::ops {

// The contract's filters, as typed (the CLI's --from … --thread; the MCP tools' arguments).
struct FilterRequest {
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::vector<std::string> types;
  std::optional<std::string> priority;
  std::optional<std::string> since;
  std::optional<std::string> until;
  bool unread = false;
  bool archived = false;
  std::optional<std::string> thread;
};

// `typed` checked and resolved: from/to must be mailboxes; types go through the type table (a
// likely typo is a did-you-mean); priority is a name or 0-4; since/until a duration ago or a time
// (mail::parse_time_or_age); thread a thread id, or a message id (or a unique prefix of one)
// standing for its thread. Errors: usage, invalid_recipient, not_found (an unknown thread),
// ambiguous_id, the provider's errors.
Result<mail::Filters> resolve_filters(Session& session, mail::Provider& provider, const FilterRequest& typed);

// `value` as one mailbox name, for a flag such as --from. Errors: invalid_recipient (not even an
// address), usage (an address that is not one mailbox, such as @all).
Result<std::optional<mail::Mailbox>> mailbox_flag(const std::optional<std::string>& value,
                                                  std::string_view flag);

// The thread `typed` names: a thread id, a message id in it, or a unique prefix of a message id.
// Errors: not_found ("thread or message ..."), ambiguous_id, the provider's errors.
Result<mail::ThreadId> resolve_thread(Session& session, mail::Provider& provider, const std::string& typed);

// How many messages a list shows: `limit`, else the default (50); none with `no_limit`.
struct LimitRequest {
  std::optional<std::size_t> limit;
  bool no_limit = false;
};
std::optional<std::size_t> list_limit(const LimitRequest& limit);

// How much of each body a list loads: the preview (mail::k_preview_bytes) when only a preview is
// shown (the CLI's tables show one line of it); else the whole body (JSON's message objects
// promise it: "body_truncated" is false on the CLI).
std::optional<std::size_t> list_body_bytes(bool previews);

// Lists `query` (its mailbox, box and include_read set by the caller) on `provider` with the
// request's limit, previews and filters: sets the result's `listed`, `filters` (as resolved) and
// `now`. Errors: those of resolve_filters, the provider's errors.
template <typename Request, typename Listing>
Result<void> run_list(Session& session, mail::Provider& provider, mail::ListQuery query,
                      const Request& request, Listing& result)
{
  query.limit = list_limit(request.limit);
  query.body_bytes = list_body_bytes(request.previews);
  TRY_ASSIGN(query.filters, resolve_filters(session, provider, request.filters));
  TRY_ASSIGN(result.listed, provider.list(query));
  result.filters = std::move(query.filters);
  result.now = session.clock.now();
  return {};
}

// {"schema_version":1,"mailbox":…,"messages":[message…],"total":N,"has_more":bool}; each message
// of a sent list carries its "summary".
nlohmann::json list_to_json(const mail::Mailbox& mailbox, const mail::ListResult& listed);
// list_to_json's schema with `extra` required keys.
nlohmann::json list_output_schema(std::initializer_list<std::pair<const char*, nlohmann::json>> extra = {});

// "Showing N of M; --limit to see more\n" when the list was cut, else "".
text::DisplayText showing_line(const mail::ListResult& listed);

// The messages of `listed`, without their summaries.
std::vector<mail::Message> messages_of(const mail::ListResult& listed);

} // namespace mailroom::ops
