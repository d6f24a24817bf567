#include "acting.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

void announce(Context& ctx, const std::string& name)
{
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["warning"] = {{"code", "acting_for"}, {"message", "acting for " + name}};
    ctx.out.err(render::dump_json(doc));
    return;
  }
  ctx.out.err(fmt::format("mailroom {}: acting for {}\n", ctx.command, text::sanitize_line(name)));
}

} // namespace

void add_for_option(CLI::App& command, std::optional<std::string>& name)
{
  command.add_option("--for", name, "act on NAME's delivery (an operator acting for a recipient)")
      ->type_name("NAME");
}

namespace {

std::vector<std::string> recipients_of(const mail::Message& message)
{
  std::vector<std::string> all = message.to;
  all.insert(all.end(), message.cc.begin(), message.cc.end());
  return all;
}

} // namespace

Result<mail::Actor> choose_actor(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                                 const std::optional<std::string>& for_name)
{
  if (for_name) {
    if (!mail::is_valid_mailbox(*for_name)) {
      TRY(mail::parse_address(*for_name));
      return usage_error(fmt::format("--for \"{}\" is not a mailbox", text::cap_for_echo(*for_name)),
                         "name one mailbox, e.g. mayor or rig/mayor");
    }
    if (*for_name != ctx.me.name) {
      announce(ctx, *for_name);
    }
    return mail::Actor{*for_name, ctx.me.name};
  }
  if (ctx.config.compat_gc.value) {
    TRY_ASSIGN(const mail::Message message, provider.get(ctx.me.name, id));
    const std::vector<std::string> recipients = recipients_of(message);
    const bool mine = std::find(recipients.begin(), recipients.end(), ctx.me.name) != recipients.end();
    if (!mine && recipients.size() == 1) {
      announce(ctx, recipients.front());
      return mail::Actor{recipients.front(), ctx.me.name};
    }
  }
  return ctx.actor();
}

Error explain_not_recipient(Context& ctx, mail::Provider& provider, const mail::MessageId& id, Error failed)
{
  auto message = provider.get(ctx.me.name, id);
  if (message.ok()) {
    failed.hint = fmt::format("its recipients are {}; an operator acts for one with --for NAME",
                              text::cap_for_echo(join(recipients_of(*message))));
  }
  return failed;
}

} // namespace mailroom::cli
