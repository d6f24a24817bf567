#include "config/config.hpp"

#include <algorithm>

#include <doctest/doctest.h>

namespace mailroom::config {

TEST_SUITE("mailroom::config::config")
{
  TEST_CASE("the init template parses and gives the defaults")
  {
    auto config = parse_config(config_template(), "mailroom.toml");
    REQUIRE(config.ok());
    CHECK(config->provider.value == "beads");
    // The origin is the template line that sets it.
    const std::string text = config_template();
    const auto at = text.find("\nprovider = ");
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at) + 1, '\n') + 1;
    CHECK(to_string(config->provider.origin) == "mailroom.toml:" + std::to_string(line));
    CHECK(config->recipients.value == mail::RecipientPolicy::registered);
    // The template leaves store.path unset: the workspace default (shared by git worktrees).
    CHECK(config->store_path.value.empty());
    CHECK(config->busy_timeout_ms.value == 5000);
    CHECK(config->notify_command.value.empty());
    CHECK(to_string(config->notify_command.origin) == "default");
  }

  TEST_CASE("every key is read with its line")
  {
    auto config =
        parse_config("identity = \"mayor\"\n"
                     "[mail]\nprovider = \"exec:./mail.sh\"\nrecipients = \"any\"\n"
                     "[store]\nsynchronous = \"normal\"\nid_prefix = \"gc\"\nallow_network_fs = true\n"
                     "[notify]\ncommand = [\"notify-send\", \"{from}\"]\n"
                     "[groups]\nreviewers = [\"alice\", \"rig/bob\"]\n"
                     "[agents]\nnames = [\"mayor\"]\n",
                     "m.toml");
    REQUIRE(config.ok());
    CHECK(config->identity.value == "mayor");
    CHECK(to_string(config->identity.origin) == "m.toml:1");
    CHECK(config->recipients.value == mail::RecipientPolicy::any);
    CHECK(config->synchronous.value == Synchronous::normal);
    CHECK(config->id_prefix.value == "gc");
    CHECK(config->allow_network_fs.value);
    CHECK(config->notify_command.value == std::vector<std::string>{"notify-send", "{from}"});
    CHECK(config->groups.at("reviewers").value == std::vector<std::string>{"alice", "rig/bob"});
    CHECK(config->agents.value == std::vector<std::string>{"mayor"});
    auto settings = provider_settings(*config);
    REQUIRE(settings.ok());
    CHECK(settings->kind == "exec");
    CHECK(settings->exec.command == "./mail.sh");
    CHECK(settings->policy.id_prefix == "gc");
  }

  TEST_CASE("errors name path:line:column")
  {
    auto check_error = [](std::string_view text, std::string_view expected) {
      auto config = parse_config(text, "mailroom.toml");
      REQUIRE_FALSE(config.ok());
      CHECK(config.error().code == ErrorCode::usage);
      CHECK(config.error().message == expected);
    };
    check_error("[mail]\nprovder = \"beads\"\n", "mailroom.toml:2:1: unknown key \"provder\"");
    check_error("colour = 1\n", "mailroom.toml:1:1: unknown key \"colour\"");
    check_error("[store]\nbusy_timeout_ms = \"5s\"\n",
                "mailroom.toml:2:19: store.busy_timeout_ms must be an integer");
    check_error("[mail]\nrecipients = \"some\"\n",
                "mailroom.toml:2:14: mail.recipients \"some\" must be \"registered\" or \"any\"");
    check_error("[mail]\nprovider = \"sqlite\"\n",
                "mailroom.toml:2:12: mail.provider \"sqlite\" must be \"beads\" or \"exec:<command>\"");
    check_error("[groups]\nall = [\"a\"]\n",
                "mailroom.toml:2:1: group name \"all\" must be one name other than \"all\"");
    check_error("[agents]\nnames = [\"ok\", \"bad name\"]\n",
                "mailroom.toml:2:16: agents.names: \"bad name\" is not a valid mailbox");
    check_error("identity = \"a b\"\n", "mailroom.toml:1:12: identity \"a b\" is not a valid mailbox");
    check_error("mail = 3\n", "mailroom.toml:1:1: \"mail\" must be a table");
  }

  TEST_CASE("non-ASCII text outside strings and comments is refused before toml++ sees it")
  {
    auto bad = parse_config("a = 1 \xC3\xA9\n", "m.toml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "m.toml:1:7: unexpected non-ASCII character outside a string or comment");
    auto ok = parse_config("# caf\xC3\xA9\nidentity = \"mayor\" # \xE2\x80\x83\n[notify]\ncommand = [\"x\", "
                           "\"\xC3\xA9 \\\" \xE3\x80\x81\"]\n"
                           "[groups]\nteam = [\'alice\']\n",
                           "m.toml");
    REQUIRE(ok.ok());
    CHECK(ok->notify_command.value.at(1) == "\xC3\xA9 \" \xE3\x80\x81");
  }

  TEST_CASE("a TOML syntax error is a usage error with its location")
  {
    auto config = parse_config("[mail\nprovider = 1\n", "mailroom.toml");
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().code == ErrorCode::usage);
    CHECK(config.error().message.rfind("mailroom.toml:1:", 0) == 0);
  }

  TEST_CASE("a missing file is a usage error naming it")
  {
    auto config = load_config("/nonexistent/mailroom.toml", "/nonexistent/mailroom.toml");
    REQUIRE_FALSE(config.ok());
    CHECK(config.error().message == "cannot read config file \"/nonexistent/mailroom.toml\"");
  }
}

} // namespace mailroom::config

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "config/keys.hpp"

namespace mailroom::config {

TEST_SUITE("mailroom::config::keys")
{
  TEST_CASE("docs/configuration.md names every key of the table")
  {
    std::ifstream in(MAILROOM_TESTDATA_DIR "/../docs/configuration.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    for (const KeySpec& spec : config_keys()) {
      INFO(spec.key);
      CHECK(text.str().find("`" + std::string(spec.key) + "`") != std::string::npos);
    }
  }

  TEST_CASE("every key of the table parses from the template and round-trips its default")
  {
    auto parsed = parse_config(config_template(), "mailroom.toml");
    REQUIRE(parsed.ok());
    for (const KeySpec& spec : config_keys()) {
      INFO(spec.key);
      CHECK(!display(value_of(*parsed, spec)).empty());
    }
  }

  TEST_CASE("every value of every choice key parses once to its enum and is shown as written")
  {
    for (const KeySpec& spec : config_keys()) {
      if (spec.kind != KeyKind::choice) {
        continue;
      }
      REQUIRE(std::holds_alternative<ChoiceField>(spec.field));
      REQUIRE(spec.choices.size() >= 2);
      const auto dot = spec.key.rfind('.');
      for (const Choice& choice : spec.choices) {
        INFO(spec.key, " = ", choice.name);
        const std::string text = fmt::format("[{}]\n{} = \"{}\"\n", spec.key.substr(0, dot),
                                             spec.key.substr(dot + 1), choice.name);
        auto parsed = parse_config(text, "m.toml");
        REQUIRE(parsed.ok());
        CHECK(std::get<ChoiceField>(spec.field).get(*parsed) == choice.value);
        CHECK(std::get<std::string>(value_of(*parsed, spec)) == choice.name);
        CHECK(origin_of(*parsed, spec).kind == Origin::Kind::file);
      }
    }
    auto parsed =
        parse_config("[mail]\nrecipients = \"any\"\n[store]\nsynchronous = \"normal\"\npooler = "
                     "\"transaction\"\n[agents]\nregister = \"on-send\"\n[delivery]\nack = \"never\"\n",
                     "m.toml");
    REQUIRE(parsed.ok());
    CHECK(parsed->recipients.value == mail::RecipientPolicy::any);
    CHECK(parsed->synchronous.value == Synchronous::normal);
    CHECK(parsed->pooler.value == Pooler::transaction);
    CHECK(parsed->register_policy.value == mail::RegisterPolicy::on_send);
    CHECK(parsed->ack.value == mail::AckPolicy::never);
    const mail::MailPolicy policy = mail_policy(*parsed);
    CHECK(policy.recipients == mail::RecipientPolicy::any);
    CHECK(policy.register_policy == mail::RegisterPolicy::on_send);
    CHECK(policy.ack == mail::AckPolicy::never);
    const Config defaults;
    CHECK(std::get<std::string>(value_of(defaults, *find_key("delivery.ack"))) == "typed");
    CHECK(std::get<std::string>(value_of(defaults, *find_key("store.pooler"))) == "none");
  }

  TEST_CASE("durations, choices and numbers are checked with their location")
  {
    auto bad = [](std::string_view text) {
      auto config = parse_config(text, "m.toml");
      REQUIRE_FALSE(config.ok());
      return config.error().message;
    };
    CHECK(bad("[delivery]\nstale_after = \"soon\"\n").rfind("m.toml:2:15: invalid duration \"soon\"", 0) ==
          0);
    CHECK(bad("[delivery]\nack = \"sometimes\"\n") ==
          "m.toml:2:7: delivery.ack \"sometimes\" must be \"typed\", \"always\" or \"never\"");
    CHECK(bad("[delivery.redelivery]\nbackoff = 0.5\n") ==
          "m.toml:2:11: delivery.redelivery.backoff must be between 1 and 100");
    CHECK(bad("[types.review]\nexpects = true\n") == "m.toml:2:1: unknown key \"expects\"");
    // A built-in type is not the config's to redefine (Round 4: the request's own types too).
    CHECK(bad("[types.declined]\nexpects_reply = true\n") ==
          "m.toml:1:8: types.declined names a built-in type; a custom type needs a name of its own");
    auto good =
        parse_config("[delivery]\nstale_after = \"2h\"\n[types.review]\nexpects_reply = true\n", "m.toml");
    REQUIRE(good.ok());
    CHECK(good->stale_after_ms.value == 2 * 3600 * 1000);
    CHECK(good->types.at("review").value);
    const mail::MailPolicy policy = mail_policy(*good);
    CHECK(policy.stale_after == 2 * 3600 * 1000);
    CHECK(policy.types.resolve("review")->expects_reply);
  }
}

} // namespace mailroom::config
