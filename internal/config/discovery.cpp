#include "config/discovery.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "text/strings.hpp"

namespace mailroom::config {

namespace fs = std::filesystem;

namespace {

// An environment variable that counts as set only when it is not empty after trimming.
std::optional<std::string> get_set(const util::Environment& env, std::string_view name)
{
  auto value = env.get(name);
  if (!value) {
    return std::nullopt;
  }
  std::string trimmed = text::trim(*value);
  if (trimmed.empty()) {
    return std::nullopt;
  }
  return trimmed;
}

bool is_file(const fs::path& path)
{
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

fs::path absolute_from(const std::string& base, const std::string& path)
{
  fs::path p(path);
  if (p.is_relative()) {
    p = fs::path(base) / p;
  }
  return p.lexically_normal();
}

// Config errors name the file as the user would: relative when it sits in the cwd.
std::string display_path(const fs::path& file, const std::string& cwd)
{
  if (file.parent_path() == fs::path(cwd).lexically_normal()) {
    return file.filename().string();
  }
  return file.string();
}

struct Found {
  fs::path file;
  Origin origin;
  bool workspace = false;
};

Result<std::optional<Found>> find_config_file(const util::Environment& env, const DiscoveryFlags& flags)
{
  const std::string cwd = env.cwd();
  std::optional<std::pair<std::string, Origin>> chosen;
  if (flags.config) {
    chosen = {*flags.config, flag_origin("--config")};
  } else if (auto value = get_set(env, "MAILROOM_CONFIG")) {
    chosen = {*value, env_origin("MAILROOM_CONFIG")};
  }
  if (chosen) {
    const fs::path file = absolute_from(cwd, chosen->first);
    if (!is_file(file)) {
      return make_error(ErrorCode::usage, fmt::format("config file \"{}\" not found (from {})", chosen->first,
                                                      to_string(chosen->second)));
    }
    // A file named mailroom.toml given explicitly still marks its directory as the workspace.
    return std::optional<Found>(Found{file, chosen->second, file.filename() == "mailroom.toml"});
  }
  for (fs::path dir = fs::path(cwd).lexically_normal();; dir = dir.parent_path()) {
    const fs::path candidate = dir / "mailroom.toml";
    if (is_file(candidate)) {
      return std::optional<Found>(Found{candidate, Origin{Origin::Kind::default_value, "workspace"}, true});
    }
    if (dir == dir.root_path() || dir.parent_path() == dir) {
      break;
    }
  }
  std::optional<std::string> config_home = get_set(env, "XDG_CONFIG_HOME");
  if (!config_home) {
    if (auto home = get_set(env, "HOME")) {
      config_home = *home + "/.config";
    }
  }
  if (config_home) {
    const fs::path candidate = fs::path(*config_home) / "mailroom" / "config.toml";
    if (is_file(candidate)) {
      return std::optional<Found>(Found{candidate, Origin{Origin::Kind::default_value, "XDG_CONFIG_HOME"}, false});
    }
  }
  return std::optional<Found>();
}

bool is_store_url(std::string_view text)
{
  return text::starts_with(text, "postgresql://") || text::starts_with(text, "postgres://");
}

Result<Setting<std::string>> resolve_store(const util::Environment& env, const DiscoveryFlags& flags,
                                           const Config& config)
{
  const std::string cwd = env.cwd();
  // A PostgreSQL URL is kept as written; a path is made absolute.
  const auto place = [&](const std::string& base, const std::string& value) {
    return is_store_url(value) ? value : absolute_from(base, value).string();
  };
  if (flags.db) {
    return Setting<std::string>{place(cwd, *flags.db), flag_origin("--db")};
  }
  if (auto value = get_set(env, "MAILROOM_DB")) {
    return Setting<std::string>{place(cwd, *value), env_origin("MAILROOM_DB")};
  }
  if (!config.store_url.value.empty()) {
    return Setting<std::string>{config.store_url.value, config.store_url.origin};
  }
  if (!config.store_path.value.empty()) {
    const std::string base = fs::path(config.file).parent_path().string();
    return Setting<std::string>{absolute_from(base, config.store_path.value).string(), config.store_path.origin};
  }
  if (!config.workspace.empty()) {
    return Setting<std::string>{(fs::path(config.workspace) / ".mailroom" / "mail.db").string(),
                                Origin{Origin::Kind::default_value, "workspace"}};
  }
  std::optional<std::string> data_home = get_set(env, "XDG_DATA_HOME");
  if (!data_home) {
    auto home = get_set(env, "HOME");
    if (!home) {
      return make_error(ErrorCode::usage, "cannot place the store: HOME is not set",
                        "pass --db PATH or set MAILROOM_DB");
    }
    data_home = *home + "/.local/share";
  }
  return Setting<std::string>{(fs::path(*data_home) / "mailroom" / "mail.db").lexically_normal().string(),
                              Origin{Origin::Kind::default_value, "XDG_DATA_HOME"}};
}

} // namespace

Result<Config> discover_config(const util::Environment& env, const DiscoveryFlags& flags)
{
  TRY_ASSIGN(std::optional<Found> found, find_config_file(env, flags));
  Config config;
  if (found) {
    TRY_ASSIGN(config, load_config(found->file.string(), display_path(found->file, env.cwd())));
    config.file = found->file.string();
    config.file_origin = found->origin;
    if (found->workspace) {
      config.workspace = found->file.parent_path().string();
    }
  }
  if (auto provider = get_set(env, "MAILROOM_PROVIDER")) {
    config.provider = {*provider, env_origin("MAILROOM_PROVIDER")};
  }
  TRY_ASSIGN(config.store_path, resolve_store(env, flags, config));
  return config;
}

Result<Identity> resolve_identity(const util::Environment& env, const Config& config,
                                  const std::optional<std::string>& flag, std::string_view flag_name)
{
  std::optional<Identity> chosen;
  if (flag) {
    std::string value = text::trim(*flag);
    if (!value.empty()) {
      chosen = Identity{value, flag_origin(std::string(flag_name))};
    }
  }
  for (const char* name : {"MAILROOM_IDENTITY", "GC_ALIAS", "GC_SESSION_ID", "GC_AGENT"}) {
    if (chosen) {
      break;
    }
    if (auto value = get_set(env, name)) {
      chosen = Identity{*value, env_origin(name)};
    }
  }
  if (!chosen && !text::trim(config.identity.value).empty()) {
    chosen = Identity{text::trim(config.identity.value), config.identity.origin};
  }
  if (!chosen) {
    return Identity{std::string(mail::k_human), default_origin()};
  }
  if (!mail::is_valid_mailbox(chosen->name)) {
    return make_error(ErrorCode::usage,
                      fmt::format("identity \"{}\" (from {}) is not a valid mailbox", text::cap_for_echo(chosen->name),
                                  to_string(chosen->origin)),
                      "a mailbox is name or rig/name: letters, digits, '.', '_' or '-'");
  }
  return *chosen;
}

} // namespace mailroom::config
