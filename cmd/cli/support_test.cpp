// The stdout gate holds at compile time: write_text takes display text and nothing else, so a raw
// string cannot reach a terminal or an agent without the sanitiser (docs/output-safety.md).

#include "support.hpp"

#include <string>
#include <string_view>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

// True when `write_text(ctx, value)` compiles for a value of type T.
template <typename T>
concept writable_as_text = requires(Context& ctx, T&& value)
{
  write_text(ctx, static_cast<T&&>(value));
};

// True when `write_data(ctx, value)` compiles.
template <typename T>
concept writable_as_data = requires(Context& ctx, T&& value)
{
  write_data(ctx, static_cast<T&&>(value));
};

static_assert(writable_as_text<const text::DisplayText&>);
static_assert(writable_as_text<text::DisplayText>);
static_assert(writable_as_text<decltype(text::sanitize_line("x"))>);
static_assert(writable_as_text<text::Literal>); // checked at compile time, made a DisplayText

static_assert(!writable_as_text<std::string>);
static_assert(!writable_as_text<const std::string&>);
static_assert(!writable_as_text<std::string&>);
static_assert(!writable_as_text<std::string_view>);
static_assert(!writable_as_text<const char*>);
static_assert(!writable_as_text<const char (&)[6]>); // a string literal
static_assert(!writable_as_text<decltype(fmt::format("{}", 1))>);
static_assert(!writable_as_text<nlohmann::json>);

// Machine output takes bytes as they are; display text reads as a string_view too.
static_assert(writable_as_data<std::string>);
static_assert(writable_as_data<std::string_view>);

} // namespace

TEST_SUITE("mailroom::cli::support")
{
  TEST_CASE("write_text accepts only display text")
  {
    CHECK(writable_as_text<text::DisplayText>);
    CHECK_FALSE(writable_as_text<std::string>);
    CHECK_FALSE(writable_as_text<std::string_view>);
    CHECK_FALSE(writable_as_text<const char*>);
  }
}

} // namespace mailroom::cli
