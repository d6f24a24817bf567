#include "wake/target.hpp"

#include <unistd.h>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "wake/placeholders.hpp"
#include "wake/tmux.hpp"

namespace mailroom::wake {

namespace {

const Setter k_setter{"hostA", 1000};

util::MapEnvironment env_with(std::map<std::string, std::string> vars)
{
  return util::MapEnvironment(std::move(vars), "/work");
}

Result<Target> parse(const std::vector<std::string>& words, std::map<std::string, std::string> vars = {})
{
  return parse_target(words, env_with(std::move(vars)), k_setter);
}

std::string usage_message(const std::vector<std::string>& words)
{
  const auto parsed = parse(words);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().code == ErrorCode::usage);
  return parsed.error().message;
}

} // namespace

TEST_SUITE("mailroom::wake::parse_target")
{
  TEST_CASE("an argv keeps its words and known placeholders; other braces are text")
  {
    const auto parsed = parse({"page", "for {to}", "{subject} ({count})", "{not-a-name}", "{}"});
    REQUIRE(parsed.ok());
    CHECK(parsed->kind == TargetKind::argv);
    CHECK(parsed->argv.size() == 5);
    CHECK(parsed->set_by == k_setter);
    CHECK(display(*parsed) == "page for {to} {subject} ({count}) {not-a-name} {}");
  }

  TEST_CASE("what does not parse is a usage error that says what is wrong")
  {
    CHECK(usage_message({}) == "--wake needs a target");
    CHECK(usage_message({""}) == "wake command is empty");
    CHECK(usage_message({"tmux:"}) == "wake target \"tmux:\" names no pane");
    CHECK(usage_message({"tmux:main", "extra"}) ==
          "wake target \"tmux:main\" takes only -S SOCKET_PATH or -L SOCKET_NAME after it");
    CHECK(usage_message({"tmux:main", "-S", "relative/sock"}) ==
          "tmux socket path \"relative/sock\" is not absolute");
    CHECK(usage_message({"tmux:main", "-L", "a/b"}) == "tmux socket name \"a/b\" is empty or holds a '/'");
    CHECK(usage_message({"tmux:ma\nin"}) == "wake target \"tmux:ma\nin\" holds a control character");
    CHECK(usage_message({"@"}) == "wake target name \"@\" is not valid");
    CHECK(usage_message({"@pa ger"}) == "wake target name \"@pa ger\" is not valid");
    CHECK(usage_message({"@pager", "x"}) == "wake target \"@pager\" takes no arguments");
    CHECK(usage_message({"notify", "{bogus}"}) == "unknown placeholder \"{bogus}\" in wake command");
    CHECK(usage_message({"notify", std::string("a\0b", 3)}).find("NUL") != std::string::npos);
  }

  TEST_CASE("a tmux target records the socket it was set from")
  {
    const std::string uid = std::to_string(::getuid());
    auto in_tmux = parse({"tmux:main:0.1"}, {{"TMUX", "/tmp/tmux-7/work,4242,3"}});
    REQUIRE(in_tmux.ok());
    CHECK(in_tmux->kind == TargetKind::tmux);
    CHECK(in_tmux->tmux_target == "main:0.1");
    CHECK(in_tmux->tmux_socket == "/tmp/tmux-7/work");
    CHECK(display(*in_tmux) == "tmux:main:0.1");

    auto outside = parse({"tmux:%3"}, {{"TMUX_TMPDIR", "/run/user/7"}});
    REQUIRE(outside.ok());
    CHECK(outside->tmux_socket == "/run/user/7/tmux-" + uid + "/default");
    CHECK(parse({"tmux:%3"})->tmux_socket == "/tmp/tmux-" + uid + "/default");

    CHECK(parse({"tmux:a", "-S", "/srv/sock"})->tmux_socket == "/srv/sock");
    CHECK(parse({"tmux:a", "-L", "agents"}, {{"TMUX", "/x,1,0"}})->tmux_socket ==
          "/tmp/tmux-" + uid + "/agents");
  }

  TEST_CASE("@NAME refers to [wake.targets] and resolves to its argv")
  {
    const auto parsed = parse({"@pager"});
    REQUIRE(parsed.ok());
    CHECK(parsed->kind == TargetKind::named);
    CHECK(display(*parsed) == "@pager");
    const std::map<std::string, std::vector<std::string>> table{{"pager", {"page", "{to}"}},
                                                                {"bad", {"x", "{nope}"}}};
    const auto resolved = resolve_named(*parsed, table);
    REQUIRE(resolved.ok());
    CHECK(resolved->kind == TargetKind::argv);
    CHECK(resolved->argv == std::vector<std::string>{"page", "{to}"});
    CHECK(resolved->set_by == k_setter);
    CHECK(resolve_named(*parse({"@other"}), table).error().message ==
          "no wake target \"@other\" in [wake.targets]");
    CHECK(resolve_named(*parse({"@bad"}), table).error().message ==
          "[wake.targets] bad: unknown placeholder \"{nope}\" in wake command");
  }

  TEST_CASE("only the host and uid that set a target run it")
  {
    const Target target = *parse({"tmux:main"});
    CHECK(runs_here(target, k_setter));
    CHECK_FALSE(runs_here(target, Setter{"hostB", 1000}));
    CHECK_FALSE(runs_here(target, Setter{"hostA", 1001}));
  }

  TEST_CASE("the stored form reads back to the same target; a broken one is a store error")
  {
    for (const auto& words : std::vector<std::vector<std::string>>{
             {"notify-send", "{subject}"}, {"@pager"}, {"tmux:main:0.1", "-S", "/srv/sock"}}) {
      const Target target = *parse(words);
      const auto back = from_stored(nlohmann::json::parse(to_stored(target).dump()));
      REQUIRE(back.ok());
      CHECK(*back == target);
    }
    CHECK(to_stored(*parse({"tmux:w", "-S", "/s"})) ==
          nlohmann::json{
              {"kind", "tmux"}, {"target", "w"}, {"socket", "/s"}, {"host", "hostA"}, {"uid", 1000}});
    for (const char* broken :
         {R"([])", R"({"kind":"argv","argv":["x"]})", R"({"kind":"argv","argv":[""],"host":"h","uid":1})",
          R"({"kind":"tmux","target":"w","socket":"rel","host":"h","uid":1})",
          R"({"kind":"pager","host":"h","uid":1})"}) {
      const auto read = from_stored(nlohmann::json::parse(broken));
      REQUIRE_FALSE(read.ok());
      CHECK(read.error().code == ErrorCode::store_error);
    }
  }

  TEST_CASE("a long argv is cut for display")
  {
    const std::string shown = display(*parse({"notify", std::string(100, 'x')}));
    CHECK(shown.size() <= 60);
    CHECK(shown.ends_with("…"));
  }
}

TEST_SUITE("mailroom::wake::expand_argv")
{
  TEST_CASE("each placeholder is replaced inside its own word, never scanned again")
  {
    Facts facts;
    facts.to = "bob";
    facts.id = "mr-1";
    facts.from = "alice";
    facts.subject = "{to} $(rm -rf /); \"x";
    facts.count = 3;
    const auto argv = expand_argv({"page", "{to}:{count}", "[{subject}]", "{from}/{id}", "{unknown}"}, facts);
    CHECK(argv ==
          std::vector<std::string>{"page", "bob:3", "[{to} $(rm -rf /); \"x]", "alice/mr-1", "{unknown}"});
  }

  TEST_CASE("NUL bytes are dropped from values; every other byte passes")
  {
    Facts facts;
    facts.subject = std::string("a\0b\x01\xff\n", 6);
    CHECK(expand_argv({"{subject}"}, facts) == std::vector<std::string>{std::string("ab\x01\xff\n", 5)});
  }
}

TEST_SUITE("mailroom::wake::line")
{
  TEST_CASE("the line takes {to} and {count} only")
  {
    CHECK(check_line(k_default_line).ok());
    CHECK(check_line("{count} for {to}: run 'mailroom inbox'").ok());
    CHECK(check_line("new: {subject}").error().message ==
          "placeholder \"{subject}\" is not allowed in [wake] line");
    CHECK(check_line("from {from}").error().code == ErrorCode::usage);
    CHECK(check_line("a\tb").error().message == "[wake] line holds a control character");
    CHECK(check_line("  ").error().message == "[wake] line is empty");
    CHECK_FALSE(check_line(std::string(201, 'x')).ok());
  }

  TEST_CASE("--as goes after the line's mailroom command, or at its end")
  {
    CHECK(expand_line(k_default_line, "bob", 1) == "You have mail: run 'mailroom inbox'");
    CHECK(expand_line(k_default_line, "bob", 1, "bob") == "You have mail: run 'mailroom --as bob inbox'");
    CHECK(expand_line("{count} for {to}", "bob", 2, "bob") == "2 for bob --as bob");
    CHECK(expand_line("{to}", std::string("b\x1b[2Jo", 6), 1) == "b?[2Jo");
  }

  TEST_CASE("placeholders: the first unknown one is named")
  {
    constexpr std::string_view known[] = {"a"};
    CHECK(unknown_placeholder("{a} {b} {c}", known) == "b");
    CHECK_FALSE(unknown_placeholder("{a} { b} {} {a-b} {", known).has_value());
  }
}

} // namespace mailroom::wake
