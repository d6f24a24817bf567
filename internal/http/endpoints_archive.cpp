// POST archive: the CLI's archive with gc's filters (ops/archive_matching.hpp), acting as the
// operator, who may name any mailbox ("to") or every one ("all_recipients"). Message ids are not
// taken here: archiving one message is POST messages/{id}/archive.

#include "endpoints.hpp"
#include "ops/archive_matching.hpp"
#include "ops/arguments.hpp"

namespace mailroom::http {

using nlohmann::json;
namespace args = ops::args;

json archive_matching_args()
{
  return args::input(json{{"to", args::string("the mailbox whose mail is archived")},
                          {"all_recipients", args::boolean("every mailbox's matching mail instead")},
                          {"from", args::string("only mail from this sender")},
                          {"subject_prefix", args::string("only mail whose subject starts with this")},
                          {"subject_contains", args::string("only mail whose subject contains this")},
                          {"empty_body", args::boolean("only messages with an empty body")},
                          {"include_read", args::boolean("read mail too")},
                          {"limit", args::integer("at most this many (default 100)", 1, 100000)},
                          {"dry_run", args::boolean("list what would be archived, change nothing")}});
}

Result<json> archive_matching(Call& call)
{
  ops::ArchiveMatchRequest request;
  request.to = args::arg_string(call.args, "to");
  request.all_recipients = args::arg_flag(call.args, "all_recipients");
  request.filter.from = args::arg_string(call.args, "from");
  request.filter.subject_prefix = args::arg_string(call.args, "subject_prefix");
  request.filter.subject_contains = args::arg_string(call.args, "subject_contains");
  request.filter.empty_body = args::arg_flag(call.args, "empty_body");
  request.include_read = args::arg_flag(call.args, "include_read");
  if (const auto limit = args::arg_integer(call.args, "limit")) {
    request.limit = std::to_string(*limit);
  }
  request.dry_run = args::arg_flag(call.args, "dry_run");
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::ArchiveMatchResult result, ops::archive_matching(session, request));
        return ops::to_json(result);
      });
}

} // namespace mailroom::http
