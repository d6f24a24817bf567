// libFuzzer target: the exec provider's wire parsers (providers/exec/wire.hpp) on any bytes, and
// the encoder round-trip: what go_json_string writes, nlohmann reads back.

#include <string>

#include <nlohmann/json.hpp>

#include "exec/wire.hpp"
#include "fuzz/harness.hpp"
#include "text/sanitize.hpp"

using namespace mailroom;
using testing::fuzz::require;
namespace exec = providers::exec;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view raw = testing::fuzz::as_text(data, size);
  (void)exec::parse_message(raw);
  (void)exec::parse_wire_message(raw);
  (void)exec::parse_messages(raw);
  (void)exec::parse_counts(raw);
  (void)exec::parse_capabilities(raw);
  (void)exec::parse_rfc3339(raw);
  const std::string encoded = exec::go_json_string(raw);
  const auto back = nlohmann::json::parse(encoded, nullptr, false);
  require(!back.is_discarded() && back.is_string(), "go_json_string wrote invalid JSON");
  require(back.get<std::string>() == text::json_text(raw), "go_json_string did not round-trip");
  return 0;
}
