#include "pg/host_memory.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace mailroom::pg {

TEST_CASE("PutFirst_MovesTheRememberedHostWithItsPort")
{
  const HostList list{{"a", "b", "c"}, {"5432", "5433", "5434"}};
  auto order = put_first(list, "c:5434");
  REQUIRE(order);
  CHECK(order->hosts == "c,a,b");
  CHECK(order->ports == "5434,5432,5433");
  CHECK_FALSE(put_first(list, "a:5432")); // already first
  CHECK_FALSE(put_first(list, "c:5432")); // no such pair
  CHECK_FALSE(put_first(list, "garbage"));
  // One port for all, or none (libpq's default 5432).
  order = put_first(HostList{{"a", "b"}, {"6000"}}, "b:6000");
  REQUIRE(order);
  CHECK(order->hosts == "b,a");
  CHECK(order->ports == "6000");
  order = put_first(HostList{{"a", "b"}, {}}, "b:5432");
  REQUIRE(order);
  CHECK(order->ports.empty());
  CHECK_FALSE(put_first(HostList{{"a"}, {}}, "a:5432"));
}

TEST_CASE("HostMemory_RemembersPerUrlAndIgnoresWhatItCannotRead")
{
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mr-host-memory-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const HostMemory one((dir / "deep").string(), "postgresql://a,b/mail?target_session_attrs=read-write");
  const HostMemory other((dir / "deep").string(), "postgresql://c,d/mail?target_session_attrs=read-write");
  CHECK_FALSE(one.recall());
  one.remember("b:5432");
  CHECK(one.recall() == "b:5432");
  CHECK_FALSE(other.recall());
  // No temporary file is left behind.
  CHECK(std::distance(std::filesystem::directory_iterator(dir / "deep"), {}) == 1);
  {
    std::ofstream(one.file()) << "";
  }
  CHECK_FALSE(one.recall());
  CHECK_FALSE(HostMemory("", "x").recall());
  HostMemory("", "x").remember("a:1"); // nothing, no failure
  std::filesystem::remove_all(dir);
}

} // namespace mailroom::pg
