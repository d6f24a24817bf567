#include "config/discovery.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "config/worktree.hpp"
#include "mail/address.hpp"
#include "mail/stores.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"
#include "util/xdg.hpp"

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
  // The store a workspace gets by default, and why (empty: <workspace>/.mailroom/mail.db).
  fs::path default_store;
  std::string default_store_reason;
  fs::path ignored; // a worktree's own mailroom.toml that the shared one overrides
};

// The nearest mailroom.toml walking up from `cwd`. Errors: usage for a dangling symlink or a
// directory of that name.
Result<std::optional<fs::path>> nearest_config(const std::string& cwd)
{
  for (fs::path dir = fs::path(cwd).lexically_normal();; dir = dir.parent_path()) {
    const fs::path candidate = dir / "mailroom.toml";
    // One lstat per level; a symlink costs a second stat, and a dangling one is an error rather
    // than a silent fall back to another store.
    std::error_code ec;
    const fs::file_status status = fs::symlink_status(candidate, ec);
    if (fs::is_symlink(status) && !fs::exists(candidate, ec)) {
      return make_error(
          ErrorCode::usage,
          fmt::format("{} is a symbolic link to a file that does not exist", candidate.string()),
          "fix or remove the link");
    }
    if (fs::is_directory(status)) {
      return make_error(ErrorCode::usage,
                        fmt::format("{} is a directory, not a config file", candidate.string()));
    }
    if (fs::is_regular_file(status) || (fs::is_symlink(status) && is_file(candidate))) {
      return std::optional<fs::path>(candidate);
    }
    if (dir == dir.root_path() || dir.parent_path() == dir) {
      return std::optional<fs::path>();
    }
  }
}

// The configuration in force inside a git worktree: the repository's shared mailroom.toml (the
// main worktree's, or <common dir>/mailroom/ for a bare repository) wins over the worktree's own
// copy at its top; a workspace nested below the top stays its own.
std::optional<Found> worktree_config(const GitLayout& layout, const std::optional<fs::path>& nearest)
{
  const bool nested = nearest && nearest->parent_path() != layout.top &&
                      !text::starts_with(layout.top.string(), nearest->parent_path().string());
  if (nested) {
    return std::nullopt;
  }
  const fs::path shared = layout.shared_config();
  const std::string store_reason =
      layout.bare() ? fmt::format("the bare repository's store: {} is a worktree of {}", layout.top.string(),
                                  layout.common_dir.string())
      : layout.linked ? fmt::format("the main worktree's store: {} is a linked git worktree of {}",
                                    layout.top.string(), layout.main_worktree->string())
                      : std::string();
  if (is_file(shared)) {
    Found found{shared, Origin{Origin::Kind::default_value, layout.linked ? "repository" : "workspace"},
                true};
    if (layout.linked) {
      found.default_store = layout.shared_store();
      found.default_store_reason = store_reason;
    }
    if (nearest && nearest->lexically_normal() != shared.lexically_normal()) {
      found.ignored = *nearest;
    }
    return found;
  }
  if (nearest && layout.linked) {
    // No shared configuration yet: the worktree's own file is in force, the store is still shared.
    Found found{*nearest, Origin{Origin::Kind::default_value, "workspace"}, true};
    found.default_store = layout.shared_store();
    found.default_store_reason = store_reason;
    return found;
  }
  return std::nullopt;
}

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
  TRY_ASSIGN(const std::optional<fs::path> nearest, nearest_config(cwd));
  if (const auto layout = git_layout_of(fs::path(cwd))) {
    if (auto found = worktree_config(*layout, nearest)) {
      return std::optional<Found>(std::move(*found));
    }
  }
  if (nearest) {
    return std::optional<Found>(Found{*nearest, Origin{Origin::Kind::default_value, "workspace"}, true});
  }
  if (const std::optional<std::string> config_home = util::xdg_home(env, util::XdgDir::config)) {
    const fs::path candidate = fs::path(*config_home) / "mailroom" / "config.toml";
    if (is_file(candidate)) {
      return std::optional<Found>(
          Found{candidate, Origin{Origin::Kind::default_value, "XDG_CONFIG_HOME"}, false});
    }
  }
  return std::optional<Found>();
}

// The store setting as an error names it: "--db", "$MAILROOM_DB", "store.path (mailroom.toml:3)".
std::string describe(const Origin& origin)
{
  switch (origin.kind) {
  case Origin::Kind::flag:
    return origin.detail;
  case Origin::Kind::env:
    return "$" + origin.detail;
  default:
    return fmt::format("store.path ({})", to_string(origin));
  }
}

// `path` with `~` (at the start), `$NAME` and `${NAME}` expanded from `env`. Errors: usage naming
// an undefined variable and `origin`.
Result<std::string> expand_path(const std::string& path, const util::Environment& env, const Origin& origin)
{
  std::string out;
  std::size_t i = 0;
  const auto variable = [&](const std::string& name) -> Result<std::string> {
    auto value = env.get(name);
    if (!value) {
      return make_error(ErrorCode::usage,
                        fmt::format("{} uses ${{{}}}, which is not set", describe(origin), name));
    }
    return *value;
  };
  if (!path.empty() && path[0] == '~' && (path.size() == 1 || path[1] == '/')) {
    TRY_ASSIGN(out, variable("HOME"));
    i = 1;
  }
  while (i < path.size()) {
    if (path[i] != '$') {
      out += path[i++];
      continue;
    }
    std::string name;
    if (i + 1 < path.size() && path[i + 1] == '{') {
      const auto close = path.find('}', i + 2);
      if (close == std::string::npos) {
        return make_error(ErrorCode::usage, fmt::format("{} has an unclosed \"${{\"", describe(origin)));
      }
      name = path.substr(i + 2, close - i - 2);
      i = close + 1;
    } else {
      std::size_t end = i + 1;
      while (end < path.size() &&
             (std::isalnum(static_cast<unsigned char>(path[end])) != 0 || path[end] == '_')) {
        ++end;
      }
      name = path.substr(i + 1, end - i - 1);
      i = end;
    }
    if (name.empty()) {
      out += '$';
      continue;
    }
    TRY_ASSIGN(const std::string value, variable(name));
    out += value;
  }
  return out;
}

Result<Setting<std::string>> resolve_store(const util::Environment& env, const DiscoveryFlags& flags,
                                           Config& config)
{
  const std::string cwd = env.cwd();
  // A PostgreSQL connection string is kept as written; a path is made absolute.
  const auto place = [&](const std::string& base, const std::string& value) {
    return mail::is_path_location(value) ? absolute_from(base, value).string() : value;
  };
  // `~` and `$VAR` are a path's: a connection string (and its password) is never expanded.
  const auto expanded = [&](const std::string& value, const Origin& origin) -> Result<std::string> {
    if (!mail::is_path_location(value)) {
      return value;
    }
    return expand_path(value, env, origin);
  };
  if (flags.db) {
    config.store_reason = "chosen with --db";
    TRY_ASSIGN(const std::string value, expanded(*flags.db, flag_origin("--db")));
    return Setting<std::string>{place(cwd, value), flag_origin("--db")};
  }
  if (auto value = get_set(env, "MAILROOM_DB")) {
    config.store_reason = "chosen with $MAILROOM_DB";
    TRY_ASSIGN(const std::string path, expanded(*value, env_origin("MAILROOM_DB")));
    return Setting<std::string>{place(cwd, path), env_origin("MAILROOM_DB")};
  }
  if (!config.store_url.value.empty()) {
    config.store_reason = fmt::format("store.url in {}", to_string(config.store_url.origin));
    return Setting<std::string>{config.store_url.value, config.store_url.origin};
  }
  if (!config.store_path.value.empty()) {
    TRY_ASSIGN(const std::string path, expanded(config.store_path.value, config.store_path.origin));
    const std::string base = fs::path(config.file).parent_path().string();
    config.store_reason = fmt::format("store.path in {}", to_string(config.store_path.origin));
    return Setting<std::string>{place(base, path), config.store_path.origin};
  }
  if (!config.default_store.empty()) {
    // Every worktree of a repository shares one store: the main worktree's, or the bare
    // repository's.
    config.store_reason = config.default_store_reason;
    return Setting<std::string>{fs::path(config.default_store).lexically_normal().string(),
                                Origin{Origin::Kind::default_value, "repository"}};
  }
  if (!config.workspace.empty()) {
    config.store_reason = fmt::format("the workspace's store ({}/mailroom.toml)", config.workspace);
    return Setting<std::string>{(fs::path(config.workspace) / ".mailroom" / "mail.db").string(),
                                Origin{Origin::Kind::default_value, "workspace"}};
  }
  const std::optional<std::string> data_home = util::xdg_home(env, util::XdgDir::data);
  if (!data_home) {
    return make_error(ErrorCode::usage, "cannot place the store: HOME is not set",
                      "pass --db PATH or set MAILROOM_DB");
  }
  config.user_wide_store = true;
  config.store_reason = "the user-wide store: no mailroom.toml above this directory";
  return Setting<std::string>{(fs::path(*data_home) / "mailroom" / "mail.db").lexically_normal().string(),
                              Origin{Origin::Kind::default_value, "XDG_DATA_HOME"}};
}

// The per-worktree default identity: `.mailroom-identity` at the top of the git worktree holding
// the cwd (else in the workspace directory), one mailbox name on its first line.
Result<void> read_identity_file(const util::Environment& env, Config& config)
{
  const auto layout = git_layout_of(fs::path(env.cwd()));
  fs::path dir = layout ? layout->top : fs::path(config.workspace);
  if (dir.empty()) {
    return {};
  }
  config.worktree_top = layout ? layout->top.string() : std::string();
  const fs::path file = dir / k_identity_file;
  if (!is_file(file)) {
    return {};
  }
  const std::optional<std::string> text = util::read_file(file.string());
  if (!text) {
    return make_error(ErrorCode::usage, fmt::format("cannot read \"{}\"", file.string()));
  }
  const std::string name = text::trim(text->substr(0, text->find('\n')));
  config.identity_file = {name, Origin{Origin::Kind::file, file.string()}};
  return {};
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
    config.default_store = found->default_store.string();
    config.default_store_reason = found->default_store_reason;
    config.ignored_config = found->ignored.string();
  }
  TRY(read_identity_file(env, config));
  if (auto provider = get_set(env, "MAILROOM_PROVIDER")) {
    config.provider = {*provider, env_origin("MAILROOM_PROVIDER")};
  }
  TRY_ASSIGN(config.store_path, resolve_store(env, flags, config));
  return config;
}

IdentityOrder identity_order(const Config& config)
{
  return config.compat_gc.value ? IdentityOrder::gc : IdentityOrder::mailroom;
}

Result<Identity> resolve_identity(const util::Environment& env, const Config& config,
                                  const std::optional<std::string>& flag, std::string_view flag_name,
                                  std::optional<IdentityOrder> order)
{
  // Only the order of gc's variables differs between the two (contract, "Round 4: decisions after
  // review", Identity).
  static constexpr std::array<const char*, 4> k_mailroom_order = {"MAILROOM_IDENTITY", "GC_ALIAS",
                                                                  "GC_SESSION_ID", "GC_AGENT"};
  static constexpr std::array<const char*, 4> k_gc_order = {"MAILROOM_IDENTITY", "GC_SESSION_ID", "GC_ALIAS",
                                                            "GC_AGENT"};
  const IdentityOrder chosen_order = order.value_or(identity_order(config));
  std::optional<Identity> chosen;
  if (flag) {
    std::string value = text::trim(*flag);
    if (!value.empty()) {
      chosen = Identity{value, flag_origin(std::string(flag_name))};
    }
  }
  for (const char* name : chosen_order == IdentityOrder::gc ? k_gc_order : k_mailroom_order) {
    if (chosen) {
      break;
    }
    if (auto value = get_set(env, name)) {
      chosen = Identity{*value, env_origin(name)};
    }
  }
  if (!chosen && !config.identity_file.value.empty()) {
    chosen = Identity{config.identity_file.value, config.identity_file.origin};
  }
  if (!chosen && !text::trim(config.identity.value).empty()) {
    chosen = Identity{text::trim(config.identity.value), config.identity.origin};
  }
  if (!chosen) {
    return Identity{std::string(mail::k_human), default_origin()};
  }
  if (!mail::is_valid_mailbox(chosen->name)) {
    return make_error(ErrorCode::usage,
                      fmt::format("identity \"{}\" (from {}) is not a valid mailbox",
                                  text::cap_for_echo(chosen->name), to_string(chosen->origin)),
                      "a mailbox is name or rig/name: letters, digits, '.', '_' or '-'");
  }
  return *chosen;
}

} // namespace mailroom::config
