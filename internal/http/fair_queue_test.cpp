// The operation queue of `mailroom serve` takes each client's work in turn.

#include <future>
#include <mutex>

#include <doctest/doctest.h>

#include "http/fair_queue.hpp"

namespace mailroom::http {

TEST_CASE("http: a client's backlog waits for every other client's turn")
{
  FairQueue queue(1);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::promise<void> started;
  std::mutex mutex;
  std::vector<std::string> order;
  std::promise<void> done;
  queue.submit("a", [&]() {
    started.set_value();
    released.wait(); // the one thread is busy while the rest arrive
  });
  started.get_future().wait();
  const auto job = [&](std::string name) {
    return [&, name]() {
      std::lock_guard lock(mutex);
      order.push_back(name);
      if (order.size() == 5) {
        done.set_value();
      }
    };
  };
  for (const char* name : {"a2", "a3", "a4"}) {
    queue.submit("a", job(name));
  }
  queue.submit("b", job("b1"));
  queue.submit("c", job("c1"));
  release.set_value();
  done.get_future().wait();
  CHECK(order == std::vector<std::string>{"a2", "b1", "c1", "a3", "a4"});
}

TEST_CASE("http: a closed operation queue lets the running job finish and drops the waiting ones")
{
  FairQueue queue(1);
  std::promise<void> started;
  std::promise<void> release;
  bool finished = false;
  bool dropped_ran = false;
  queue.submit("a", [&]() {
    started.set_value();
    release.get_future().wait();
    finished = true;
  });
  started.get_future().wait();
  queue.submit("b", [&]() { dropped_ran = true; });
  queue.close();
  release.set_value();
  queue.stop();
  CHECK(finished);
  CHECK_FALSE(dropped_ran);
  queue.submit("c", [&]() { dropped_ran = true; }); // after stop: never run
  CHECK_FALSE(dropped_ran);
}

} // namespace mailroom::http
