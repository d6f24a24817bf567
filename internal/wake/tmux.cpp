#include "wake/tmux.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "text/strings.hpp"
#include "util/subprocess.hpp"
#include "wake/placeholders.hpp"

namespace mailroom::wake {

namespace {

constexpr std::string_view k_line_placeholders[] = {"to", "count"};
constexpr std::size_t k_line_max_bytes = 200;
// The typed line is found again in the pane by its last bytes: short enough to stay on one row.
constexpr std::size_t k_tail_bytes = 16;
constexpr int k_enter_presses = 3; // the first Enter and two retries
// #{pane_activity} expands empty on a tmux that lacks it (3.3a); the fields are tab-separated.
constexpr std::string_view k_pane_format = "#{pane_id}\t#{pane_dead}\t#{pane_in_mode}\t#{window_activity}\t#{"
                                           "pane_activity}\t#{pane_current_command}";

bool control_char(char c)
{
  return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

std::string seconds_text(std::chrono::milliseconds length)
{
  return length.count() % 1000 == 0 ? fmt::format("{}s", length.count() / 1000)
                                    : fmt::format("{}ms", length.count());
}

std::vector<std::string> split(std::string_view text, char separator)
{
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.emplace_back(
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) {
      return parts;
    }
    start = end + 1;
  }
}

std::optional<std::int64_t> parse_seconds(std::string_view text)
{
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stoll(std::string(text));
}

// One tmux server, reached by its socket; every call an argv with a time limit.
class Server {
public:
  Server(const Target& target, const TmuxOptions& options) : m_socket(target.tmux_socket), m_options(options)
  {
  }

  // The run, or a failure report: tmux could not be started or did not answer in time.
  Result<util::SubprocessResult> call(std::vector<std::string> args) const
  {
    util::SubprocessOptions run;
    run.argv = {m_options.tmux_program, "-S", m_socket};
    run.argv.insert(run.argv.end(), std::make_move_iterator(args.begin()),
                    std::make_move_iterator(args.end()));
    run.timeout = m_options.call_limit;
    run.stdout_cap = 1024U * 1024U;
    TRY_ASSIGN(util::SubprocessResult result, util::run_subprocess(run));
    if (result.timed_out) {
      return make_error(ErrorCode::timeout,
                        fmt::format("tmux did not answer within {}", seconds_text(run.timeout)));
    }
    return result;
  }

private:
  std::string m_socket;
  const TmuxOptions& m_options;
};

std::string tmux_said(const util::SubprocessResult& result)
{
  std::string said = text::trim(result.stderr_text);
  return said.empty() ? "tmux " + result.describe_status() : text::cap_for_echo(said);
}

// The last row of `screen` that holds `tail`, or -1.
int last_row_with(std::string_view screen, std::string_view tail)
{
  const std::vector<std::string> rows = split(screen, '\n');
  for (int row = static_cast<int>(rows.size()) - 1; row >= 0; --row) {
    if (rows[static_cast<std::size_t>(row)].find(tail) != std::string::npos) {
      return row;
    }
  }
  return -1;
}

} // namespace

Result<void> check_line(std::string_view line)
{
  if (text::trim_view(line).empty()) {
    return make_error(ErrorCode::usage, "[wake] line is empty");
  }
  if (line.size() > k_line_max_bytes) {
    return make_error(ErrorCode::usage, fmt::format("[wake] line is longer than {} bytes", k_line_max_bytes));
  }
  if (std::any_of(line.begin(), line.end(), control_char)) {
    return make_error(ErrorCode::usage, "[wake] line holds a control character");
  }
  if (auto unknown = unknown_placeholder(line, k_line_placeholders)) {
    return make_error(
        ErrorCode::usage,
        fmt::format("placeholder \"{{{}}}\" is not allowed in [wake] line", text::cap_for_echo(*unknown)),
        "the line takes {to} and {count}; the message's own facts are for command targets");
  }
  return {};
}

std::string expand_line(std::string_view line, std::string_view to, std::int64_t count,
                        const std::optional<std::string>& as_name)
{
  const auto clean = [](std::string value) {
    std::replace_if(value.begin(), value.end(), control_char, '?');
    return value;
  };
  std::string expanded = substitute(line, k_line_placeholders, [&](std::string_view name) {
    return name == "to" ? clean(std::string(to)) : std::to_string(count);
  });
  if (as_name) {
    const std::string as = fmt::format("--as {}", clean(*as_name));
    constexpr std::string_view k_command = "mailroom ";
    const std::size_t at = expanded.find(k_command);
    if (at == std::string::npos) {
      expanded += " " + as;
    } else {
      expanded.insert(at + k_command.size(), as + " ");
    }
  }
  return expanded;
}

Report judge_pane(const PaneFacts& facts, const TmuxOptions& options, std::int64_t now_ms)
{
  const auto& agents = options.agent_commands;
  if (std::find(agents.begin(), agents.end(), facts.command) == agents.end()) {
    return {Outcome::not_agent, fmt::format("the pane runs \"{}\", not one of [wake] agent_commands",
                                            text::cap_for_echo(facts.command))};
  }
  if (facts.in_mode) {
    return {Outcome::not_idle, "the pane is in a mode (copy mode or a menu)"};
  }
  const std::int64_t activity_ms = facts.pane_activity.value_or(facts.window_activity) * 1000;
  const std::int64_t quiet_ms = now_ms - activity_ms;
  if (quiet_ms < options.idle_after.count()) {
    return {Outcome::not_idle,
            fmt::format("the {} was active {}s ago, less than idle_after ({})",
                        facts.pane_activity ? "pane" : "window", std::max<std::int64_t>(quiet_ms, 0) / 1000,
                        seconds_text(options.idle_after))};
  }
  return {Outcome::sent, {}};
}

Report wake_tmux(const Target& target, std::string_view line, const TmuxOptions& options, std::int64_t now_ms,
                 util::Pause& pause)
{
  if (target.kind != TargetKind::tmux) {
    return {Outcome::failed, "not a tmux target"};
  }
  if (text::trim_view(line).empty() || std::any_of(line.begin(), line.end(), control_char)) {
    return {Outcome::failed, "the line is empty or holds a control character"}; // Enter is ours to press
  }
  const Server tmux(target, options);
  const auto failed = [](const Error& error) { return Report{Outcome::failed, error.message}; };

  // display-message falls back to the current pane for a target it cannot find; capture-pane
  // fails instead, so it decides whether the pane is there, and later calls name it by its id.
  auto probe = tmux.call({"capture-pane", "-p", "-t", target.tmux_target});
  if (!probe.ok()) {
    return failed(probe.error());
  }
  if (!probe->success()) {
    return {Outcome::no_pane, tmux_said(*probe)};
  }
  auto shown = tmux.call({"display-message", "-p", "-t", target.tmux_target, std::string(k_pane_format)});
  if (!shown.ok()) {
    return failed(shown.error());
  }
  std::string_view answer = shown->stdout_text;
  answer = answer.substr(0, answer.find('\n'));
  const std::vector<std::string> fields = split(answer, '\t');
  if (!shown->success() || fields.size() < 6 || fields[0].empty()) {
    return {Outcome::no_pane, shown->success() ? "tmux names no such pane" : tmux_said(*shown)};
  }
  if (fields[1] == "1") {
    return {Outcome::no_pane, "the pane's program has exited"};
  }
  PaneFacts facts;
  facts.in_mode = fields[2] == "1";
  facts.window_activity = parse_seconds(fields[3]).value_or(0);
  facts.pane_activity = parse_seconds(fields[4]);
  facts.command = fields[5];
  if (Report verdict = judge_pane(facts, options, now_ms); verdict.outcome != Outcome::sent) {
    return verdict;
  }

  const std::string& pane = fields[0];
  const auto keys = [&](std::vector<std::string> args) -> Result<void> {
    std::vector<std::string> call{"send-keys", "-t", pane};
    call.insert(call.end(), args.begin(), args.end());
    TRY_ASSIGN(const util::SubprocessResult sent, tmux.call(std::move(call)));
    if (!sent.success()) {
      return make_error(ErrorCode::provider_error, tmux_said(sent));
    }
    return {};
  };
  const auto input_row = [&]() -> Result<int> {
    TRY_ASSIGN(const util::SubprocessResult screen, tmux.call({"capture-pane", "-p", "-t", pane}));
    if (!screen.success()) {
      return make_error(ErrorCode::provider_error, tmux_said(screen));
    }
    const std::string_view trimmed = text::trim_view(line);
    return last_row_with(screen.stdout_text,
                         trimmed.substr(trimmed.size() - std::min(trimmed.size(), k_tail_bytes)));
  };

  if (auto typed = keys({"-l", "--", std::string(line)}); !typed.ok()) {
    return failed(typed.error());
  }
  pause.sleep_for(options.submit_delay, -1);
  const auto typed_row = input_row();
  if (!typed_row.ok()) {
    return failed(typed_row.error());
  }
  for (int press = 0; press < k_enter_presses; ++press) {
    if (auto entered = keys({"Enter"}); !entered.ok()) {
      return failed(entered.error());
    }
    pause.sleep_for(options.submit_delay, -1);
    const auto row = input_row();
    if (!row.ok()) {
      return failed(row.error());
    }
    if (*row != *typed_row) {
      return {Outcome::sent, {}};
    }
  }
  return {Outcome::failed, *typed_row < 0 ? "the typed line never showed in the pane"
                                          : fmt::format("the line stayed in the pane's input after {} Enters",
                                                        k_enter_presses)};
}

} // namespace mailroom::wake
