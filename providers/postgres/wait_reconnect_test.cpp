// Waiters survive their store (contract "Several hosts"): mail::wait_for on the PostgreSQL store
// rides out a server that is down with backoff, through the injectable pause (so these tests take
// no backoff time and see every pause asked for), reconnects, listens again and finds the mail
// sent once the server is back; a deadline that passes while it is down is the store's error.

#include <chrono>
#include <functional>
#include <vector>

#include <doctest/doctest.h>

#include "mail/retry.hpp"
#include "mail/waiting.hpp"
#include "postgres/postgres_store.hpp"
#include "testing/pg_server.hpp"
#include "testing/reach.hpp"

namespace {

using namespace mailroom;
using namespace std::chrono_literals;

std::unique_ptr<providers::sqlstore::SqlStore> open_store(const std::string& url, const mail::Clock& clock,
                                                          mail::Access access = mail::Access::write)
{
  mail::StoreSettings settings;
  settings.path = url;
  settings.access = access;
  auto opened = providers::postgres::open_postgres_store(settings, {}, clock);
  REQUIRE_MESSAGE(opened.ok(), (opened.ok() ? "" : opened.error().message));
  return std::move(opened).value();
}

// Records each pause; `on_pause` runs in it (the n-th pause, from 1) instead of sleeping.
class RecordingPause final : public util::Pause {
public:
  explicit RecordingPause(std::function<void(int)> on_pause) : m_on_pause(std::move(on_pause)) {}
  bool sleep_for(std::chrono::milliseconds length, int /*fd*/) override
  {
    lengths.push_back(length);
    m_on_pause(static_cast<int>(lengths.size()));
    return true;
  }
  std::vector<std::chrono::milliseconds> lengths;

private:
  std::function<void(int)> m_on_pause;
};

// Starts the server again when a test ends, however it ends.
struct ResumeAtEnd {
  ~ResumeAtEnd() { (void)testing::PgServer::get()->resume(); }
};

} // namespace

TEST_SUITE("mailroom::providers::postgres waiting")
{
  TEST_CASE("wait rides out a server that is down with doubling pauses, then finds what came after")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    mail::SystemClock clock;
    {
      auto init = open_store(db->url, clock, mail::Access::create);
      REQUIRE(mailroom::testing::reach(*init).add_agents({"alice", "bob"}).ok());
    }
    auto waiter = open_store(db->url, clock);
    REQUIRE(testing::PgServer::get()->halt().ok());
    ResumeAtEnd resume;
    RecordingPause pause([&](int n) {
      if (n == 3) {
        // Back after the third pause, and a message arrives.
        REQUIRE(testing::PgServer::get()->resume().ok());
        auto sender = open_store(db->url, clock);
        mail::SendRequest request;
        request.from = "alice";
        request.to = {"bob"};
        request.subject = "after the outage";
        request.body = "body";
        REQUIRE(sender->send(request).ok());
      }
    });
    std::vector<Error> failures;
    mail::WaitSettings settings;
    settings.pause = &pause;
    settings.on_retry = [&](const Error& error, mail::Millis) { failures.push_back(error); };
    mail::WaitQuery query;
    query.mailbox = "bob";
    auto ended = mail::wait_for(*waiter, query, std::chrono::steady_clock::now() + 60s, -1, settings);
    REQUIRE_MESSAGE(ended.ok(), (ended.ok() ? "" : ended.error().message));
    CHECK(ended->end == mail::WaitEnd::found);
    REQUIRE(ended->message.has_value());
    CHECK(ended->message->subject == "after the outage");
    CHECK(pause.lengths == std::vector<std::chrono::milliseconds>{500ms, 1000ms, 2000ms});
    REQUIRE(failures.size() == 3);
    for (const Error& failure : failures) {
      CHECK(failure.code == ErrorCode::store_error);
      CHECK(mail::store_may_recover(failure));
    }
  }

  TEST_CASE("a deadline that passes while the server is down is the store's error")
  {
    const auto db = testing::pg_test_database();
    if (!db) {
      return;
    }
    mail::SystemClock clock;
    {
      auto init = open_store(db->url, clock, mail::Access::create);
      REQUIRE(mailroom::testing::reach(*init).add_agents({"alice", "bob"}).ok());
    }
    auto waiter = open_store(db->url, clock);
    REQUIRE(testing::PgServer::get()->halt().ok());
    ResumeAtEnd resume;
    util::RealPause real;
    std::vector<std::chrono::milliseconds> lengths;
    struct Counting final : util::Pause {
      util::Pause& inner;
      std::vector<std::chrono::milliseconds>& lengths;
      Counting(util::Pause& p, std::vector<std::chrono::milliseconds>& l) : inner(p), lengths(l) {}
      bool sleep_for(std::chrono::milliseconds length, int fd) override
      {
        lengths.push_back(length);
        return inner.sleep_for(length, fd);
      }
    } pause(real, lengths);
    mail::WaitSettings settings;
    settings.pause = &pause;
    mail::WaitQuery query;
    query.mailbox = "bob";
    auto ended = mail::wait_for(*waiter, query, std::chrono::steady_clock::now() + 1200ms, -1, settings);
    REQUIRE_FALSE(ended.ok());
    CHECK(ended.error().code == ErrorCode::store_error);
    // 500 ms, then at most 1 s (the double, cut to what was left of the deadline): never past it.
    REQUIRE_FALSE(lengths.empty());
    CHECK(lengths.front() == 500ms);
    std::chrono::milliseconds total{0};
    for (std::size_t i = 0; i < lengths.size(); ++i) {
      CHECK(lengths[i] <= (i == 0 ? 500ms : 1000ms));
      total += lengths[i];
    }
    CHECK(total <= 1200ms);
  }
}
