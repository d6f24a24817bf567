#pragma once

// Shared by the bead store's tests: a temp directory, a settable clock and store openers.

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"

namespace mailroom::providers::beads::testing {

// A fresh directory under TMPDIR, removed on scope exit.
struct TempDir {
  std::filesystem::path path;
  TempDir()
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-beads-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir()
  {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// Returns `now`, which tests advance by hand.
class ManualClock final : public mail::Clock {
public:
  mail::UnixMillis now() const override { return m_now; }
  void advance(mail::UnixMillis ms = 1) { m_now += ms; }

private:
  mail::UnixMillis m_now = 1750000000000;
};

inline std::unique_ptr<BeadStore> open_store(const std::string& path, const mail::Clock& clock)
{
  mail::StoreSettings settings;
  settings.path = path;
  auto store = BeadStore::open(settings, clock);
  REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
  return std::move(store).value();
}

inline mail::SendRequest message(const std::string& from, const std::string& to,
                                 const std::string& body)
{
  mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = body;
  request.body = body;
  return request;
}

} // namespace mailroom::providers::beads::testing
