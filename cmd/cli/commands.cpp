#include "commands.hpp"

#include <array>

#include "mail/address.hpp"

namespace mailroom::cli {

namespace {

constexpr Paging k_pages = Paging::at_terminal;
constexpr Quiet k_confirms = Quiet::drops_output;
constexpr Paging k_plain = Paging::never;

constexpr std::array k_commands = {
    CommandSpec{"ack", "acknowledge messages (a reply also acks)", &register_ack, Access::write,
                Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"agents", "list, add or remove registered mailboxes", &register_agents, Access::write,
                Needs::config, k_pages},
    CommandSpec{"archive", "archive messages for you (reversible)", &register_archive, Access::write,
                Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"ask", "ask the sender of a request you received a question (its TTL pauses until answered)",
                &register_ask, Access::write, Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"cancel", "withdraw a request you sent (its open deliveries become canceled)",
                &register_cancel, Access::write, Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"check", "exit 0 if there is unread mail, 1 if not (hook predicate)", &register_check,
                Access::read, Needs::mailbox},
    CommandSpec{"completion", "print a shell completion script: bash, zsh or fish", &register_completion,
                Access::read, Needs::nothing},
    CommandSpec{"config", "print every resolved setting and where it came from", &register_config,
                Access::read, Needs::config, k_pages},
    CommandSpec{"count", "count total and unread messages", &register_count, Access::read, Needs::mailbox},
    CommandSpec{"decline", "refuse a request you received (its sender gets a declined notice)",
                &register_decline, Access::write, Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"delete", "archive messages for you (Gas City wording)", &register_delete, Access::write,
                Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"doctor", "check the project's config, stores and agent hooks (exit 1 on a problem)",
                &register_doctor, Access::read, Needs::nothing, k_plain},
    CommandSpec{"export", "write the store as JSON Lines (docs/export-format.md)", &register_export,
                Access::read, Needs::config, k_plain},
    CommandSpec{"fail", "report that a request you received failed (its sender gets a failed notice)",
                &register_fail, Access::write, Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"gc-mail", "answer Gas City's exec mail protocol from this store (gc's mail script)",
                &register_gc_mail, Access::write, Needs::config, k_plain},
    CommandSpec{"help", "show the help of a command", &register_help, Access::read, Needs::nothing},
    CommandSpec{"hooks",
                "print, install, remove or check the hook settings for Claude Code, Codex or Gemini CLI",
                &register_hooks, Access::write, Needs::nothing, k_plain},
    CommandSpec{"import", "read an export into this store, all or nothing", &register_import, Access::write,
                Needs::config, k_plain, k_confirms},
    CommandSpec{"inbox", "list unread messages, urgent first", &register_inbox, Access::read, Needs::mailbox,
                k_pages},
    CommandSpec{"init", "create mailroom.toml and .mailroom/ in this directory", &register_init,
                Access::create, Needs::config, k_plain, k_confirms},
    CommandSpec{"mark-read", "mark messages read", &register_mark_read, Access::write, Needs::mailbox,
                k_plain, k_confirms},
    CommandSpec{"mark-unread", "mark messages unread", &register_mark_unread, Access::write, Needs::mailbox,
                k_plain, k_confirms},
    CommandSpec{"mcp", "serve your mailbox to a coding agent over MCP (stdio), or install it", &register_mcp,
                Access::write, Needs::config},
    CommandSpec{"migrate", "upgrade the store to this mailroom's schema", &register_migrate, Access::migrate,
                Needs::config, k_plain, k_confirms},
    CommandSpec{"peek", "show a message without marking it read", &register_peek, Access::read,
                Needs::mailbox, k_pages},
    CommandSpec{"peers", "show the delivery health of your channel to each peer", &register_peers,
                Access::read, Needs::mailbox, k_pages},
    CommandSpec{"purge", "delete mail archived or expired long ago", &register_purge, Access::write,
                Needs::config, k_plain, k_confirms},
    CommandSpec{"read", "show a message and mark it read", &register_read, Access::write, Needs::mailbox,
                k_pages},
    CommandSpec{"reply", "reply to a message in its thread", &register_reply, Access::write, Needs::mailbox,
                k_plain, k_confirms},
    CommandSpec{"schedule", "send mail later or again: add, list, show, edit, pause, resume, cancel, run-due",
                &register_schedule, Access::write, Needs::mailbox, k_plain},
    CommandSpec{"search", "search the mail you sent or received, best match first", &register_search,
                Access::read, Needs::mailbox, k_pages},
    CommandSpec{"send", "send a message", &register_send, Access::write, Needs::mailbox, k_plain, k_confirms},
    CommandSpec{"sent", "list messages you sent, newest first, with their recipients' state", &register_sent,
                Access::read, Needs::mailbox, k_pages},
    CommandSpec{"serve", "serve the HTTP API and the dashboard page for this store", &register_serve,
                Access::write, Needs::config},
    CommandSpec{"status", "show each recipient's delivery, read, archive and ack state", &register_status,
                Access::read, Needs::mailbox, k_pages},
    CommandSpec{"sweep", "redeliver unacknowledged mail and escalate dark peers (cron)", &register_sweep,
                Access::write, Needs::config, k_plain, k_confirms},
    CommandSpec{"team", "show every mailbox: dark, not acknowledging, active or idle, and what it owes",
                &register_team, Access::read, Needs::config, k_pages},
    CommandSpec{"thread", "show a whole conversation with its bodies, oldest first", &register_thread,
                Access::read, Needs::mailbox, k_pages},
    CommandSpec{"trace", "show the messages of a trace as a tree", &register_trace, Access::read,
                Needs::mailbox, k_pages},
    CommandSpec{"unarchive", "undo archive", &register_unarchive, Access::write, Needs::mailbox, k_plain,
                k_confirms},
    CommandSpec{"wait", "wait for a matching message and print it", &register_wait, Access::write,
                Needs::mailbox},
    CommandSpec{"wake-run", "run the wakes a send recorded, or a wake pass (started by mailroom itself)",
                &register_wake_run, Access::write, Needs::config, k_plain, k_confirms},
    CommandSpec{"watch", "run a command for each message, with claims, retries and replies", &register_watch,
                Access::write, Needs::mailbox},
};

} // namespace

const Runner* Invocation::find(const CLI::App* command) const
{
  for (const auto& [app, runner] : runners) {
    if (app == command) {
      return &runner;
    }
  }
  return nullptr;
}

std::span<const CommandSpec> commands()
{
  return {k_commands.data(), k_commands.size()};
}

const CommandSpec* find_command(std::string_view name)
{
  for (const CommandSpec& spec : k_commands) {
    if (spec.name == name) {
      return &spec;
    }
  }
  return nullptr;
}

std::vector<std::string> suggest_commands(std::string_view name)
{
  std::vector<std::string> names;
  for (const CommandSpec& spec : k_commands) {
    names.emplace_back(spec.name);
  }
  return mail::suggest_mailboxes(name, names, 3);
}

} // namespace mailroom::cli
