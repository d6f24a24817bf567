// mailroom completion: bash, zsh and fish scripts from the same parser the commands use
// (completion_scripts.cpp writes them).

#include "completion.hpp"

#include <fmt/format.h>

#include "commands.hpp"
#include "render/json.hpp"
#include "support.hpp"

namespace mailroom::cli {

namespace {

struct CompletionOptions {
  std::vector<std::string> shell;
};

Result<ExitCode> run_completion(Context& ctx, const CompletionOptions& opts)
{
  if (opts.shell.size() != 1) {
    return usage_error(opts.shell.empty() ? "missing shell" : "completion takes one shell",
                       "usage: mailroom completion bash|zsh|fish");
  }
  auto script = completion_script(describe_cli(), opts.shell.front());
  if (!script) {
    return usage_error(fmt::format("unknown shell \"{}\"", opts.shell.front()), "use bash, zsh or fish");
  }
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["shell"] = opts.shell.front();
    doc["script"] = *script;
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_data(ctx, *script)); // a script this file wrote, names quoted for the shell
  }
  return ExitCode::ok;
}

} // namespace

void register_completion(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<CompletionOptions>();
  command.add_option("shell", opts->shell, "bash, zsh or fish");
  command.footer("Examples:\n  source <(mailroom completion bash)\n"
                 "  mailroom completion zsh > \"${fpath[1]}/_mailroom\"\n"
                 "  mailroom completion fish > ~/.config/fish/completions/mailroom.fish");
  inv.on_select(command, [opts](Context& ctx) { return run_completion(ctx, *opts); });
}

} // namespace mailroom::cli
