#include "util/terminal.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/environment.hpp"

namespace mailroom::util {

namespace {

// Ignores SIGINT and SIGQUIT for its lifetime, restoring the previous handlers after.
class IgnoreInterrupts {
public:
  IgnoreInterrupts()
  {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &m_int);
    sigaction(SIGQUIT, &ignore, &m_quit);
  }
  ~IgnoreInterrupts()
  {
    sigaction(SIGINT, &m_int, nullptr);
    sigaction(SIGQUIT, &m_quit, nullptr);
  }
  IgnoreInterrupts(const IgnoreInterrupts&) = delete;
  IgnoreInterrupts& operator=(const IgnoreInterrupts&) = delete;

private:
  struct sigaction m_int {};
  struct sigaction m_quit {};
};

int wait_status(pid_t pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return 127;
    }
  }
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status);
  }
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127;
}

// posix_spawnp with `argv`, the environment plus `extra_env`, default signal dispositions, and
// `actions` applied in the child.
Result<pid_t> spawn_program(const std::vector<std::string>& argv, const EnvPairs& extra_env,
                            posix_spawn_file_actions_t* actions)
{
  if (argv.empty() || argv.front().empty()) {
    return make_error(ErrorCode::usage, "empty command");
  }
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str())); // NOLINT: posix_spawn's signature
  }
  args.push_back(nullptr);
  std::vector<std::string> env = build_environment(extra_env);
  std::vector<char*> envp;
  for (auto& e : env) {
    envp.push_back(e.data());
  }
  envp.push_back(nullptr);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, args.front(), actions, &attr, args.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("cannot run \"{}\": {}", argv.front(), std::strerror(rc)));
  }
  return pid;
}

} // namespace

Result<std::vector<std::string>> split_command_line(std::string_view line)
{
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) {
        words.push_back(std::move(word));
        word.clear();
        in_word = false;
      }
      continue;
    }
    in_word = true;
    if (c == '\'') {
      const auto end = line.find('\'', i + 1);
      if (end == std::string_view::npos) {
        return make_error(ErrorCode::usage, fmt::format("unclosed quote in \"{}\"", line));
      }
      word.append(line.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\')) {
          ++j;
        }
        word += line[j];
      }
      if (j >= line.size()) {
        return make_error(ErrorCode::usage, fmt::format("unclosed quote in \"{}\"", line));
      }
      i = j;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) {
        return make_error(ErrorCode::usage, fmt::format("trailing backslash in \"{}\"", line));
      }
      word += line[++i];
    } else {
      word += c;
    }
  }
  if (in_word) {
    words.push_back(std::move(word));
  }
  return words;
}

Result<int> run_attached(const std::vector<std::string>& argv, const EnvPairs& extra_env)
{
  IgnoreInterrupts ignore;
  TRY_ASSIGN(const pid_t pid, spawn_program(argv, extra_env, nullptr));
  return wait_status(pid);
}

Result<PipedChild> PipedChild::start(const std::vector<std::string>& argv, const EnvPairs& extra_env)
{
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return make_error(ErrorCode::provider_error, fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  auto pid = spawn_program(argv, extra_env, &actions);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (!pid.ok()) {
    ::close(fds[1]);
    return std::move(pid).error();
  }
  return PipedChild(fds[1], *pid);
}

PipedChild::PipedChild(PipedChild&& other) noexcept : m_fd(other.m_fd), m_pid(other.m_pid)
{
  other.m_fd = -1;
  other.m_pid = -1;
}

PipedChild& PipedChild::operator=(PipedChild&& other) noexcept
{
  if (this != &other) {
    finish();
    m_fd = other.m_fd;
    m_pid = other.m_pid;
    other.m_fd = -1;
    other.m_pid = -1;
  }
  return *this;
}

PipedChild::~PipedChild()
{
  finish();
}

void PipedChild::finish()
{
  if (m_fd >= 0) {
    ::close(m_fd);
    m_fd = -1;
  }
  if (m_pid > 0) {
    IgnoreInterrupts ignore;
    (void)wait_status(m_pid);
    m_pid = -1;
  }
}

} // namespace mailroom::util
