// mailroom config: every resolved value and where it came from.

#include <fmt/format.h>

#include "commands.hpp"
#include "config/config.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct ConfigOptions {};

struct Row {
  std::string key;
  std::string value;
  std::string origin;
};

std::string quote_list(const std::vector<std::string>& items)
{
  std::vector<std::string> quoted;
  for (const auto& item : items) {
    quoted.push_back(fmt::format("\"{}\"", item));
  }
  return "[" + join(quoted, ", ") + "]";
}

std::vector<Row> rows_of(const Context& ctx)
{
  const config::Config& c = ctx.config;
  using mail::to_string;
  std::vector<Row> rows = {
    {"config", c.file.empty() ? "(none)" : c.file, c.file.empty() ? "default" : to_string(c.file_origin)},
    {"workspace", c.workspace.empty() ? "(none)" : c.workspace, "default"},
    {"identity", ctx.me.name, to_string(ctx.me.origin)},
    {"mail.provider", c.provider.value, to_string(c.provider.origin)},
    {"mail.recipients", c.recipients.value == config::RecipientPolicy::any ? "any" : "registered",
     to_string(c.recipients.origin)},
    {"store.path", c.store_path.value, to_string(c.store_path.origin)},
    {"store.synchronous", c.synchronous_full.value ? "full" : "normal", to_string(c.synchronous_full.origin)},
    {"store.id_prefix", c.id_prefix.value, to_string(c.id_prefix.origin)},
    {"store.busy_timeout_ms", std::to_string(c.busy_timeout_ms.value), to_string(c.busy_timeout_ms.origin)},
    {"store.allow_network_fs", c.allow_network_fs.value ? "true" : "false", to_string(c.allow_network_fs.origin)},
    {"exec.timeout_ms", std::to_string(c.exec_timeout_ms.value), to_string(c.exec_timeout_ms.origin)},
    {"notify.command", c.notify_command.value.empty() ? "(none)" : quote_list(c.notify_command.value),
     to_string(c.notify_command.origin)},
    {"agents.names", quote_list(c.agents.value), to_string(c.agents.origin)},
  };
  for (const auto& [name, members] : c.groups) {
    rows.push_back({"groups." + name, quote_list(members.value), to_string(members.origin)});
  }
  return rows;
}

Result<ExitCode> run_config(Context& ctx, const ConfigOptions& /*opts*/)
{
  const std::vector<Row> rows = rows_of(ctx);
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    nlohmann::json settings = nlohmann::json::object();
    for (const Row& row : rows) {
      settings[row.key] = {{"value", row.value}, {"origin", row.origin}};
    }
    doc["settings"] = settings;
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  render::Table table;
  table.header = {"KEY", "VALUE", "ORIGIN"};
  for (const Row& row : rows) {
    table.rows.push_back({row.key, text::sanitize_line(row.value), text::sanitize_line(row.origin)});
  }
  TRY(write_text(ctx, render::render_table(table)));
  return ExitCode::ok;
}

} // namespace

void register_config(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ConfigOptions>();
  command.footer("Examples:\n  mailroom config\n  mailroom --json config | jq -r '.settings[\"store.path\"].value'");
  inv.on_select(command, [opts](Context& ctx) { return run_config(ctx, *opts); });
}

} // namespace mailroom::cli
