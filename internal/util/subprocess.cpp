#include "util/subprocess.hpp"

#include <cctype>
#include <cstring>

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/child.hpp"

namespace mailroom::util {

namespace {

std::string lower_first(std::string text)
{
  if (!text.empty()) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

bool executable_file(const std::string& path)
{
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

} // namespace

bool can_execute(const std::string& program, const std::string& path_env)
{
  if (program.empty()) {
    return false;
  }
  if (program.find('/') != std::string::npos) {
    return executable_file(program);
  }
  std::size_t start = 0;
  while (start <= path_env.size()) {
    const std::size_t end = std::min(path_env.find(':', start), path_env.size());
    const std::string dir = path_env.substr(start, end - start);
    if (executable_file((dir.empty() ? std::string(".") : dir) + "/" + program)) {
      return true;
    }
    start = end + 1;
  }
  return false;
}

std::string SubprocessResult::describe_status() const
{
  if (exited) {
    return fmt::format("exit status {}", exit_status);
  }
  const char* description = ::sigdescr_np(term_signal);
  if (description == nullptr) {
    return fmt::format("signal: {}", term_signal);
  }
  return "signal: " + lower_first(description);
}

Result<SubprocessResult> run_subprocess(const SubprocessOptions& options)
{
  TRY_ASSIGN(Child child, Child::spawn(options));
  const auto deadline = Child::Clock::now() + options.timeout;
  if (child.pump(deadline) == Child::Event::deadline && !child.ended()) {
    child.kill_for_timeout();
  }
  return child.finish();
}

} // namespace mailroom::util
