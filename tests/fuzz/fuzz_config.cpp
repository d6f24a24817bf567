// libFuzzer target: config::parse_config (toml++) on any bytes, then provider_settings when it
// parses.

#include <string>

#include "config/config.hpp"
#include "fuzz/harness.hpp"

using namespace mailroom;

// toml++ 3.3.0 (Debian 12) reaches TOML_UNREACHABLE in is_non_ascii_horizontal_whitespace for
// many non-ASCII code points outside strings (marzer/tomlplusplus#190, #295). parse_config now
// refuses non-ASCII text outside strings and comments before toml++ sees it, so every input is
// fuzzed, those included.

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view raw = testing::fuzz::as_text(data, size);
  const auto config = config::parse_config(raw, "fuzz.toml");
  if (config.ok()) {
    (void)config::provider_settings(*config);
  }
  return 0;
}
