#include "misroute.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/audience.hpp"
#include "support.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

// Whether `word` is written as, or is the name of, something a send delivers to.
Result<bool> names_an_address(Context& ctx, mail::Provider& provider, const std::string& word)
{
  auto address = mail::parse_address(word);
  if (!address.ok()) {
    return false; // a subject with spaces, or any other non-address
  }
  if (address->kind == mail::Address::Kind::all) {
    return true;
  }
  if (ctx.policy.groups.count(address->name) > 0) {
    return true;
  }
  if (address->kind == mail::Address::Kind::group) {
    return false;
  }
  const auto& agents = ctx.policy.config_agents;
  if (std::find(agents.begin(), agents.end(), address->name) != agents.end()) {
    return true;
  }
  if (!provider.capabilities().registry) {
    return false; // the exec provider without a registry: nothing to check against
  }
  TRY_ASSIGN(const mail::MailboxInfo info, provider.mailbox_info(address->name));
  return info.state == mail::MailboxInfo::State::active;
}

} // namespace

Result<void> refuse_unread_stdin(Context& ctx)
{
  if (ctx.in.offers_data(k_stdin_data_wait)) {
    return usage_error("standard input has data but -s alone is a complete message",
                       "add - (or --stdin) to send it as the body, or -m '' for none");
  }
  return {};
}

Result<void> refuse_address_subject(Context& ctx, mail::Provider& provider, const std::string& recipient,
                                    const std::string& subject)
{
  TRY_ASSIGN(const bool address, names_an_address(ctx, provider, subject));
  if (address) {
    return usage_error(
        fmt::format("\"{}\" would be the subject, but it names a recipient", text::cap_for_echo(subject)),
        fmt::format("to send to several, use --to {} --to {}", text::cap_for_echo(recipient),
                    text::cap_for_echo(subject)));
  }
  return {};
}

Result<void> check_recipients(Context& ctx, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc)
{
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  std::optional<mail::Directory> directory;
  if (provider->capabilities().registry) {
    TRY_ASSIGN(directory, provider->directory());
  }
  TRY(mail::resolve_audience(ctx.me.name, to, cc, directory ? &*directory : nullptr, ctx.policy));
  return {};
}

Result<void> check_reply(Context& ctx, const std::string& id, bool reply_all, bool confirmed)
{
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(const mail::MessageId full, provider->resolve_id(id));
  auto original = provider->get(ctx.me.name, full);
  if (!original.ok()) {
    if (original.error().code == ErrorCode::unsupported) {
      return {}; // a script without `get`: the reply itself will say
    }
    return std::move(original).error();
  }
  TRY(mail::reply_audience(*original, ctx.me.name, reply_all, confirmed));
  return {};
}

} // namespace mailroom::cli
