// The documents against the parser: the command model, every completion script, docs/cli.md and
// the man page name every command, subcommand, alias and option the parser has.

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include <doctest/doctest.h>

#include "cli_model.hpp"
#include "commands.hpp"
#include "completion.hpp"
#include "parser.hpp"

namespace mailroom::cli {

namespace {

std::string read_file(const std::string& path)
{
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `name` as roff writes it (every '-' as "\-").
std::string roff(const std::string& name)
{
  std::string out;
  for (const char c : name) {
    out += c == '-' ? std::string("\\-") : std::string(1, c);
  }
  return out;
}

bool contains(const std::string& text, const std::string& part)
{
  return text.find(part) != std::string::npos;
}

} // namespace

TEST_SUITE("mailroom::cli::parser")
{
  TEST_CASE("the model holds every command of the table and every option of its parser")
  {
    const CliModel model = describe_cli();
    REQUIRE(model.commands.size() == commands().size());
    for (std::size_t i = 0; i < model.commands.size(); ++i) {
      CHECK(model.commands[i].name == commands()[i].name);
    }
    const auto send = std::find_if(model.commands.begin(), model.commands.end(),
                                   [](const CommandInfo& c) { return c.name == "send"; });
    REQUIRE(send != model.commands.end());
    CHECK(std::any_of(send->options.begin(), send->options.end(), [](const OptionInfo& o) {
      return std::find(o.names.begin(), o.names.end(), "--body-file") != o.names.end() &&
             o.value_name == "PATH";
    }));
  }

  TEST_CASE("every completion script names every command, subcommand, alias and option")
  {
    const CliModel model = describe_cli();
    for (const std::string shell : {"bash", "zsh", "fish"}) {
      CAPTURE(shell);
      const auto script = completion_script(model, shell);
      REQUIRE(script.has_value());
      // fish spells options without dashes (`-l limit`, `-s n`).
      const auto has_option = [&](const std::string& name) {
        if (shell != "fish") {
          return contains(*script, name);
        }
        return name.rfind("--", 0) == 0 ? contains(*script, " -l " + name.substr(2))
                                        : contains(*script, " -s " + name.substr(1));
      };
      for (const auto& o : model.globals) {
        for (const auto& n : o.names) {
          const bool found = has_option(n);
          CHECK_MESSAGE(found, n);
        }
      }
      for (const auto& c : model.commands) {
        const bool named = contains(*script, c.name);
        CHECK_MESSAGE(named, c.name);
        for (const auto& o : c.options) {
          for (const auto& n : o.names) {
            const bool found = has_option(n);
            CHECK_MESSAGE(found, (c.name + " " + n));
          }
        }
        for (const auto& s : c.subcommands) {
          const bool sub = contains(*script, s.name);
          CHECK_MESSAGE(sub, (c.name + " " + s.name));
          for (const auto& a : s.aliases) {
            const bool alias = contains(*script, a);
            CHECK_MESSAGE(alias, (c.name + " " + a));
          }
          for (const auto& o : s.options) {
            for (const auto& n : o.names) {
              const bool found = has_option(n);
              CHECK_MESSAGE(found, (c.name + " " + s.name + " " + n));
            }
          }
        }
      }
    }
    CHECK_FALSE(completion_script(model, "tcsh").has_value());
  }

  TEST_CASE("docs/cli.md has a row for every command of the command table")
  {
    const std::string page = read_file(MAILROOM_TESTDATA_DIR "/../docs/cli.md");
    REQUIRE(!page.empty());
    for (const auto& c : describe_cli().commands) {
      const bool row = contains(page, "\n| `" + c.name) || contains(page, ", `" + c.name + "`") ||
                       contains(page, "| `" + c.name + "` /");
      CHECK_MESSAGE(row, ("command " + c.name + " has no row in docs/cli.md's command table"));
    }
    CHECK_MESSAGE(!contains(page, "their rows belong here"), "docs/cli.md still promises rows to come");
  }

  TEST_CASE("the man page documents every command, subcommand and option")
  {
    const std::string page = read_file(MAILROOM_TESTDATA_DIR "/../docs/man/mailroom.1");
    REQUIRE(!page.empty());
    const CliModel model = describe_cli();
    for (const auto& o : model.globals) {
      for (const auto& n : o.names) {
        const bool found = contains(page, roff(n));
        CHECK_MESSAGE(found, ("global option " + n + " is missing from docs/man/mailroom.1"));
      }
    }
    for (const auto& c : model.commands) {
      const bool section = contains(page, ".SS " + roff(c.name)) || contains(page, ", " + roff(c.name) + " ");
      CHECK_MESSAGE(section, ("command " + c.name + " has no section in docs/man/mailroom.1"));
      for (const auto& o : c.options) {
        for (const auto& n : o.names) {
          const bool found = contains(page, roff(n));
          CHECK_MESSAGE(found, (c.name + " " + n + " is missing from docs/man/mailroom.1"));
        }
      }
      for (const auto& s : c.subcommands) {
        const bool found = contains(page, roff(s.name));
        CHECK_MESSAGE(found, (c.name + " " + s.name + " is missing from docs/man/mailroom.1"));
      }
    }
  }
}

} // namespace mailroom::cli
