#include "fair_queue.hpp"

namespace mailroom::http {

FairQueue::FairQueue(std::size_t threads)
{
  for (std::size_t i = 0; i < threads; ++i) {
    m_threads.emplace_back([this]() { work(); });
  }
}

FairQueue::~FairQueue()
{
  stop();
}

void FairQueue::submit(const std::string& client, Job job)
{
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping) {
      return;
    }
    std::deque<Job>& queue = m_waiting[client];
    if (queue.empty()) {
      m_turns.push_back(client);
    }
    queue.push_back(std::move(job));
  }
  m_ready.notify_one();
}

void FairQueue::close()
{
  std::map<std::string, std::deque<Job>> dropped;
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    dropped.swap(m_waiting);
    m_turns.clear();
  }
  m_ready.notify_all();
}

void FairQueue::stop()
{
  close();
  for (std::thread& thread : m_threads) {
    if (thread.joinable()) {
      thread.join();
    }
  }
}

void FairQueue::work()
{
  while (true) {
    Job job;
    {
      std::unique_lock lock(m_mutex);
      m_ready.wait(lock, [this]() { return m_stopping || !m_turns.empty(); });
      if (m_stopping) {
        return;
      }
      const std::string client = m_turns.front();
      m_turns.pop_front();
      std::deque<Job>& queue = m_waiting[client];
      job = std::move(queue.front());
      queue.pop_front();
      if (queue.empty()) {
        m_waiting.erase(client);
      } else {
        m_turns.push_back(client); // its next job waits for every other client's turn
      }
    }
    job();
  }
}

} // namespace mailroom::http
