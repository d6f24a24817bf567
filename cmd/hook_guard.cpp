#include "hook_guard.hpp"

#include <algorithm>
#include <iterator>

#include "text/strings.hpp"

namespace mailroom::cli {

bool is_hook_invocation(const std::vector<std::string>& args)
{
  constexpr std::string_view k_valued[] = {"--as", "--config", "--db"};
  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (std::find(std::begin(k_valued), std::end(k_valued), arg) != std::end(k_valued)) {
      ++i; // its value
      continue;
    }
    if (arg.empty() || arg[0] != '-') {
      break;
    }
  }
  if (i >= args.size() || args[i] != "check") {
    return false;
  }
  return std::any_of(args.begin() + static_cast<std::ptrdiff_t>(i), args.end(), [](const std::string& arg) {
    return arg == "--inject" || text::starts_with(arg, "--hook-format");
  });
}

void OneLineErrors::flush()
{
  if (m_text.empty()) {
    return;
  }
  const std::string line = m_text.substr(0, m_text.find('\n'));
  m_inner.err(text::cap_for_echo(line, 400) + "\n");
}

} // namespace mailroom::cli
