#include "config/keys.hpp"

#include <array>

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "text/strings.hpp"

namespace mailroom::config {

namespace {

constexpr std::int64_t k_max_ms = 86'400'000;

// The allowed values of each choice key and the enum each one means.
constexpr std::array k_recipients = {choice("registered", mail::RecipientPolicy::registered),
                                     choice("any", mail::RecipientPolicy::any)};
constexpr std::array k_synchronous = {choice("full", Synchronous::full),
                                      choice("normal", Synchronous::normal)};
constexpr std::array k_pooler = {choice("none", Pooler::none), choice("transaction", Pooler::transaction)};
constexpr std::array k_register = {choice("explicit", mail::RegisterPolicy::explicit_only),
                                   choice("on-send", mail::RegisterPolicy::on_send)};
constexpr std::array k_ack = {choice("typed", mail::AckPolicy::typed),
                              choice("always", mail::AckPolicy::always),
                              choice("never", mail::AckPolicy::never)};

// clang-format off
constexpr std::array k_keys = {
  KeySpec{"identity", KeyKind::string, &Config::identity,
          "default identity here when neither --as, $MAILROOM_IDENTITY, $GC_ALIAS, $GC_SESSION_ID nor $GC_AGENT is set",
          "\"mayor\"", true},
  KeySpec{"mail.provider", KeyKind::string, &Config::provider,
          "\"beads\" (the SQLite store) or \"exec:<path-or-command>\" (a Gas City mail script); $MAILROOM_PROVIDER overrides",
          "\"beads\""},
  KeySpec{"mail.recipients", KeyKind::choice, choice_field<&Config::recipients>(),
          "\"registered\": recipients must be registered mailboxes; \"any\": every well-formed mailbox",
          "\"registered\"", false, k_recipients},
  KeySpec{"store.path", KeyKind::string, &Config::store_path,
          "the SQLite file, relative to this file; ~, $HOME and ${VAR} are expanded; --db and $MAILROOM_DB override",
          "\".mailroom/mail.db\"", true},
  KeySpec{"store.url", KeyKind::string, &Config::store_url,
          "a postgresql:// URL: use a PostgreSQL store shared by several hosts instead of the file",
          "\"postgresql://mail@db.example/mailroom\"", true},
  KeySpec{"store.synchronous", KeyKind::choice, choice_field<&Config::synchronous>(),
          "\"full\" survives power loss; \"normal\" is faster and survives a crash of mailroom only",
          "\"full\"", false, k_synchronous},
  KeySpec{"store.id_prefix", KeyKind::string, &Config::id_prefix,
          "message ids look like \"<id_prefix>-<16 hex digits>\"", "\"mr\""},
  KeySpec{"store.busy_timeout_ms", KeyKind::integer, &Config::busy_timeout_ms,
          "how long a writer waits for another one, in milliseconds", "5000", false, {}, 0, k_max_ms},
  KeySpec{"store.allow_network_fs", KeyKind::boolean, &Config::allow_network_fs,
          "SQLite on NFS/SMB/FUSE can corrupt data; true only if you accept that risk", "false"},
  KeySpec{"store.timeout", KeyKind::duration, &Config::store_timeout_ms,
          "PostgreSQL: the longest a command waits for the server over a dead link before exit 5 (the hook: its budget)",
          "\"30s\"", false, {}, 1, k_max_ms},
  KeySpec{"store.pooler", KeyKind::choice, choice_field<&Config::pooler>(),
          "PostgreSQL: \"transaction\" when a transaction-pooling pooler (PgBouncer) is in front of the server",
          "\"none\"", false, k_pooler},
  KeySpec{"exec.timeout_ms", KeyKind::integer, &Config::exec_timeout_ms,
          "how long an exec provider script (and a notify command) may run, in milliseconds", "30000", false, {}, 1,
          k_max_ms},
  KeySpec{"notify.command", KeyKind::strings, &Config::notify_command,
          "argv run after `send --notify` and for each redelivery, never a shell; placeholders {to}, {from}, {id}, {subject}",
          "[\"notify-send\", \"mail from {from}\", \"{subject}\"]", true},
  KeySpec{"agents.names", KeyKind::mailboxes, &Config::agents,
          "mailboxes that are always known (registered in the store on its first write)", "[\"mayor\", \"polecat\"]",
          true},
  KeySpec{"agents.register", KeyKind::choice, choice_field<&Config::register_policy>(),
          "\"explicit\": only `agents add` and agents.names register; \"on-send\": sending as an unknown name registers it",
          "\"explicit\"", false, k_register},
  KeySpec{"delivery.ack", KeyKind::choice, choice_field<&Config::ack>(),
          "which deliveries are ack-tracked: \"typed\" (types that expect a reply, and send --ack), \"always\", \"never\"",
          "\"typed\"", false, k_ack},
  KeySpec{"delivery.stale_after", KeyKind::duration, &Config::stale_after_ms,
          "a peer is stale when my oldest delivery to it waits for an ack longer than this", "\"30m\""},
  KeySpec{"delivery.presence_after", KeyKind::duration, &Config::presence_after_ms,
          "a mailbox is seen (team, peers) when it ran a command within this long", "\"30m\""},
  KeySpec{"delivery.redelivery.enabled", KeyKind::boolean, &Config::redelivery_enabled,
          "`mailroom sweep` re-surfaces and escalates only when this is true", "false"},
  KeySpec{"delivery.redelivery.first_after", KeyKind::duration, &Config::first_after_ms,
          "first redelivery this long after the send", "\"10m\""},
  KeySpec{"delivery.redelivery.backoff", KeyKind::number, &Config::backoff,
          "each next wait is the previous one times this", "2.0", false, {}, 1, 100},
  KeySpec{"delivery.redelivery.max_attempts", KeyKind::integer, &Config::max_attempts,
          "redeliveries before giving up and escalating", "4", false, {}, 0, 100},
  KeySpec{"delivery.redelivery.escalate_to", KeyKind::string, &Config::escalate_to,
          "who gets the escalation: \"sender\" or a mailbox", "\"sender\""},
  KeySpec{"compat.gc", KeyKind::boolean, &Config::compat_gc,
          "Gas City semantics: a non-recipient's read/archive/mark acts on a single-recipient message's recipient",
          "false"},
  KeySpec{"hooks.budget", KeyKind::duration, &Config::hook_budget_ms,
          "the hook's hard time limit (check --inject, --hook-format): past it the hook shows nothing and exits 0; check --budget and $MAILROOM_HOOK_BUDGET override",
          "\"1s\"", true, {}, 1, mail::k_max_hook_budget.count()},
  KeySpec{"schedule.timezone", KeyKind::string, &Config::schedule_timezone,
          "the zone (an IANA name) of schedules made without --tz; default: $TZ when it names one, else the system's",
          "\"Europe/Berlin\"", true},
  KeySpec{"wake.on", KeyKind::strings, &Config::wake_on,
          "which sends wake a recipient that has a wake target: \"urgent\", \"request\" (a reply is expected), \"notify\" (send --notify or --wake)",
          "[\"urgent\", \"request\", \"notify\"]", true},
  KeySpec{"wake.cooldown", KeyKind::duration, &Config::wake_cooldown_ms,
          "at most one wake per recipient and target within this long; later ones wait and are combined", "\"60s\"",
          true, {}, 0, k_max_ms},
  KeySpec{"wake.idle_after", KeyKind::duration, &Config::wake_idle_after_ms,
          "no wake while the agent's hook ran (or its tmux pane showed activity) within this long", "\"10s\"", true,
          {}, 0, k_max_ms},
  KeySpec{"wake.give_up_after", KeyKind::duration, &Config::wake_give_up_after_ms,
          "a wake no process of its target's host and user ran within this long is recorded unreachable", "\"10m\"",
          true, {}, 1, k_max_ms},
  KeySpec{"wake.keep_for", KeyKind::duration, &Config::wake_keep_for_ms,
          "wake passes delete ledger rows that ended longer ago than this (each mailbox keeps its newest); 0 keeps all",
          "\"7d\"", true, {}, 0, k_max_ms},
  KeySpec{"wake.agent_commands", KeyKind::strings, &Config::wake_agent_commands,
          "tmux targets: the pane's foreground command must be one of these", "[\"claude\", \"codex\", \"gemini\", \"node\"]",
          true},
  KeySpec{"wake.submit_delay", KeyKind::duration, &Config::wake_submit_delay_ms,
          "tmux targets: the pause between typing the line and pressing Enter", "\"300ms\"", true, {}, 0, 10'000},
  KeySpec{"wake.line", KeyKind::string, &Config::wake_line,
          "tmux targets: the line typed; placeholders {to} and {count}", "\"You have mail: run 'mailroom inbox'\"", true},
};
// clang-format on

template <typename T>
Value value_of_member(const Config& config, const KeySpec& spec, Setting<T> Config::*member)
{
  const T& value = (config.*member).value;
  if constexpr (std::is_same_v<T, std::int64_t>) {
    if (spec.kind == KeyKind::duration) {
      return mail::format_duration(value);
    }
  }
  return value;
}

} // namespace

std::span<const KeySpec> config_keys()
{
  return {k_keys.data(), k_keys.size()};
}

const KeySpec* find_key(std::string_view dotted)
{
  for (const KeySpec& spec : k_keys) {
    if (spec.key == dotted) {
      return &spec;
    }
  }
  return nullptr;
}

std::vector<std::string_view> config_sections()
{
  std::vector<std::string_view> out;
  for (const KeySpec& spec : k_keys) {
    const auto dot = spec.key.rfind('.');
    const std::string_view section =
        dot == std::string_view::npos ? std::string_view() : spec.key.substr(0, dot);
    if (out.empty() || out.back() != section) {
      out.push_back(section);
    }
  }
  return out;
}

const Choice* find_choice(const KeySpec& spec, std::string_view text)
{
  for (const Choice& choice : spec.choices) {
    if (choice.name == text) {
      return &choice;
    }
  }
  return nullptr;
}

std::string describe_choices(const KeySpec& spec)
{
  std::vector<std::string> quoted;
  for (const Choice& choice : spec.choices) {
    quoted.push_back(fmt::format("\"{}\"", choice.name));
  }
  const std::string last = quoted.back();
  quoted.pop_back();
  return quoted.empty() ? last : fmt::format("{} or {}", text::join(quoted), last);
}

Value value_of(const Config& config, const KeySpec& spec)
{
  return std::visit(
      [&](auto member) -> Value {
        if constexpr (std::is_same_v<decltype(member), ChoiceField>) {
          const int value = member.get(config);
          for (const Choice& choice : spec.choices) {
            if (choice.value == value) {
              return std::string(choice.name);
            }
          }
          return std::string();
        } else {
          return value_of_member(config, spec, member);
        }
      },
      spec.field);
}

const Origin& origin_of(const Config& config, const KeySpec& spec)
{
  return std::visit(
      [&](auto member) -> const Origin& {
        if constexpr (std::is_same_v<decltype(member), ChoiceField>) {
          return member.origin(config);
        } else {
          return (config.*member).origin;
        }
      },
      spec.field);
}

std::string display(const Value& value)
{
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return v.empty() ? "(none)" : v;
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          if (v.empty()) {
            return "(none)";
          }
          std::vector<std::string> quoted;
          for (const std::string& item : v) {
            quoted.push_back(fmt::format("\"{}\"", item));
          }
          return "[" + text::join(quoted) + "]";
        } else {
          return fmt::format("{}", v);
        }
      },
      value);
}

} // namespace mailroom::config
