// What a Config means for the rest of mailroom: the template `init` writes (from the key table),
// the mail policy and the provider settings.

#include <fmt/format.h>

#include "config/config.hpp"
#include "config/keys.hpp"
#include "mail/stores.hpp"

namespace mailroom::config {

namespace {

// `value` as a TOML basic string.
std::string toml_quoted(std::string_view value)
{
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace

std::string config_template(bool gc_compat, std::string_view store_key, std::string_view store_value)
{
  std::string out =
      "# mailroom workspace configuration. Every agent whose working directory is at or below this\n"
      "# file (or in another worktree of this repository) shares one store. Run `mailroom config` to\n"
      "# see each resolved value and where it came from; docs/configuration.md explains every key.\n";
  std::string_view section = "-";
  for (const KeySpec& spec : config_keys()) {
    const auto dot = spec.key.rfind('.');
    const std::string_view here =
        dot == std::string_view::npos ? std::string_view() : spec.key.substr(0, dot);
    const std::string_view name = dot == std::string_view::npos ? spec.key : spec.key.substr(dot + 1);
    if (here != section) {
      section = here;
      out += here.empty() ? "\n" : fmt::format("\n[{}]\n", here);
    }
    out += fmt::format("# {}\n", spec.help);
    std::string_view example = spec.example;
    if (spec.key == "compat.gc" && gc_compat) {
      example = "true";
    }
    if (!store_key.empty() && spec.key == store_key) {
      out += fmt::format("{} = {}\n", name, toml_quoted(store_value));
      continue;
    }
    out += fmt::format("{}{} = {}\n", spec.commented ? "# " : "", name, example);
  }
  out += "\n[groups]\n"
         "# `mailroom send @reviewers ...` expands to these mailboxes.\n"
         "# reviewers = [\"alice\", \"bob\"]\n"
         "\n# [types.review_request]\n"
         "# A custom message type; expects_reply makes its deliveries ack-tracked under ack = \"typed\".\n"
         "# expects_reply = true\n";
  return out;
}

mail::MailPolicy mail_policy(const Config& config)
{
  mail::MailPolicy policy;
  policy.recipients = config.recipients.value;
  policy.ack = config.ack.value;
  policy.register_policy = config.register_policy.value;
  policy.stale_after = config.stale_after_ms.value;
  policy.presence_after = config.presence_after_ms.value;
  policy.redelivery.enabled = config.redelivery_enabled.value;
  policy.redelivery.first_after = config.first_after_ms.value;
  policy.redelivery.backoff = config.backoff.value;
  policy.redelivery.max_attempts = static_cast<int>(config.max_attempts.value);
  policy.redelivery.escalate_to = config.escalate_to.value;
  std::vector<mail::CustomType> types;
  for (const auto& [name, expects] : config.types) {
    types.push_back({name, expects.value});
  }
  policy.types = mail::TypeRegistry(std::move(types));
  for (const auto& [name, members] : config.groups) {
    policy.groups[name] = members.value;
  }
  policy.config_agents = config.agents.value;
  policy.id_prefix = config.id_prefix.value;
  return policy;
}

Result<mail::ProviderSettings> provider_settings(const Config& config)
{
  mail::ProviderSettings settings;
  TRY_ASSIGN(mail::StoreChoice choice, mail::choose_store(config.provider.value, config.store_path.value,
                                                          to_string(config.provider.origin)));
  settings.kind = std::move(choice.scheme);
  settings.exec.command = std::move(choice.exec_command);
  settings.store.path = config.store_path.value;
  settings.store.synchronous_full = config.synchronous.value == Synchronous::full;
  settings.store.busy_timeout = std::chrono::milliseconds(config.busy_timeout_ms.value);
  settings.store.allow_network_fs = config.allow_network_fs.value;
  settings.store.timeout = std::chrono::milliseconds(config.store_timeout_ms.value);
  settings.store.transaction_pooler = config.pooler.value == Pooler::transaction;
  settings.exec.timeout = std::chrono::milliseconds(config.exec_timeout_ms.value);
  settings.policy = mail_policy(config);
  return settings;
}

} // namespace mailroom::config
