#pragma once

// The operations of `mailroom serve`, run on a few threads and taken from each client in turn
// (round robin over the clients with work waiting), so that one client's backlog (many
// connections with the token, each with a request) delays another client's request by at most
// the operations already running, never by the whole backlog. No network here: a client is a
// name (its address).

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mailroom::http {

class FairQueue {
public:
  using Job = std::function<void()>;
  explicit FairQueue(std::size_t threads);
  ~FairQueue();
  FairQueue(const FairQueue&) = delete;
  FairQueue& operator=(const FairQueue&) = delete;

  void submit(const std::string& client, Job job);
  // Drops the waiting jobs and takes no more; the running ones go on.
  void close();
  // close(), then waits for the running jobs to finish.
  void stop();

private:
  void work();

  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::map<std::string, std::deque<Job>> m_waiting; // per client, in arrival order
  std::list<std::string> m_turns;                   // the clients with work waiting, next first
  bool m_stopping = false;
  std::vector<std::thread> m_threads;
};

} // namespace mailroom::http
