#include "mcp/server.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

namespace mailroom::mcp {

namespace {

// The JSON-RPC message answering request `id` with `reply`.
json answer_of(const json& id, Reply reply)
{
  return reply.is_error ? make_error(id, reply.code, reply.message,
                                     reply.data.is_null() ? std::nullopt : std::optional<json>(reply.data))
                        : make_result(id, std::move(reply.result));
}

// One request admitted to the pool.
struct Job {
  Incoming request;
  std::stop_source stop;
  bool cancelled = false; // guarded by State::mutex: once true, nothing is written for it
  bool answered = false;  // guarded by State::mutex: the answer went out through Respond
};

// What the reading thread and the workers share.
class State {
public:
  State(int out_fd, const ServerLimits& limits) : m_out(out_fd), m_limits(limits) {}

  // Writes one message. Callers hold no lock.
  void write(const json& message)
  {
    std::lock_guard lock(m_mutex);
    write_locked(message);
  }

  // Admits a request to the pool, or false when running and waiting are full.
  bool admit(Incoming request)
  {
    std::lock_guard lock(m_mutex);
    if (m_queue.size() + m_running >= m_limits.max_running + m_limits.max_waiting) {
      return false;
    }
    auto job = std::make_shared<Job>();
    job->request = std::move(request);
    m_inflight.emplace(key(job->request.id), job);
    m_queue.push_back(job);
    m_ready.notify_one();
    return true;
  }

  // Cancels the request with this id (nothing is sent for it afterwards).
  void cancel(const json& id)
  {
    std::lock_guard lock(m_mutex);
    const auto [first, last] = m_inflight.equal_range(key(id));
    for (auto it = first; it != last; ++it) {
      it->second->cancelled = true;
      it->second->stop.request_stop();
    }
  }

  // Input ended: cancel everything and let the workers leave.
  void shut_down()
  {
    std::lock_guard lock(m_mutex);
    m_closing = true;
    for (auto& [id, job] : m_inflight) {
      job->cancelled = true;
      job->stop.request_stop();
    }
    m_queue.clear();
    m_ready.notify_all();
  }

  // Waits until no request runs, or `timeout` passed. True when idle.
  bool wait_idle(std::chrono::milliseconds timeout)
  {
    std::unique_lock lock(m_mutex);
    return m_idle.wait_for(lock, timeout, [this] { return m_running == 0; });
  }

  // A worker's loop.
  void work(const Handler& handler)
  {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_closing || !m_queue.empty(); });
        if (m_closing) {
          return;
        }
        job = std::move(m_queue.front());
        m_queue.pop_front();
        ++m_running;
      }
      Reply reply;
      const Respond respond = [this, &job](Reply early) {
        std::lock_guard lock(m_mutex);
        if (job->cancelled || job->answered) {
          return false;
        }
        write_locked(answer_of(job->request.id, std::move(early)));
        job->answered = true;
        return true;
      };
      if (!job->stop.stop_requested()) {
        try {
          reply = handler.request(job->request, job->stop.get_token(), respond);
        } catch (const std::exception& e) {
          reply = Reply::error(rpc::internal_error, std::string("internal error: ") + e.what());
        }
      }
      std::lock_guard lock(m_mutex);
      if (!job->cancelled && !job->answered && !reply.answered) {
        write_locked(answer_of(job->request.id, std::move(reply)));
      }
      const auto [first, last] = m_inflight.equal_range(key(job->request.id));
      for (auto it = first; it != last; ++it) {
        if (it->second == job) {
          m_inflight.erase(it);
          break;
        }
      }
      --m_running;
      if (m_running == 0) {
        m_idle.notify_all();
      }
    }
  }

private:
  static std::string key(const json& id) { return id.dump(); }

  void write_locked(const json& message)
  {
    if (m_broken) {
      return;
    }
    const std::string line = to_line(message);
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(m_out, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n <= 0) {
        m_broken = true; // the client went away; the reader will see end of input
        return;
      }
      done += static_cast<std::size_t>(n);
    }
  }

  int m_out;
  ServerLimits m_limits;
  std::mutex m_mutex;
  std::condition_variable m_ready;
  std::condition_variable m_idle;
  std::deque<std::shared_ptr<Job>> m_queue;
  std::multimap<std::string, std::shared_ptr<Job>> m_inflight;
  std::size_t m_running = 0;
  bool m_closing = false;
  bool m_broken = false;
};

} // namespace

int serve(const Handler& handler, int in_fd, int out_fd, const ServerLimits& limits,
          const std::function<void(const std::string&)>& log)
{
  State state(out_fd, limits);
  if (handler.attach) {
    handler.attach([&state](const json& message) { state.write(message); });
  }
  std::vector<std::thread> workers;
  workers.reserve(limits.max_running);
  for (std::size_t i = 0; i < limits.max_running; ++i) {
    workers.emplace_back([&state, &handler] { state.work(handler); });
  }
  LineReader reader(in_fd, limits.max_line_bytes);
  std::string line;
  for (;;) {
    const LineReader::Status status = reader.next(line);
    if (status == LineReader::Status::end) {
      break;
    }
    if (status == LineReader::Status::too_long) {
      log("a line longer than the limit was discarded");
      state.write(make_error(nullptr, rpc::parse_error, "line too long"));
      continue;
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      continue; // blank lines are not messages
    }
    Parsed parsed = parse_line(line);
    if (parsed.message.is_discarded()) {
      state.write(make_error(nullptr, rpc::parse_error, "parse error: not JSON"));
      continue;
    }
    Incoming in = classify(parsed.message);
    if (parsed.too_deep) {
      // Never run. A request (or what cannot be told apart from one) is answered, with its id when
      // the envelope survived; a notification or a response gets nothing, as always.
      const std::string why = fmt::format("JSON nested deeper than {} levels", k_max_json_depth);
      if (in.kind == Incoming::Kind::request || in.kind == Incoming::Kind::invalid) {
        state.write(make_error(in.id, rpc::invalid_request, "invalid request: " + why));
      } else {
        log("a message with " + why + " was dropped");
      }
      continue;
    }
    switch (in.kind) {
    case Incoming::Kind::invalid:
      state.write(make_error(in.id, rpc::invalid_request, "invalid request: " + in.why));
      break;
    case Incoming::Kind::response:
      break;
    case Incoming::Kind::notification:
      if (in.method == "notifications/cancelled") {
        if (in.params.is_object() && in.params.contains("requestId")) {
          state.cancel(in.params["requestId"]);
          if (handler.cancelled) {
            handler.cancelled(in.params["requestId"]);
          }
        }
      } else if (handler.notification) {
        handler.notification(in);
      }
      break;
    case Incoming::Kind::request:
      if (handler.runs_on_pool(in.method)) {
        const json id = in.id;
        if (!state.admit(std::move(in))) {
          state.write(make_error(id, rpc::server_busy, "server busy"));
        }
      } else {
        Reply reply = handler.request(in, std::stop_token(), Respond());
        if (!reply.answered) {
          state.write(answer_of(in.id, std::move(reply)));
        }
      }
      break;
    }
  }
  state.shut_down();
  const auto ended_by = std::chrono::steady_clock::now() + std::chrono::milliseconds(800);
  const bool detached = !handler.detach || handler.detach(std::chrono::milliseconds(400));
  const bool idle =
      state.wait_idle(std::chrono::duration_cast<std::chrono::milliseconds>(
          std::max(ended_by - std::chrono::steady_clock::now(), std::chrono::steady_clock::duration{}))) &&
      detached;
  if (!idle) {
    // A request did not notice its cancellation in time: the contract bounds the exit, so the
    // process leaves without waiting for it (nothing is half written: stores commit atomically).
    log("requests still running at end of input; exiting");
    std::fflush(nullptr);
    std::_Exit(0); // the workers cannot be joined in time; the process ends with them
  }
  for (auto& worker : workers) {
    worker.join();
  }
  return 0;
}

} // namespace mailroom::mcp
