#pragma once

// Test-only helpers for the exec provider tests: a private state directory per test (exported as
// MAILROOM_EXEC_STATE for the scripts, and holding the provider's facts cache) and providers built
// on testdata/exec scripts.

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "exec/exec_provider.hpp"

namespace mailroom::providers::exec::testing {

// A fresh directory, exported as MAILROOM_EXEC_STATE while it lives; removed afterwards.
class StateDir {
public:
  StateDir()
  {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mailroom-exec-XXXXXX";
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    m_path = pattern;
    if (const char* old = std::getenv("MAILROOM_EXEC_STATE")) {
      m_old = old;
    }
    ::setenv("MAILROOM_EXEC_STATE", m_path.c_str(), 1);
  }
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;
  ~StateDir()
  {
    if (m_old) {
      ::setenv("MAILROOM_EXEC_STATE", m_old->c_str(), 1);
    } else {
      ::unsetenv("MAILROOM_EXEC_STATE");
    }
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }

  const std::string& path() const { return m_path; }

  // The whole content of file `name` in the directory ("" when missing).
  std::string read(const std::string& name) const
  {
    std::ifstream in(m_path + "/" + name, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  }

  bool has(const std::string& name) const { return std::filesystem::exists(m_path + "/" + name); }

private:
  std::string m_path;
  std::optional<std::string> m_old;
};

inline std::string script_path(const std::string& name)
{
  return std::string(MAILROOM_TESTDATA_DIR) + "/exec/" + name;
}

// The facts cache of the current StateDir ("" when there is none).
inline std::string facts_file()
{
  const char* state = std::getenv("MAILROOM_EXEC_STATE");
  return state == nullptr ? std::string() : std::string(state) + "/exec-facts.json";
}

// An exec provider running `command` (a path), learning into facts_file().
inline std::unique_ptr<mail::Provider>
open_command(const std::string& command, std::chrono::milliseconds timeout = std::chrono::seconds(20),
             std::size_t output_cap = 16U * 1024U * 1024U, const std::string& identity = "tester",
             const mail::MailPolicy& policy = {})
{
  mail::ExecSettings settings;
  settings.command = command;
  settings.timeout = timeout;
  settings.output_cap = output_cap;
  ExecOptions options;
  options.facts_file = facts_file();
  auto provider = open_exec_provider(settings, policy, identity, options);
  REQUIRE(provider.ok());
  return std::move(provider).value();
}

// An exec provider on testdata/exec/`name`, under `policy`.
inline std::unique_ptr<mail::Provider>
open_script(const std::string& name, std::chrono::milliseconds timeout = std::chrono::seconds(20),
            std::size_t output_cap = 16U * 1024U * 1024U, const std::string& identity = "tester",
            const mail::MailPolicy& policy = {})
{
  return open_command(script_path(name), timeout, output_cap, identity, policy);
}

// A deliver function that accepts everything.
inline Result<void> accept(const mail::Message& /*message*/)
{
  return {};
}

// `mailbox` acting on its own deliveries.
inline mail::Actor as(const std::string& mailbox)
{
  return mail::Actor{mailbox, mailbox};
}

// The message list of `provider.list` for `mailbox` (unread, or all open with `include_read`).
inline Result<std::vector<mail::Message>> inbox(mail::Provider& provider, const std::string& mailbox,
                                                bool include_read = false,
                                                std::optional<std::size_t> limit = std::nullopt)
{
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.include_read = include_read;
  query.limit = limit;
  TRY_ASSIGN(mail::ListResult listed, provider.list(query));
  std::vector<mail::Message> messages;
  for (mail::ListedMessage& entry : listed.messages) {
    messages.push_back(std::move(entry.message));
  }
  return messages;
}

} // namespace mailroom::providers::exec::testing
