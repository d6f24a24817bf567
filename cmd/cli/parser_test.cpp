// The lean parse: which leading global options are read without CLI11 (take_leading_globals).

#include <doctest/doctest.h>

#include "parser.hpp"

namespace mailroom::cli {

namespace {

using Words = std::vector<std::string>;

// take_leading_globals on `args`; `taken` says whether it read them.
struct Taken {
  bool taken = false;
  Prepared prepared;
  GlobalOptions globals;
};

Taken take(const Words& args)
{
  Taken t;
  t.prepared = prepare_args(args);
  t.taken = take_leading_globals(t.prepared, t.globals);
  return t;
}

} // namespace

TEST_SUITE("mailroom::cli::parser")
{
  TEST_CASE("take_leading_globals reads flags and values before the command word")
  {
    const Taken t = take({"--json", "--as", "bob", "--config=m.toml", "-q", "count", "--unread"});
    REQUIRE(t.taken);
    CHECK(t.prepared.args == Words{"count", "--unread"});
    CHECK(t.globals.json);
    CHECK(t.globals.quiet);
    CHECK_FALSE(t.globals.verbose);
    CHECK(t.globals.as == "bob");
    CHECK(t.globals.config == "m.toml");
    CHECK_FALSE(t.globals.db);

    const Taken none = take({"inbox"});
    REQUIRE(none.taken);
    CHECK(none.prepared.args == Words{"inbox"});
    CHECK_FALSE(none.globals.as);

    // A value equal to a command name is still the value.
    const Taken named = take({"--as", "inbox", "count"});
    REQUIRE(named.taken);
    CHECK(named.globals.as == "inbox");
    CHECK(named.prepared.args == Words{"count"});
  }

  TEST_CASE("take_leading_globals leaves to CLI11 whatever CLI11 might read differently")
  {
    for (const Words& args : {
             Words{"--as", "a", "--as", "b", "count"},   // twice: CLI11's error
             Words{"--json=true", "count"},              // a flag with a value
             Words{"--as", "-x", "count"},               // a value that looks like an option
             Words{"--as=", "count"},                    // an empty value
             Words{"--as", "bob", "count", "--json"},    // a global after the command
             Words{"--as", "bob", "count", "--db=x.db"}, // the same, with '='
             Words{"--as", "bob", "count", "-h"},        // help lists the global options
             Words{"--bogus", "count"},                  // not a global option
             Words{"--as", "bob"},                       // no command
             Words{"help", "count"},                     // help
         }) {
      CAPTURE(args.front());
      const Taken t = take(args);
      CHECK_FALSE(t.taken);
      CHECK(t.prepared.args == prepare_args(args).args); // untouched
    }
  }
}

} // namespace mailroom::cli
