#include "wake/run.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/session_child.hpp"

namespace mailroom::wake {

namespace {

std::string limit_text(std::chrono::milliseconds limit)
{
  if (limit.count() % 1000 == 0) {
    return fmt::format("{}s", limit.count() / 1000);
  }
  return fmt::format("{}ms", limit.count());
}

} // namespace

Report run_argv(const std::vector<std::string>& argv, std::chrono::milliseconds limit,
                const std::vector<std::pair<std::string, std::string>>& extra_env)
{
  const auto deadline = std::chrono::steady_clock::now() + limit;
  auto pid = util::spawn_in_session(argv, extra_env);
  if (!pid.ok()) {
    return {Outcome::failed, pid.error().message};
  }
  const util::SubprocessResult ended = util::wait_in_session(*pid, deadline);
  if (ended.timed_out) {
    return {Outcome::failed, fmt::format("timed out after {} (killed)", limit_text(limit))};
  }
  if (ended.exited && ended.exit_status == 0) {
    return {Outcome::sent, {}};
  }
  return {Outcome::failed, ended.describe_status()};
}

Launcher::~Launcher()
{
  reap();
}

Result<pid_t> Launcher::launch(const std::vector<std::string>& argv,
                               const std::vector<std::pair<std::string, std::string>>& extra_env)
{
  reap();
  TRY_ASSIGN(const pid_t pid, util::spawn_in_session(argv, extra_env));
  m_running.push_back(pid);
  return pid;
}

std::size_t Launcher::reap()
{
  std::erase_if(m_running, [](pid_t pid) { return util::reap_if_ended(pid); });
  return m_running.size();
}

} // namespace mailroom::wake
