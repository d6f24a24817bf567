// mailroom init: a commented mailroom.toml and a private .mailroom/ in the current directory.
// An existing mailroom.toml is never overwritten: init then only makes sure .mailroom/ exists and
// says the workspace is already initialised (exit 0), so running it twice is harmless.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <sys/stat.h>

#include "commands.hpp"
#include "config/config.hpp"
#include "render/json.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct InitOptions {};

Error io_error(std::string_view what, const std::string& path)
{
  return make_error(ErrorCode::store_error,
                          fmt::format("cannot {} \"{}\": {}", what, path, std::strerror(errno)));
}

// Writes the template only if no file exists ("wx": O_CREAT|O_EXCL), so a race cannot clobber one.
Result<bool> write_template(const std::string& path)
{
  std::FILE* file = std::fopen(path.c_str(), "wx");
  if (file == nullptr) {
    if (errno == EEXIST) {
      return false;
    }
    return io_error("create", path);
  }
  const std::string text = config::config_template();
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !ok) {
    return io_error("write", path);
  }
  return true;
}

Result<ExitCode> run_init(Context& ctx, const InitOptions& /*opts*/)
{
  const std::filesystem::path dir(ctx.env.cwd());
  const std::string config_path = (dir / "mailroom.toml").string();
  const std::string store_dir = (dir / ".mailroom").string();
  TRY_ASSIGN(bool created, write_template(config_path));
  if (::mkdir(store_dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return io_error("create directory", store_dir);
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["config"] = config_path;
    doc["store_dir"] = store_dir;
    doc["created"] = created;
    TRY(write_json(ctx, doc));
  } else if (created) {
    TRY(write_text(ctx, fmt::format("Initialised mailroom workspace in {}\n"
                                    "  wrote {}\n  created {}/ (mode 0700)\n"
                                    "Next: mailroom agents add <name>...\n",
                                    dir.string(), config_path, store_dir)));
  } else {
    TRY(write_text(ctx, fmt::format("Already initialised: {} exists (left unchanged)\n", config_path)));
  }
  return ExitCode::ok;
}

} // namespace

void register_init(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<InitOptions>();
  command.footer("Example:\n  cd ~/project && mailroom init && mailroom agents add mayor polecat");
  inv.on_select(command, [opts](Context& ctx) { return run_init(ctx, *opts); });
}

} // namespace mailroom::cli
