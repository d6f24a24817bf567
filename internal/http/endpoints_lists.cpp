// GET /api/v1/mailboxes/{name}/messages?box=in|out|all&limit=&cursor=: one page of a mailbox's
// mail, each box as a CLI command lists it (in: `inbox`, its unread mail in inbox order; out:
// `sent`; all: `inbox --all` and `sent` together, newest first), with the named mailbox's read,
// archived and ack state. The cursor holds
// how many were shown; a page is the operation's list from there (the stores page by limit).

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "cursor.hpp"
#include "endpoints.hpp"
#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "ops/arguments.hpp"
#include "ops/filters.hpp"
#include "ops/inbox.hpp"
#include "ops/sent.hpp"

namespace mailroom::http {

namespace {

using nlohmann::json;

constexpr std::size_t k_max_page = 500;

struct Page {
  std::size_t offset = 0;
  std::size_t limit = mail::k_default_list_limit;
};

// Keeps messages [offset, offset + limit) of `listed`.
void cut(mail::ListResult& listed, const Page& page)
{
  auto& m = listed.messages;
  m.erase(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(std::min(page.offset, m.size())));
  if (m.size() > page.limit) {
    m.resize(page.limit);
  }
}

void add_paging(json& doc, std::string_view box, const Page& page, std::size_t shown, std::int64_t total)
{
  const std::size_t next = page.offset + shown;
  const bool more = static_cast<std::int64_t>(next) < total;
  doc["box"] = box;
  doc["has_more"] = more;
  doc["next_cursor"] = more ? json(encode_cursor(box, next)) : json(nullptr);
}

Result<json> all_box(ops::Session& session, const mail::Mailbox& mailbox, const Page& page)
{
  // Both lists whole (bodies as previews: a message's whole body is GET messages/{id}), merged
  // newest first; a message sent to oneself is listed once, as received.
  ops::InboxRequest in;
  in.mailbox = mailbox;
  in.all = true;
  in.limit.no_limit = true;
  in.previews = true;
  TRY_ASSIGN(ops::InboxResult received, ops::inbox(session, in));
  ops::SentRequest out;
  out.mailbox = mailbox;
  out.limit.no_limit = true;
  out.previews = true;
  TRY_ASSIGN(ops::SentResult sent, ops::sent(session, out));
  std::set<std::string> seen;
  mail::ListResult merged;
  for (mail::ListedMessage& m : received.listed.messages) {
    seen.insert(m.message.id);
    merged.messages.push_back(std::move(m));
  }
  for (mail::ListedMessage& m : sent.listed.messages) {
    if (!seen.contains(m.message.id)) {
      merged.messages.push_back(std::move(m));
    }
  }
  std::stable_sort(merged.messages.begin(), merged.messages.end(),
                   [](const mail::ListedMessage& a, const mail::ListedMessage& b) {
                     return a.message.created_at != b.message.created_at
                                ? a.message.created_at > b.message.created_at
                                : a.message.id > b.message.id;
                   });
  merged.total = static_cast<std::int64_t>(merged.messages.size());
  cut(merged, page);
  json doc = ops::list_to_json(mailbox, merged);
  doc["unread"] = received.listed.unread;
  add_paging(doc, "all", page, merged.messages.size(), merged.total);
  return doc;
}

} // namespace

json mailbox_messages_args()
{
  return ops::args::input(
      json{{"box", ops::args::enumeration("which box (default in)", {"in", "out", "all"})},
           {"limit", ops::args::string("at most this many messages (1-500, default 50)")},
           {"cursor", ops::args::string("the next_cursor of the previous page")}});
}

Result<json> mailbox_messages(Call& call)
{
  const std::string& name = call.route.param("name");
  if (!mail::is_valid_mailbox(name)) {
    return make_error(ErrorCode::usage, fmt::format("\"{}\" is not a mailbox", name),
                      "name one mailbox, e.g. mayor or rig%2Fmayor");
  }
  const std::string box = query(call, "box").value_or("in");
  Page page;
  TRY_ASSIGN(const std::optional<std::size_t> limit, query_count(call, "limit"));
  page.limit = std::min(limit.value_or(mail::k_default_list_limit), k_max_page);
  if (const auto cursor = query(call, "cursor"); cursor && !cursor->empty()) {
    TRY_ASSIGN(page.offset, decode_cursor(*cursor, box));
  }
  return with_session(call.env, call.env.me, call.request.method, [&](ops::Session& session) -> Result<json> {
    if (box == "all") {
      return all_box(session, name, page);
    }
    if (box == "in") {
      ops::InboxRequest request; // `inbox`: unread only, so `total` is the unread count
      request.mailbox = name;
      request.limit.limit = page.offset + page.limit;
      TRY_ASSIGN(ops::InboxResult result, ops::inbox(session, request));
      cut(result.listed, page);
      json doc = ops::to_json(result);
      add_paging(doc, box, page, result.listed.messages.size(), result.listed.total);
      return doc;
    }
    ops::SentRequest request;
    request.mailbox = name;
    request.limit.limit = page.offset + page.limit;
    TRY_ASSIGN(ops::SentResult result, ops::sent(session, request));
    cut(result.listed, page);
    json doc = ops::to_json(result);
    add_paging(doc, box, page, result.listed.messages.size(), result.listed.total);
    return doc;
  });
}

} // namespace mailroom::http
