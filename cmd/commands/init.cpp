// mailroom init: a commented mailroom.toml, a private .mailroom/ kept out of git, and the store.
// An existing mailroom.toml is never overwritten: init then only makes sure .mailroom/ and the
// store exist and says the workspace is already initialised (exit 0), so running it twice is
// harmless. It is the only command that creates a store. It refuses to create a workspace inside
// another one unless --force. In a linked git worktree it initialises the repository's one
// workspace: the main worktree's mailroom.toml and .mailroom/, or for a bare repository
// <common dir>/mailroom/ (both files in it); it keeps .mailroom-identity out of git
// (<common dir>/info/exclude). `--db PATH` is recorded as [store] path, `--db URL` as [store] url
// (a URL with a password is refused: it belongs in ~/.pgpass).

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "config/worktree.hpp"
#include "render/json.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/file_read.hpp"

namespace mailroom::cli {

namespace {

struct InitOptions {
  bool force = false;
  bool gc = false;
};

Error io_error(std::string_view what, const std::string& path)
{
  return make_error(ErrorCode::store_error,
                    fmt::format("cannot {} \"{}\": {}", what, path, std::strerror(errno)));
}

// Writes `text` to `path` unless it exists ("wx": O_CREAT|O_EXCL); false when it does.
Result<bool> write_in_place(const std::string& path, const std::string& text)
{
  std::FILE* file = std::fopen(path.c_str(), "wx");
  if (file == nullptr) {
    if (errno == EEXIST) {
      return false;
    }
    return io_error("create", path);
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    return io_error("write", path);
  }
  return true;
}

// Writes the template only if no file exists, whole or not at all: it is written to a private
// temporary file and then linked to `path` (link(2) never replaces a file), so a concurrent `init`
// neither clobbers it nor reads it half written.
Result<bool> write_template(const std::string& path, const std::string& text)
{
  const std::string temporary = fmt::format("{}.{}.tmp", path, ::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wx");
  if (file == nullptr) {
    return io_error("create", temporary);
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    const Error error = io_error("write", temporary);
    std::remove(temporary.c_str());
    return error;
  }
  const int linked = ::link(temporary.c_str(), path.c_str());
  const int link_errno = errno;
  std::remove(temporary.c_str());
  if (linked != 0) {
    if (link_errno == EEXIST) {
      return false;
    }
    if (link_errno == EPERM || link_errno == EOPNOTSUPP) {
      return write_in_place(path, text); // a filesystem without hard links
    }
    errno = link_errno;
    return io_error("create", path);
  }
  return true;
}

// The nearest directory above `dir` holding a mailroom.toml, if any.
std::optional<std::filesystem::path> enclosing_workspace(const std::filesystem::path& dir)
{
  std::error_code ec;
  for (std::filesystem::path up = dir.parent_path(); !up.empty(); up = up.parent_path()) {
    if (std::filesystem::is_regular_file(up / "mailroom.toml", ec)) {
      return up;
    }
    if (up == up.root_path()) {
      break;
    }
  }
  return std::nullopt;
}

// Writes `path` with `text` unless it exists.
Result<void> write_if_missing(const std::string& path, std::string_view text)
{
  std::FILE* file = std::fopen(path.c_str(), "wx");
  if (file == nullptr) {
    return errno == EEXIST ? Result<void>() : Result<void>(io_error("create", path));
  }
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    return io_error("write", path);
  }
  return {};
}

// The template init writes: with --db, the store it names recorded in it.
Result<std::string> template_for(const Context& ctx, const InitOptions& opts)
{
  if (!ctx.globals.db) {
    return config::config_template(opts.gc);
  }
  const std::string& db = *ctx.globals.db;
  if (text::is_postgres_location(db)) {
    if (text::redact_conninfo(db) != db || !text::conninfo_passwords(db).empty()) {
      return make_error(ErrorCode::usage,
                        "the store URL has a password, which init would write into mailroom.toml",
                        "put the password in ~/.pgpass (or $PGPASSFILE) and pass the URL without it");
    }
    return config::config_template(opts.gc, "store.url", db);
  }
  // A relative path is recorded from the cwd, so the file means the same store wherever it is.
  const bool expands = !db.empty() && (db[0] == '~' || db[0] == '$' || db[0] == '/');
  const std::string recorded =
      expands ? db : (std::filesystem::path(ctx.env.cwd()) / db).lexically_normal().string();
  return config::config_template(opts.gc, "store.path", recorded);
}

// Adds `.mailroom-identity` to the repository's info/exclude (shared by every worktree), once.
void exclude_identity_file(const config::GitLayout& layout)
{
  const std::filesystem::path exclude = layout.common_dir / "info" / "exclude";
  const std::string line(config::k_identity_file);
  if (const auto text = util::read_file(exclude.string())) {
    if (("\n" + *text).find("\n" + line + "\n") != std::string::npos) {
      return;
    }
  }
  std::error_code ec;
  std::filesystem::create_directories(exclude.parent_path(), ec);
  if (std::FILE* file = std::fopen(exclude.c_str(), "a")) {
    const std::string entry = "# mailroom: each worktree's own default identity\n" + line + "\n";
    std::fwrite(entry.data(), 1, entry.size(), file);
    std::fclose(file);
  }
}

Result<ExitCode> run_init(Context& ctx, const InitOptions& opts)
{
  std::filesystem::path dir(ctx.env.cwd());
  std::string config_path = (dir / "mailroom.toml").string();
  std::string store_dir = (dir / ".mailroom").string();
  const auto layout = config::git_layout_of(dir);
  if (layout && layout->linked && !ctx.globals.config) {
    // Every worktree shares the repository's one workspace; a branch without mailroom.toml too.
    config_path = layout->shared_config().string();
    store_dir = layout->shared_store_dir().string();
    dir = std::filesystem::path(config_path).parent_path();
  }
  if (layout) {
    exclude_identity_file(*layout);
  }
  TRY_ASSIGN(const std::string template_text, template_for(ctx, opts));
  std::error_code ec;
  if (!opts.force && !std::filesystem::exists(config_path, ec) && !(layout && layout->linked)) {
    if (const auto outer = enclosing_workspace(dir)) {
      return usage_error(
          fmt::format("{} is inside the workspace {}", text::cap_for_echo(dir.string()),
                      text::cap_for_echo(outer->string())),
          "agents below it already share that store; use --force to create a nested workspace");
    }
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return io_error("create directory", dir.string());
  }
  TRY_ASSIGN(bool created, write_template(config_path, template_text));
  if (::mkdir(store_dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return io_error("create directory", store_dir);
  }
  // The store and its WAL files never belong in a commit.
  TRY(write_if_missing(store_dir + "/.gitignore", "# mailroom's store: local state, never committed\n*\n"));
  // Now that the workspace exists, find its store as every other command will, and create it.
  TRY_ASSIGN(config::Config config, config::discover_config(ctx.env, {ctx.globals.config, ctx.globals.db}));
  TRY_ASSIGN(mail::ProviderSettings settings, config::provider_settings(config));
  std::string store = settings.kind == "exec" ? std::string("(exec provider: no store)")
                                              : text::redact_conninfo(config.store_path.value);
  if (settings.kind != "exec") {
    settings.store.access = mail::Access::create;
    TRY(ctx.open_provider(settings));
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["config"] = config_path;
    doc["store_dir"] = store_dir;
    doc["store"] = store;
    doc["created"] = created;
    TRY(write_json(ctx, doc));
  } else if (created) {
    TRY(write_text(
        ctx, text::DisplayText::format("Initialised mailroom workspace in {}\n"
                                       "  wrote {}\n  created {}/ (mode 0700, ignored by git)\n  store {}\n"
                                       "Next: mailroom agents add <name>...\n",
                                       text::sanitize_line(dir.string()), text::sanitize_line(config_path),
                                       text::sanitize_line(store_dir), text::sanitize_line(store))));
  } else {
    TRY(write_text(ctx,
                   text::DisplayText::format("Already initialised: {} exists (left unchanged); store {}\n",
                                             text::sanitize_line(config_path), text::sanitize_line(store))));
  }
  return ExitCode::ok;
}

} // namespace

void register_init(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<InitOptions>();
  command.add_flag("--force", opts->force, "create a workspace even inside another one");
  command.add_flag("--gc", opts->gc, "use Gas City semantics ([compat] gc = true)");
  command.footer("Example:\n  cd ~/project && mailroom init && mailroom agents add mayor polecat");
  inv.on_select(command, [opts](Context& ctx) { return run_init(ctx, *opts); });
}

} // namespace mailroom::cli
