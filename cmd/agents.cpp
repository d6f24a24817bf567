// mailroom agents: the registry of mailboxes (list, add, remove).

#include <algorithm>

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/address.hpp"
#include "ops/agents.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct AgentsOptions {
  std::vector<std::string> names; // add: one or more; remove: exactly one
};

Result<void> validate_names(const std::vector<std::string>& names)
{
  if (names.empty()) {
    return usage_error("missing mailbox name");
  }
  for (const auto& name : names) {
    TRY_ASSIGN(mail::Address address, mail::parse_address(name));
    if (address.kind != mail::Address::Kind::mailbox) {
      return usage_error(fmt::format("\"{}\" is not a mailbox name", name));
    }
  }
  return {};
}

Result<ExitCode> run_agents_list(Context& ctx)
{
  TRY_ASSIGN(const ops::AgentsResult result, ops::agents(ctx.session, ops::AgentsRequest{}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

Result<ExitCode> run_agents_add(Context& ctx, const AgentsOptions& opts)
{
  TRY(validate_names(opts.names));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(std::vector<mail::Mailbox> added, provider->add_agents(opts.names));
  std::vector<std::string> already;
  for (const auto& name : opts.names) {
    if (std::find(added.begin(), added.end(), name) == added.end() &&
        std::find(already.begin(), already.end(), name) == already.end()) {
      already.push_back(name);
    }
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["ids"] = added; // kept for round-1 scripts; "mailboxes" is the name the contract uses
    doc["mailboxes"] = added;
    doc["already"] = already;
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  text::DisplayText text;
  for (const auto& name : added) {
    text += text::DisplayText::format("Registered {}\n", text::sanitize_line(name));
  }
  for (const auto& name : already) {
    text += text::DisplayText::format("Already registered {}\n", text::sanitize_line(name));
  }
  if (!ctx.globals.quiet) {
    TRY(write_text(ctx, text));
  }
  return ExitCode::ok;
}

Result<ExitCode> run_agents_remove(Context& ctx, const AgentsOptions& opts)
{
  TRY(validate_names(opts.names));
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  std::vector<std::int64_t> unread;
  for (const auto& name : opts.names) {
    TRY_ASSIGN(const std::int64_t left, provider->remove_agent(name));
    unread.push_back(left);
  }
  for (std::size_t i = 0; i < opts.names.size(); ++i) {
    if (unread[i] > 0) {
      // Both ways it names work on a retired mailbox: views are open, and --for acts on its deliveries.
      warn(ctx, "unread_mail",
           fmt::format(
               "{} still had {} unread message(s); they stay readable with 'mailroom inbox {}' and --for {}",
               opts.names[i], unread[i], opts.names[i], opts.names[i]));
    }
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["ids"] = opts.names;
    doc["mailboxes"] = opts.names;
    doc["already"] = nlohmann::json::array();
    TRY(write_json(ctx, doc));
  } else if (!ctx.globals.quiet) {
    text::DisplayText text;
    for (const auto& name : opts.names) {
      text += text::DisplayText::format("Removed {}\n", text::sanitize_line(name));
    }
    TRY(write_text(ctx, text));
  }
  return ExitCode::ok;
}

} // namespace

void register_agents(CLI::App& command, Invocation& inv)
{
  command.require_subcommand(0, 1);
  command.footer("Examples:\n  mailroom agents\n  mailroom agents add mayor polecat rig/witness\n"
                 "  mailroom agents remove polecat");
  inv.on_select(command, [](Context& ctx) { return run_agents_list(ctx); });

  CLI::App* list = command.add_subcommand("list", "list registered mailboxes (the same as plain agents)");
  inv.on_select(*list, [](Context& ctx) { return run_agents_list(ctx); });

  auto add_opts = std::make_shared<AgentsOptions>();
  CLI::App* add = command.add_subcommand("add", "register mailboxes so they can receive mail");
  add->add_option("names", add_opts->names, "mailbox names");
  add->footer("Example:\n  mailroom agents add mayor polecat");
  inv.on_select(*add, [add_opts](Context& ctx) { return run_agents_add(ctx, *add_opts); });

  auto remove_opts = std::make_shared<AgentsOptions>();
  CLI::App* remove = command.add_subcommand("remove", "retire a mailbox (its delivered mail stays readable)");
  remove->alias("rm");
  remove->add_option("names", remove_opts->names, "mailbox names");
  remove->footer("Example:\n  mailroom agents remove polecat");
  inv.on_select(*remove, [remove_opts](Context& ctx) { return run_agents_remove(ctx, *remove_opts); });
}

} // namespace mailroom::cli
