#pragma once

// A small expected-style result for mailroom (no domain words: the codes are the CLI contract's). Low-level
// code returns Result<T>; only cli::run turns an Error into output and an exit code. Error codes are the
// contract's JSON error codes one for one.

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mailroom {

enum class ErrorCode {
  usage,
  invalid_recipient,
  unknown_recipient,
  not_found,
  not_recipient,
  not_sender, // acting on a message as its sender (cancel) by one who did not send it
  conflict,
  store_error,
  provider_error,
  timeout,
  unsupported,
  ambiguous_id, // an id prefix matched several messages (Error::suggestions lists them)
  no_identity,  // a surface acting for an agent found no identity: it fell through to "human"
};

// The contract's spelling of `code` ("invalid_recipient", ...).
std::string_view to_string(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::usage;
  std::string message;                  // one line, lower case, no final period
  std::string hint;                     // optional second line, printed as "hint: ..."
  std::string input;                    // recipient errors: the text the user typed
  std::vector<std::string> suggestions; // recipient errors: did-you-mean candidates
  // The engine refused the transaction because of a concurrent one (a serialization failure or a
  // deadlock) and running the whole transaction again may succeed. Store logic retries these.
  bool transient = false;
  // A finer cause for callers that branch on it, e.g. "no_store" (a store_error for a store that
  // does not exist: `check` answers "no mail" to it). Shown as "reason" in JSON errors.
  std::string reason;
};

inline Error make_error(ErrorCode code, std::string message, std::string hint = {})
{
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.hint = std::move(hint);
  return e;
}

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}     // NOLINT: implicit by design
  Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {} // NOLINT

  bool ok() const { return m_data.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(m_data); }
  const T& value() const& { return std::get<0>(m_data); }
  T&& value() && { return std::get<0>(std::move(m_data)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& { return std::get<1>(m_data); }
  Error&& error() && { return std::get<1>(std::move(m_data)); }

private:
  std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Error error) : m_error(std::move(error)), m_ok(false) {} // NOLINT

  bool ok() const { return m_ok; }
  explicit operator bool() const { return m_ok; }
  const Error& error() const& { return m_error; }
  Error&& error() && { return std::move(m_error); }

private:
  Error m_error;
  bool m_ok = true;
};

} // namespace mailroom

#define MAILROOM_CONCAT_INNER(a, b) a##b
#define MAILROOM_CONCAT(a, b) MAILROOM_CONCAT_INNER(a, b)

// TRY(expr): evaluate a Result; on error return that error from the enclosing function.
// The temporary is named per use, so a TRY inside a lambda inside a TRY shadows nothing.
#define TRY(expr) TRY_IMPL(MAILROOM_CONCAT(mailroom_try_result_, __COUNTER__), expr)
#define TRY_IMPL(tmp, expr)                                                                                  \
  do {                                                                                                       \
    auto&& tmp = (expr);                                                                                     \
    if (!tmp.ok()) {                                                                                         \
      return std::move(tmp).error();                                                                         \
    }                                                                                                        \
  } while (false)

// TRY_ASSIGN(decl, expr): evaluate a Result<T>; on error return it, else move its value into decl.
#define TRY_ASSIGN(decl, expr) TRY_ASSIGN_IMPL(MAILROOM_CONCAT(mailroom_try_, __LINE__), decl, expr)
#define TRY_ASSIGN_IMPL(tmp, decl, expr)                                                                     \
  auto tmp = (expr);                                                                                         \
  if (!tmp.ok()) {                                                                                           \
    return std::move(tmp).error();                                                                           \
  }                                                                                                          \
  decl = std::move(tmp).value()
