// The exec provider's facets for gc's round 4: the hook's kept answers (hook_check and
// refresh_hook_check: fresh when the refresh ends in time, else the last answer with its time,
// nothing before the first, a failed refresh said as an error, at most one refresh at a time, a
// 0600 file) and the roster an identity is checked against.

#include <filesystem>

#include <doctest/doctest.h>

#include "exec/exec_provider.hpp"
#include "exec/exec_test_support.hpp"
#include "exec/facts.hpp"
#include "exec/hook_cache.hpp"
#include "ops/identity.hpp"
#include "testing/fixed_clock.hpp"
#include "util/environment.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::StateDir;

using Clock = std::chrono::steady_clock;

// A refresh run in this process by another provider on the same script (as the CLI's detached
// `check --refresh` is another process): done before start_refresh returns, or never (a script
// too slow for the hook).
class InProcessRefresh final : public mail::RefreshRun {
public:
  explicit InProcessRefresh(bool ended) : m_ended(ended) {}
  bool wait_until(Clock::time_point /*deadline*/) override { return m_ended; }

private:
  bool m_ended;
};

// An exec provider on `command` learning into the StateDir, its kept answers dated by `clock`.
std::unique_ptr<mail::Provider> open_dated(const std::string& command, const mail::Clock& clock)
{
  mail::ExecSettings settings;
  settings.command = command;
  ExecOptions options;
  options.facts_file = testing::facts_file();
  options.clock = &clock;
  auto provider = open_exec_provider(settings, {}, "tester", options);
  REQUIRE(provider.ok());
  return std::move(provider).value();
}

struct Refreshes {
  std::string command;
  const mail::Clock* clock = nullptr; // the refreshing process's clock (null: the system's)
  int started = 0;
  mail::StartRefresh finished(const mail::Mailbox& mailbox)
  {
    return [this, mailbox]() -> Result<std::unique_ptr<mail::RefreshRun>> {
      ++started;
      auto other = clock != nullptr ? open_dated(command, *clock) : testing::open_command(command);
      (void)other->facets().hook_check->refresh_hook_check(mailbox);
      return std::unique_ptr<mail::RefreshRun>(std::make_unique<InProcessRefresh>(true));
    };
  }
  mail::StartRefresh slow()
  {
    return [this]() -> Result<std::unique_ptr<mail::RefreshRun>> {
      ++started;
      return std::unique_ptr<mail::RefreshRun>(std::make_unique<InProcessRefresh>(false));
    };
  }
};

mail::SendRequest to_bob(const std::string& subject)
{
  mail::SendRequest request;
  request.from = "alice";
  request.to = {"bob"};
  request.subject = subject;
  request.body = "body of " + subject;
  return request;
}

Result<std::optional<mail::HookAnswer>> hook(mail::Provider& provider, const mail::StartRefresh& refresh)
{
  return provider.facets().hook_check->hook_check("bob", 3, std::nullopt,
                                                  Clock::now() + std::chrono::milliseconds(300), refresh);
}

} // namespace

TEST_SUITE("mailroom::providers::exec hook answers")
{
  TEST_CASE("fresh when the refresh ends in time, the kept answer with its time when not, nothing before")
  {
    StateDir state;
    mailroom::testing::FixedClock clock;
    Refreshes refreshes{testing::script_path("stateful.sh"), &clock};
    auto provider = open_dated(refreshes.command, clock);
    REQUIRE(provider->facets().hook_check != nullptr);
    REQUIRE(provider->send(to_bob("first")).ok());

    auto first = hook(*provider, refreshes.slow());
    REQUIRE(first.ok());
    CHECK_FALSE(first->has_value()); // nothing kept yet: silent

    auto fresh = hook(*provider, refreshes.finished("bob"));
    REQUIRE(fresh.ok());
    REQUIRE(fresh->has_value());
    CHECK((*fresh)->result.unread == 1);
    CHECK((*fresh)->result.messages.at(0).subject == "first");
    CHECK_FALSE((*fresh)->as_of.has_value());

    const mail::UnixMillis answered = clock.now();
    REQUIRE(provider->send(to_bob("second")).ok());
    clock.advance(40'000);
    auto kept = hook(*provider, refreshes.slow());
    REQUIRE(kept.ok());
    REQUIRE(kept->has_value());
    CHECK((*kept)->result.unread == 1); // the answer as the script gave it, marked with its time
    REQUIRE((*kept)->as_of.has_value());
    CHECK(*(*kept)->as_of == answered);
    CHECK(refreshes.started == 3);
    // A refresh that ends in time replaces it: fresh again, with both messages.
    clock.advance(5'000);
    auto again = hook(*provider, refreshes.finished("bob"));
    REQUIRE(again.ok());
    REQUIRE(again->has_value());
    CHECK((*again)->result.unread == 2);
    CHECK_FALSE((*again)->as_of.has_value());

    // One file per script and mailbox, private.
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(state.path() + "/hook")) {
      if (entry.path().extension() == ".json") {
        files.push_back(entry.path());
      }
    }
    REQUIRE(files.size() == 1);
    CHECK((std::filesystem::status(files[0]).permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  }

  TEST_CASE("a refresh that fails is this hook's error; an older answer is still shown after")
  {
    StateDir state;
    Refreshes refreshes{testing::script_path("fails_with_stderr.sh")};
    auto provider = testing::open_command(refreshes.command);
    auto failed = hook(*provider, refreshes.finished("bob"));
    REQUIRE_FALSE(failed.ok());
    CHECK(failed.error().code == ErrorCode::provider_error);
    CHECK(failed.error().message.find("something went wrong") != std::string::npos);
    // Nothing kept, and a slow refresh later: silent again, not the old failure.
    auto later = hook(*provider, refreshes.slow());
    REQUIRE(later.ok());
    CHECK_FALSE(later->has_value());
  }

  TEST_CASE("while a refresh runs, a hook starts none and waits for that one")
  {
    StateDir state;
    Refreshes refreshes{testing::script_path("stateful.sh")};
    auto provider = testing::open_command(refreshes.command);
    const std::optional<ScriptKey> key = identify_script(refreshes.command, util::ProcessEnvironment());
    REQUIRE(key.has_value());
    const HookCache cache(HookCache::dir_beside(testing::facts_file()), key->path, "bob");
    auto held = cache.try_lock();
    REQUIRE(held.has_value());
    CHECK(cache.busy());
    CHECK_FALSE(cache.try_lock().has_value());
    CHECK(*provider->facets().hook_check->refresh_hook_check("bob") == false); // another one runs
    const auto before = Clock::now();
    auto waited = hook(*provider, refreshes.slow());
    REQUIRE(waited.ok());
    CHECK(refreshes.started == 0);
    CHECK(Clock::now() - before >= std::chrono::milliseconds(200));
    held.reset();
    CHECK_FALSE(cache.busy());
  }

  TEST_CASE("no cache directory: no hook facet, the hook asks the script itself")
  {
    mail::ExecSettings settings;
    settings.command = testing::script_path("stateful.sh");
    auto provider = open_exec_provider(settings, {}, "tester", ExecOptions{});
    REQUIRE(provider.ok());
    CHECK((*provider)->facets().hook_check == nullptr);
  }
}

TEST_SUITE("mailroom::providers::exec roster")
{
  TEST_CASE("an identity outside the configured registry is unknown on exec as on a store")
  {
    StateDir state;
    mail::MailPolicy policy;
    policy.config_agents = {"alice", "bob"};
    auto provider =
        testing::open_script("stateful.sh", std::chrono::seconds(20), 16U * 1024U * 1024U, "tester", policy);
    const auto guard = [&](const std::string& name, const mail::MailPolicy& p) {
      return ops::guard_identity(*provider, config::Identity{name, config::default_origin()}, p, false);
    };
    CHECK(guard("alice", policy).ok());
    CHECK(guard("human", policy).ok());
    auto unknown = guard("alcie", policy);
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == ErrorCode::unknown_recipient);
    CHECK(unknown.error().suggestions == std::vector<std::string>{"alice"});
    CHECK(unknown.error().hint.find("[agents] names") != std::string::npos);
    // A store the configuration names: its registered and retired mailboxes.
    mail::ExecSettings settings;
    settings.command = testing::script_path("stateful.sh");
    ExecOptions options;
    options.registry = []() -> Result<std::optional<mail::Directory>> {
      return std::optional<mail::Directory>(mail::Directory{{"carol"}, {"dave"}});
    };
    auto named = open_exec_provider(settings, {}, "tester", options);
    REQUIRE(named.ok());
    const auto named_guard = [&](const std::string& name) {
      return ops::guard_identity(**named, config::Identity{name, config::default_origin()}, {}, false);
    };
    CHECK(named_guard("carol").ok());
    CHECK(named_guard("dave").error().message.find("retired") != std::string::npos);
    CHECK(named_guard("erin").error().code == ErrorCode::unknown_recipient);
    // Nothing configured: nothing to check, as gc outside a city.
    auto open = testing::open_script("stateful.sh");
    CHECK(ops::guard_identity(*open, config::Identity{"anyone", config::default_origin()}, {}, false).ok());
  }
}

} // namespace mailroom::providers::exec
