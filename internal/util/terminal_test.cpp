#include "util/terminal.hpp"

#include <doctest/doctest.h>

using namespace mailroom;

TEST_SUITE("mailroom::util::terminal")
{
  TEST_CASE("command lines split into words without a shell")
  {
    using Words = std::vector<std::string>;
    CHECK(*util::split_command_line("less -FRX") == Words{"less", "-FRX"});
    CHECK(*util::split_command_line("  code   --wait ") == Words{"code", "--wait"});
    CHECK(*util::split_command_line("vim -c 'set tw=72'") == Words{"vim", "-c", "set tw=72"});
    CHECK(*util::split_command_line("\"/opt/My Editor/bin/ed\" -x") == Words{"/opt/My Editor/bin/ed", "-x"});
    CHECK(*util::split_command_line("a\\ b \"q\\\"x\"") == Words{"a b", "q\"x"});
    CHECK(*util::split_command_line("$(rm -rf ~) `x`") == Words{"$(rm", "-rf", "~)", "`x`"});
    CHECK(util::split_command_line("").value().empty());
    CHECK_FALSE(util::split_command_line("vim 'unclosed").ok());
    CHECK_FALSE(util::split_command_line("trailing\\").ok());
  }

  TEST_CASE("attached programs report their exit status; a piped child reads what is written")
  {
    CHECK(*util::run_attached({"true"}) == 0);
    CHECK(*util::run_attached({"sh", "-c", "exit 3"}) == 3);
    CHECK_FALSE(util::run_attached({"/nonexistent/editor"}).ok());
    auto child = util::PipedChild::start({"sh", "-c", "cat > /dev/null"});
    REQUIRE(child.ok());
    CHECK(child->fd() >= 0);
    child->finish();
    CHECK(child->fd() == -1);
  }
}
