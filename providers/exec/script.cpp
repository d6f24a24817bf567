#include "exec/script.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "exec/wire.hpp"
#include "util/subprocess.hpp"

namespace mailroom::providers::exec {

namespace {

// gc's list ops: exit 2 from these means "nothing to list" (stateless scripts rely on it), unless
// the script's capabilities answer leaves the op out. `all` is not one of them: gc's scripts do
// not implement it, so its exit 2 means "missing" and the provider composes it.
constexpr std::array<std::string_view, 4> k_list_ops = {"inbox", "check", "thread", "count"};
// Not ops a capabilities answer needs to list.
constexpr std::array<std::string_view, 2> k_meta_ops = {"ensure-running", "capabilities"};
// These take a message (or thread) id; the not-found marker applies to them.
constexpr std::array<std::string_view, 9> k_id_ops = {
    "thread", "get", "read", "reply", "mark-read", "mark-unread", "archive", "delete", "unarchive"};
constexpr std::string_view k_not_found_marker = "gc-mail-error:not-found";
constexpr std::string_view k_already_archived = "already archived";
constexpr std::size_t k_max_stderr_in_message = 4096;

template <std::size_t N> bool contains(const std::array<std::string_view, N>& set, std::string_view op)
{
  return std::find(set.begin(), set.end(), op) != set.end();
}

// Go-style duration text for error messages: "500ms", "30s".
std::string format_limit(std::chrono::milliseconds limit)
{
  if (limit.count() % 1000 == 0) {
    return fmt::format("{}s", limit.count() / 1000);
  }
  return fmt::format("{}ms", limit.count());
}

// stderr as one line: trimmed, line breaks joined with "; ", the tail kept when very long.
std::string one_line(std::string_view text)
{
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    return {};
  }
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  std::string out;
  bool pending_break = false;
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      pending_break = true;
      continue;
    }
    if (pending_break) {
      out += "; ";
      pending_break = false;
    }
    out += c;
  }
  if (out.size() > k_max_stderr_in_message) {
    out = "..." + out.substr(out.size() - k_max_stderr_in_message);
  }
  return out;
}

std::string strip_trailing_newlines(std::string text)
{
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text;
}

} // namespace

Script::Script(mail::ExecSettings settings, std::string identity, std::string facts_file)
    : m_settings(std::move(settings)), m_identity(std::move(identity)), m_cache(std::move(facts_file))
{
}

std::string Script::describe(std::string_view op, const std::string& arg) const
{
  if (arg.empty()) {
    return fmt::format("exec mail provider {} {}", m_settings.command, op);
  }
  return fmt::format("exec mail provider {} {} {}", m_settings.command, op, arg);
}

Error Script::bad_output(std::string_view op, const std::string& arg, const Error& problem) const
{
  return make_error(ErrorCode::provider_error, fmt::format("{}: {}", describe(op, arg), problem.message));
}

Error Script::unsupported(std::string_view what, std::string_view why) const
{
  std::string message =
      fmt::format("exec mail provider {} does not support \"{}\"", m_settings.command, what);
  if (!why.empty()) {
    message += fmt::format(" ({})", why);
  }
  return make_error(ErrorCode::unsupported, std::move(message));
}

Result<util::SubprocessResult> Script::spawn(std::string_view op, const std::string& arg,
                                             const std::string& stdin_data) const
{
  util::SubprocessOptions options;
  options.argv = {m_settings.command, std::string(op)};
  if (!arg.empty()) {
    options.argv.push_back(arg);
  }
  options.stdin_data = stdin_data;
  options.timeout = m_settings.timeout;
  options.stdout_cap = m_settings.output_cap;
  // ensure-running starts what the script needs and may leave it running (gc's protocol); it
  // is not killed when the script exits, nor by a hook's budget ending this process.
  options.keep_group = op == "ensure-running";
  if (!m_identity.empty()) {
    options.extra_env = {{"MAILROOM_IDENTITY", m_identity}};
  }
  return util::run_subprocess(options);
}

void Script::load_facts()
{
  if (m_loaded) {
    return;
  }
  m_loaded = true;
  m_key = identify_script(m_settings.command, util::ProcessEnvironment());
  if (m_key) {
    m_facts = m_cache.load(*m_key);
  }
}

void Script::remember() const
{
  if (m_key) {
    m_cache.store(*m_key, m_facts);
  }
}

void Script::ensure_running()
{
  if (m_ensured) {
    return;
  }
  m_ensured = true;
  if (m_facts.ensure_running_absent) {
    return; // it answered exit 2 before: nothing to start
  }
  // gc ignores ensure-running's result; we keep a complaint for a later error's hint, and learn
  // an exit 2 so the next command does not run it.
  auto started = spawn("ensure-running", {}, {});
  if (!started.ok()) {
    return;
  }
  if (started->exited && started->exit_status == 2 && !started->timed_out && !started->over_cap) {
    m_facts.ensure_running_absent = true;
    remember();
  } else if (!started->success()) {
    m_startup_stderr = one_line(started->stderr_text);
  }
}

bool Script::allowed(std::string_view op) const
{
  if (std::find(m_facts.absent_ops.begin(), m_facts.absent_ops.end(), op) != m_facts.absent_ops.end()) {
    return false;
  }
  if (!m_facts.ops || contains(k_meta_ops, op)) {
    return true;
  }
  return std::find(m_facts.ops->begin(), m_facts.ops->end(), op) != m_facts.ops->end();
}

bool Script::lacks_extension(std::string_view op)
{
  load_facts();
  if (std::find(m_facts.absent_ops.begin(), m_facts.absent_ops.end(), op) != m_facts.absent_ops.end()) {
    return true;
  }
  if (!m_facts.probed) {
    return false;
  }
  return !m_facts.ops || std::find(m_facts.ops->begin(), m_facts.ops->end(), op) == m_facts.ops->end();
}

void Script::probe()
{
  load_facts();
  if (m_facts.probed || m_probed) {
    return;
  }
  m_probed = true;
  auto answer = spawn("capabilities", {}, {});
  if (!answer.ok() || answer->timed_out || answer->over_cap || !answer->exited) {
    return; // not an answer: ask again next time
  }
  if (answer->exit_status == 0) {
    m_facts.ops = parse_capabilities(strip_trailing_newlines(answer->stdout_text));
  } else if (answer->exit_status != 2) {
    return;
  }
  m_facts.probed = true; // exit 2, or exit 0 with or without a valid answer
  remember();
}

Result<ScriptOutput> Script::run(std::string_view op, const std::string& arg, const std::string& stdin_data)
{
  TRY_ASSIGN(std::optional<ScriptOutput> out, run_with(op, arg, stdin_data, false));
  return std::move(out).value();
}

Result<std::optional<ScriptOutput>> Script::run_optional(std::string_view op, const std::string& arg)
{
  return run_with(op, arg, {}, true);
}

Result<std::optional<ScriptOutput>> Script::run_with(std::string_view op, const std::string& arg,
                                                     const std::string& stdin_data, bool optional)
{
  // No "--" in the protocol: a leading '-' would reach the script as an option.
  if (!arg.empty() && arg.front() == '-') {
    return make_error(ErrorCode::usage,
                      fmt::format("invalid argument \"{}\": ids and mailboxes cannot start with \"-\"", arg));
  }
  load_facts();
  if (!allowed(op)) {
    if (optional) {
      return std::optional<ScriptOutput>();
    }
    return unsupported(op, "its capabilities answer leaves it out");
  }
  ensure_running();
  const std::string hint =
      m_startup_stderr.empty() ? std::string() : "ensure-running said: " + m_startup_stderr;

  auto spawned = spawn(op, arg, stdin_data);
  if (!spawned.ok()) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("{}: {}", describe(op, arg), spawned.error().message), hint);
  }
  const util::SubprocessResult& r = *spawned;
  if (r.timed_out) {
    return make_error(
        ErrorCode::timeout,
        fmt::format("{}: timed out after {}", describe(op, arg), format_limit(m_settings.timeout)), hint);
  }
  if (r.over_cap) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("{}: output exceeded {} bytes", describe(op, arg), m_settings.output_cap),
                      hint);
  }
  if (r.success()) {
    return std::optional<ScriptOutput>(ScriptOutput{strip_trailing_newlines(r.stdout_text), false});
  }
  if (r.exited && r.exit_status == 2) {
    if (optional) {
      if (op == "delete" &&
          std::find(m_facts.absent_ops.begin(), m_facts.absent_ops.end(), op) == m_facts.absent_ops.end()) {
        m_facts.absent_ops.emplace_back(op); // its fallback (archive) needs no second asking
        remember();
      }
      return std::optional<ScriptOutput>();
    }
    if (!contains(k_list_ops, op)) {
      return unsupported(op);
    }
    // Empty, or an op the script does not have? Only its capabilities answer can tell.
    probe();
    if (!allowed(op)) {
      return unsupported(op, "its capabilities answer leaves it out");
    }
    return std::optional<ScriptOutput>(ScriptOutput{});
  }
  if (contains(k_id_ops, op) && r.stderr_text.find(k_not_found_marker) != std::string::npos) {
    return make_error(ErrorCode::not_found, fmt::format("message \"{}\" not found", arg));
  }
  if ((op == "archive" || op == "delete") && r.stderr_text.find(k_already_archived) != std::string::npos) {
    return std::optional<ScriptOutput>(ScriptOutput{{}, true});
  }
  std::string detail = one_line(r.stderr_text);
  if (detail.empty()) {
    detail = r.describe_status();
  }
  return make_error(ErrorCode::provider_error, fmt::format("{}: {}", describe(op, arg), detail), hint);
}

} // namespace mailroom::providers::exec
