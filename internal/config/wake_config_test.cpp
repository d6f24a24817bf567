// The [wake] keys and the [wake.targets] table (contract "Reaching an idle agent (wake)").

#include <doctest/doctest.h>

#include "config/config.hpp"

namespace mailroom::config {

TEST_SUITE("mailroom::config wake")
{
  TEST_CASE("[wake] has the contract's defaults and reads every key")
  {
    auto defaults = parse_config("", "m.toml");
    REQUIRE(defaults.ok());
    CHECK(defaults->wake_on.value == std::vector<std::string>{"urgent", "request", "notify"});
    CHECK(defaults->wake_cooldown_ms.value == 60'000);
    CHECK(defaults->wake_idle_after_ms.value == 10'000);
    CHECK(defaults->wake_give_up_after_ms.value == 600'000);
    CHECK(defaults->wake_keep_for_ms.value == 7LL * 24 * 3600 * 1000);
    CHECK(defaults->wake_submit_delay_ms.value == 300);
    CHECK(defaults->wake_agent_commands.value ==
          std::vector<std::string>{"claude", "codex", "gemini", "node"});
    CHECK(defaults->wake_line.value == "You have mail: run 'mailroom inbox'");
    CHECK(defaults->wake_targets.empty());

    auto parsed = parse_config("[wake]\non = [\"urgent\"]\ncooldown = \"5m\"\nidle_after = \"0s\"\n"
                               "[wake.targets]\npager = [\"notify-send\", \"{subject}\"]\n",
                               "m.toml");
    REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
    CHECK(parsed->wake_on.value == std::vector<std::string>{"urgent"});
    CHECK(parsed->wake_cooldown_ms.value == 300'000);
    CHECK(parsed->wake_idle_after_ms.value == 0);
    REQUIRE(parsed->wake_targets.count("pager") == 1);
    CHECK(parsed->wake_targets.at("pager").value == std::vector<std::string>{"notify-send", "{subject}"});
  }

  TEST_CASE("a bad [wake] value names its line")
  {
    auto on = parse_config("[wake]\non = [\"urgent\", \"always\"]\n", "m.toml");
    REQUIRE_FALSE(on.ok());
    CHECK(on.error().message ==
          "m.toml:2:6: wake.on: \"always\" must be \"urgent\", \"request\" or \"notify\"");
    auto empty = parse_config("[wake.targets]\npager = []\n", "m.toml");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.error().message == "m.toml:2:9: wake.targets.pager must name a program as its first element");
    auto typo = parse_config("[wake]\ncooldwn = \"1m\"\n", "m.toml");
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error().hint == "did you mean \"wake.cooldown\"?");
  }
}

} // namespace mailroom::config
