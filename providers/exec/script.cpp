#include "exec/script.hpp"

#include <array>
#include <algorithm>

#include <fmt/format.h>

#include "exec/wire.hpp"
#include "util/subprocess.hpp"

namespace mailroom::providers::exec {

namespace {

// Exit 2 from these means "nothing to list" (stateless scripts rely on it).
constexpr std::array<std::string_view, 5> k_list_ops = {"inbox", "check", "all", "thread", "count"};
// These take a message (or thread) id; the not-found marker applies to them.
constexpr std::array<std::string_view, 9> k_id_ops = {"thread",   "get",         "read",    "reply",    "mark-read",
                                                      "mark-unread", "archive", "delete", "unarchive"};
constexpr std::string_view k_not_found_marker = "gc-mail-error:not-found";
constexpr std::string_view k_already_archived = "already archived";
constexpr std::size_t k_max_stderr_in_message = 4096;

template<std::size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view op)
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

Script::Script(mail::ExecSettings settings, std::string identity)
    : m_settings(std::move(settings)), m_identity(std::move(identity))
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

Error Script::unsupported(std::string_view what) const
{
  return make_error(ErrorCode::unsupported,
                          fmt::format("exec mail provider {} does not support \"{}\"", m_settings.command, what));
}

void Script::start()
{
  m_started = true;
  util::SubprocessOptions options;
  options.argv = {m_settings.command, "ensure-running"};
  options.timeout = m_settings.timeout;
  options.stdout_cap = m_settings.output_cap;
  if (!m_identity.empty()) {
    options.extra_env = {{"MAILROOM_IDENTITY", m_identity}};
  }
  // gc ignores ensure-running entirely; we only keep its complaint for a later error's hint.
  if (auto started = util::run_subprocess(options); started.ok()) {
    if (!started->success() && !(started->exited && started->exit_status == 2)) {
      m_startup_stderr = one_line(started->stderr_text);
    }
  }
  options.argv = {m_settings.command, "capabilities"};
  if (auto answer = util::run_subprocess(options); answer.ok() && answer->success()) {
    if (auto ops = parse_capabilities(strip_trailing_newlines(answer->stdout_text))) {
      m_ops.emplace(ops->begin(), ops->end());
    }
  }
}

Result<ScriptOutput> Script::run(std::string_view op, const std::string& arg, const std::string& stdin_data)
{
  // No "--" in the protocol: a leading '-' would reach the script as an option.
  if (!arg.empty() && arg.front() == '-') {
    return make_error(ErrorCode::usage,
                            fmt::format("invalid argument \"{}\": ids and mailboxes cannot start with \"-\"", arg));
  }
  if (!m_started) {
    start();
  }
  if (m_ops && m_ops->find(op) == m_ops->end()) {
    return unsupported(op);
  }

  util::SubprocessOptions options;
  options.argv = {m_settings.command, std::string(op)};
  if (!arg.empty()) {
    options.argv.push_back(arg);
  }
  options.stdin_data = stdin_data;
  options.timeout = m_settings.timeout;
  options.stdout_cap = m_settings.output_cap;
  if (!m_identity.empty()) {
    options.extra_env = {{"MAILROOM_IDENTITY", m_identity}};
  }
  const std::string hint = m_startup_stderr.empty() ? std::string() : "ensure-running said: " + m_startup_stderr;

  auto spawned = util::run_subprocess(options);
  if (!spawned.ok()) {
    return make_error(ErrorCode::provider_error,
                            fmt::format("{}: {}", describe(op, arg), spawned.error().message), hint);
  }
  const util::SubprocessResult& r = *spawned;
  if (r.timed_out) {
    return make_error(ErrorCode::timeout,
                            fmt::format("{}: timed out after {}", describe(op, arg), format_limit(m_settings.timeout)),
                            hint);
  }
  if (r.over_cap) {
    return make_error(ErrorCode::provider_error,
                            fmt::format("{}: output exceeded {} bytes", describe(op, arg), m_settings.output_cap),
                            hint);
  }
  if (r.success()) {
    return ScriptOutput{strip_trailing_newlines(r.stdout_text), false};
  }
  if (r.exited && r.exit_status == 2) {
    if (contains(k_list_ops, op)) {
      return ScriptOutput{};
    }
    return unsupported(op);
  }
  if (contains(k_id_ops, op) && r.stderr_text.find(k_not_found_marker) != std::string::npos) {
    return make_error(ErrorCode::not_found, fmt::format("message \"{}\" not found", arg));
  }
  if ((op == "archive" || op == "delete") && r.stderr_text.find(k_already_archived) != std::string::npos) {
    return ScriptOutput{{}, true};
  }
  std::string detail = one_line(r.stderr_text);
  if (detail.empty()) {
    detail = r.describe_status();
  }
  return make_error(ErrorCode::provider_error, fmt::format("{}: {}", describe(op, arg), detail), hint);
}

} // namespace mailroom::providers::exec
