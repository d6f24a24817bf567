#include "compose.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/support.hpp"
#include "mail/limits.hpp"
#include "util/terminal.hpp"

namespace mailroom::cli {

namespace {

std::string_view trim_right(std::string_view line)
{
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.remove_suffix(1);
  }
  return line;
}

// A new empty draft file, `mailroom-draft-XXXXXX.txt` in $TMPDIR (or /tmp), mode 0600.
Result<std::string> make_draft(const util::Environment& env, std::string_view text)
{
  std::string path = env.get("TMPDIR").value_or("/tmp") + "/mailroom-draft-XXXXXX.txt";
  const int fd = ::mkstemps(path.data(), 4);
  if (fd < 0) {
    return usage_error(fmt::format("cannot create a draft file in \"{}\": {}",
                                   path.substr(0, path.rfind('/')), std::strerror(errno)));
  }
  std::string_view rest = text;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n <= 0) {
      ::close(fd);
      return usage_error(fmt::format("cannot write the draft \"{}\"", path));
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  ::close(fd);
  return path;
}

} // namespace

std::optional<std::string> choose_editor(const util::Environment& env)
{
  const auto set = [&](std::string_view name) -> std::optional<std::string> {
    auto value = env.get(name);
    return value && !value->empty() ? value : std::nullopt;
  };
  const bool dumb = env.get("TERM").value_or("") == "dumb";
  if (auto editor = set("MAILROOM_EDITOR")) {
    return editor;
  }
  if (auto visual = set("VISUAL"); visual && !dumb) {
    return visual;
  }
  if (auto editor = set("EDITOR")) {
    return editor;
  }
  return dumb ? std::nullopt : std::optional<std::string>("vi");
}

std::string strip_draft(std::string_view text)
{
  std::string out;
  bool pending_blank = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    const std::string_view raw =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? text.size() + 1 : end + 1;
    if (!raw.empty() && raw.front() == '#') {
      continue;
    }
    const std::string_view line = trim_right(raw);
    if (line.empty()) {
      pending_blank = !out.empty();
      continue;
    }
    if (pending_blank) {
      out += '\n';
      pending_blank = false;
    }
    out.append(line);
    out += '\n';
  }
  return out;
}

Result<std::string> compose_in_editor(Context& ctx, std::string_view about, bool subject_given)
{
  const auto editor = choose_editor(ctx.env);
  if (!editor) {
    return usage_error("the terminal is dumb and neither VISUAL nor EDITOR is set",
                       "give the body as an argument, with -m, or on standard input");
  }
  TRY_ASSIGN(std::vector<std::string> argv, util::split_command_line(*editor));
  if (argv.empty()) {
    return usage_error("the editor command is empty");
  }
  const std::string template_text =
      fmt::format("\n# Write the message {}. {}\n"
                  "# Lines starting with '#' are ignored; an empty message aborts.\n",
                  about,
                  subject_given ? "The subject is given: all of this is the body."
                                : "The first line is the subject, the rest the body.");
  TRY_ASSIGN(ctx.draft, make_draft(ctx.env, template_text));
  argv.push_back(ctx.draft);
  TRY_ASSIGN(const int status, util::run_attached(argv));
  if (status != 0) {
    return usage_error(fmt::format("the editor \"{}\" exited with status {}", *editor, status));
  }
  std::ifstream in(ctx.draft, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    return usage_error(fmt::format("cannot read the draft \"{}\"", ctx.draft));
  }
  std::string body = strip_draft(text.str());
  if (body.empty()) {
    ::unlink(ctx.draft.c_str());
    ctx.draft.clear();
    return usage_error("aborting: empty message");
  }
  if (body.size() > mail::k_max_body_bytes) {
    return usage_error(fmt::format("body is {} bytes; the limit is {}", body.size(), mail::k_max_body_bytes));
  }
  return body;
}

Draft split_draft(std::string_view stripped)
{
  Draft draft;
  const auto end = stripped.find('\n');
  draft.subject = std::string(stripped.substr(0, end));
  std::string_view rest = end == std::string_view::npos ? std::string_view() : stripped.substr(end + 1);
  while (!rest.empty() && rest.front() == '\n') {
    rest.remove_prefix(1); // strip_draft left at most one blank line, and no trailing blanks
  }
  draft.body = std::string(rest);
  return draft;
}

Result<std::optional<Draft>> implicit_body(Context& ctx, std::string_view about, bool subject_given,
                                           const std::function<Result<void>()>& before_editor)
{
  if (!ctx.in.is_tty()) {
    auto piped = ctx.in.read_all(mail::k_max_body_bytes);
    if (piped.ok() && !piped->empty()) {
      return std::optional<Draft>(Draft{std::nullopt, std::move(piped).value()});
    }
    if (!piped.ok() && piped.error().code == ErrorCode::usage) {
      return std::move(piped).error(); // over the cap
    }
    // Empty: the caller's usage error, as for an empty body argument.
    return std::optional<Draft>();
  }
  if (!ctx.out.out_is_tty() || ctx.json) {
    return std::optional<Draft>();
  }
  TRY(before_editor());
  TRY_ASSIGN(std::string text, compose_in_editor(ctx, about, subject_given));
  if (subject_given) {
    return std::optional<Draft>(Draft{std::nullopt, std::move(text)});
  }
  return std::optional<Draft>(split_draft(text));
}

} // namespace mailroom::cli
