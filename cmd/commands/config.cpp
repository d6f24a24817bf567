// mailroom config: every resolved value and where it came from.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "config/config.hpp"
#include "config/keys.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct ConfigOptions {};

struct Row {
  std::string key;
  config::Value value;
  std::string origin;
};

nlohmann::json to_json(const config::Value& value)
{
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

// Every key of the table with its resolved value, plus where the config and the store came from.
std::vector<Row> rows_of(const Context& ctx)
{
  const config::Config& c = ctx.config;
  std::vector<Row> rows = {
      {"config", c.file, c.file.empty() ? "default" : to_string(c.file_origin)},
      {"workspace", c.workspace, "default"},
      {"identity", ctx.me.name, to_string(ctx.me.origin)},
      {"store", c.store_path.value, to_string(c.store_path.origin)},
  };
  for (const config::KeySpec& spec : config::config_keys()) {
    if (spec.key == "identity") {
      continue; // shown resolved above
    }
    rows.push_back({std::string(spec.key), config::value_of(c, spec), to_string(config::origin_of(c, spec))});
  }
  for (Row& row : rows) {
    if (auto* text = std::get_if<std::string>(&row.value)) {
      *text = text::redact_conninfo(*text); // a store URL's password is never shown
    }
  }
  for (const auto& [name, members] : c.groups) {
    rows.push_back({"groups." + name, members.value, to_string(members.origin)});
  }
  for (const auto& [name, expects] : c.types) {
    rows.push_back({"types." + name + ".expects_reply", expects.value, to_string(expects.origin)});
  }
  return rows;
}

Result<ExitCode> run_config(Context& ctx, const ConfigOptions& /*opts*/)
{
  const std::vector<Row> rows = rows_of(ctx);
  if (ctx.config.user_wide_store && !ctx.json) {
    warn(ctx, "no_workspace",
         "no mailroom.toml above this directory: using the user-wide store (run 'mailroom init' to make a "
         "workspace)");
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    nlohmann::json settings = nlohmann::json::object();
    for (const Row& row : rows) {
      const bool empty =
          std::holds_alternative<std::string>(row.value) && std::get<std::string>(row.value).empty();
      settings[row.key] = {{"value", empty ? nlohmann::json(nullptr) : to_json(row.value)},
                           {"origin", row.origin}};
    }
    doc["settings"] = settings;
    doc["store_reason"] = ctx.config.store_reason;
    doc["ignored_config"] = ctx.config.ignored_config.empty() ? nlohmann::json(nullptr)
                                                              : nlohmann::json(ctx.config.ignored_config);
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  render::Table table;
  table.header = {"KEY", "VALUE", "ORIGIN"};
  for (const Row& row : rows) {
    table.rows.push_back(
        {row.key, text::sanitize_line(config::display(row.value)), text::sanitize_line(row.origin)});
  }
  TRY(write_text(ctx, render::render_table(table)));
  if (!ctx.config.store_reason.empty()) {
    TRY(write_text(ctx,
                   text::DisplayText::format("store: {}\n", text::sanitize_line(ctx.config.store_reason))));
  }
  if (!ctx.config.ignored_config.empty()) {
    TRY(write_text(ctx, text::DisplayText::format("ignored: {} (this repository's configuration is {})\n",
                                                  text::sanitize_line(ctx.config.ignored_config),
                                                  text::sanitize_line(ctx.config.file))));
  }
  return ExitCode::ok;
}

} // namespace

void register_config(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ConfigOptions>();
  command.footer(
      "Examples:\n  mailroom config\n  mailroom --json config | jq -r '.settings[\"store.path\"].value'");
  inv.on_select(command, [opts](Context& ctx) { return run_config(ctx, *opts); });
}

} // namespace mailroom::cli
