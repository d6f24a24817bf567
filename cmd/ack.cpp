// mailroom ack: acknowledge messages explicitly, tracked or not (contract "Acknowledgement and
// delivery health"); --for acts on another recipient's delivery (operators), as [compat] gc does
// for a message with one recipient. Several ids: each is tried and reported, the exit code is the
// worst (contract "Multi-id actions").

#include <algorithm>

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct AckOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name;
};

struct Failure {
  std::string id;
  Error error;
};

// Says on stderr whose delivery the caller acts on (a JSON warning object under --json).
void say_acting_for(Context& ctx, const mail::Mailbox& name)
{
  const std::string message = fmt::format("acting for {}", name);
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["warning"] = {{"code", "acting_for"}, {"message", message}};
    ctx.out.err(render::dump_json(doc));
  } else {
    ctx.out.err(fmt::format("mailroom {}: {}\n", ctx.command, message));
  }
}

// `error` (not_recipient for the caller) naming the message's recipients and --for.
Error explain_not_recipient(mail::Provider& provider, const mail::MessageId& id, Error error)
{
  auto message = provider.get(std::string(mail::k_human), id);
  if (message.ok()) {
    std::vector<std::string> recipients = message->to;
    recipients.insert(recipients.end(), message->cc.begin(), message->cc.end());
    error.hint = fmt::format("its recipients are {}; to act for one, use --for NAME", join(recipients));
  } else {
    error.hint = "to act for a recipient, use --for NAME";
  }
  return error;
}

// Acks `typed` for the actor; a caller who is not a recipient acts for the message's only
// recipient under [compat] gc. `resolved` receives the full id.
Result<mail::ChangeOutcome> ack_one(Context& ctx, mail::Provider& provider, const AckOptions& opts,
                                    const std::string& typed, std::string& resolved)
{
  TRY_ASSIGN(resolved, provider.resolve_id(typed));
  mail::Actor actor = ctx.actor();
  if (opts.for_name) {
    actor.mailbox = *opts.for_name;
  }
  auto outcome = provider.change(actor, resolved, mail::Change::ack);
  if (outcome.ok() || outcome.error().code != ErrorCode::not_recipient || opts.for_name) {
    return outcome;
  }
  if (ctx.config.compat_gc.value) {
    auto message = provider.get(ctx.me.name, resolved);
    if (message.ok() && message->to.size() + message->cc.size() == 1) {
      const mail::Mailbox only = message->to.empty() ? message->cc.front() : message->to.front();
      say_acting_for(ctx, only);
      return provider.change(mail::Actor{only, ctx.me.name}, resolved, mail::Change::ack);
    }
  }
  return explain_not_recipient(provider, resolved, std::move(outcome).error());
}

ExitCode worse(ExitCode a, ExitCode b)
{
  return to_int(a) >= to_int(b) ? a : b;
}

Result<ExitCode> run_ack(Context& ctx, const AckOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.for_name) {
    if (!mail::is_valid_mailbox(*opts.for_name)) {
      TRY(mail::parse_address(*opts.for_name));
      return usage_error(fmt::format("--for \"{}\" is not a mailbox", *opts.for_name),
                         "name one mailbox, e.g. mayor or rig/mayor");
    }
    say_acting_for(ctx, *opts.for_name);
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  const bool single = opts.ids.size() == 1;
  std::vector<std::string> acked;
  std::vector<std::string> already;
  std::vector<Failure> failed;
  ExitCode worst = ExitCode::ok;
  for (const std::string& typed : opts.ids) {
    if (worst == ExitCode::failure) {
      // The store failed: the rest are not tried, and reported with the same code.
      failed.push_back({typed, failed.back().error});
      continue;
    }
    std::string id = typed;
    auto outcome = ack_one(ctx, *provider, opts, typed, id);
    if (!outcome.ok()) {
      if (single) {
        return std::move(outcome).error();
      }
      worst = worse(worst, to_exit_code(outcome.error().code));
      if (!ctx.json) {
        report_error(ctx.out, ctx.command, outcome.error(), false);
      }
      failed.push_back({typed, std::move(outcome).error()});
      continue;
    }
    const bool was_already = *outcome == mail::ChangeOutcome::already;
    (was_already ? already : acked).push_back(id);
    if (!ctx.json) {
      auto written = write_text(ctx, fmt::format("{} {}\n", was_already ? "Already acked" : "Acked", id));
      if (!written.ok() && !acked.empty()) {
        return make_error(ErrorCode::store_error, fmt::format("acked {} but {}", join(acked), written.error().message));
      }
      TRY(written);
    }
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = failed.empty();
    doc["ids"] = acked;
    doc["already"] = already;
    doc["failed"] = nlohmann::json::array();
    for (const Failure& f : failed) {
      doc["failed"].push_back({{"id", f.id}, {"code", std::string(to_string(f.error.code))}});
    }
    auto written = write_json(ctx, doc);
    if (!written.ok() && !acked.empty()) {
      return make_error(ErrorCode::store_error, fmt::format("acked {} but {}", join(acked), written.error().message));
    }
    TRY(written);
  }
  return worst;
}

} // namespace

void register_ack(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<AckOptions>();
  command.add_option("ids", opts->ids, "message IDs (or unique prefixes)")->type_name("<id>");
  command.add_option("--for", opts->for_name, "act on this recipient's delivery (operators)")->type_name("NAME");
  command.footer("Acking is not reading: the message stays in the inbox until read or archived.\n"
                 "Examples:\n  mailroom ack mr-a1b2c3\n  mailroom ack --for worker-3 mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_ack(ctx, *opts); });
}

} // namespace mailroom::cli
