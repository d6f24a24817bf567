#pragma once

// The process environment: read through an injectable Environment (so rules that depend on
// variables are testable without globals), and the environment a child process gets.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mailroom::util {

// Read-only access to environment variables and the working directory.
class Environment {
public:
  virtual ~Environment() = default;
  // The variable's value, or nullopt when it is not set.
  virtual std::optional<std::string> get(std::string_view name) const = 0;
  // The absolute current working directory.
  virtual std::string cwd() const = 0;
};

// The real process environment (getenv, getcwd).
class ProcessEnvironment final : public Environment {
public:
  std::optional<std::string> get(std::string_view name) const override;
  std::string cwd() const override;
};

// A fixed environment for tests.
class MapEnvironment final : public Environment {
public:
  MapEnvironment(std::map<std::string, std::string> vars, std::string cwd)
      : m_vars(std::move(vars)), m_cwd(std::move(cwd))
  {
  }
  std::optional<std::string> get(std::string_view name) const override;
  std::string cwd() const override { return m_cwd; }

private:
  std::map<std::string, std::string> m_vars;
  std::string m_cwd;
};

// Another environment seen from a different working directory (gc's `--city DIR`).
class RelocatedEnvironment final : public Environment {
public:
  RelocatedEnvironment(const Environment& base, std::string cwd) : m_base(base), m_cwd(std::move(cwd)) {}
  std::optional<std::string> get(std::string_view name) const override { return m_base.get(name); }
  std::string cwd() const override { return m_cwd; }

private:
  const Environment& m_base;
  std::string m_cwd;
};

// The caller's whole environment with `extra` added as NAME=VALUE; a caller variable of the same
// name is replaced, nothing else is removed or renamed. Reads `environ`; changes nothing.
std::vector<std::string> build_environment(const std::vector<std::pair<std::string, std::string>>& extra);

} // namespace mailroom::util
