#include "hooks/payload.hpp"

#include <nlohmann/json.hpp>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace mailroom::hooks {

namespace {

using Clock = std::chrono::steady_clock;

bool is_plain_event_name(std::string_view name)
{
  if (name.empty() || name.size() > 64) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// Keeps the wanted top-level string members and nothing else; returning false from a callback
// ends the parse, which is how it stops early once everything wanted is known.
class PayloadSax final : public nlohmann::json_sax<nlohmann::json> {
public:
  Payload payload;
  bool saw_object = false;
  bool failed = false;

  bool complete() const { return m_seen == 3; }

  bool null() override { return scalar(); }
  bool boolean(bool /*value*/) override { return scalar(); }
  bool number_integer(number_integer_t /*value*/) override { return scalar(); }
  bool number_unsigned(number_unsigned_t /*value*/) override { return scalar(); }
  bool number_float(number_float_t /*value*/, const string_t& /*raw*/) override { return scalar(); }
  bool binary(binary_t& /*value*/) override { return scalar(); }

  bool string(string_t& value) override
  {
    if (m_depth == 0) {
      return fail(); // a bare string is not a payload
    }
    if (m_depth == 1 && m_field != nullptr && m_field->empty()) {
      *m_field = std::move(value);
      ++m_seen;
    }
    m_field = nullptr;
    return !complete();
  }

  bool start_object(std::size_t /*elements*/) override
  {
    if (m_depth == 0) {
      saw_object = true;
    }
    ++m_depth;
    m_field = nullptr;
    return true;
  }
  bool end_object() override
  {
    --m_depth;
    return true;
  }
  bool start_array(std::size_t /*elements*/) override
  {
    if (m_depth == 0) {
      return fail();
    }
    ++m_depth;
    m_field = nullptr;
    return true;
  }
  bool end_array() override
  {
    --m_depth;
    return true;
  }

  bool key(string_t& name) override
  {
    m_field = nullptr;
    if (m_depth != 1) {
      return true;
    }
    if (name == "hook_event_name") {
      m_field = &payload.hook_event_name;
    } else if (name == "session_id") {
      m_field = &payload.session_id;
    } else if (name == "cwd") {
      m_field = &payload.cwd;
    }
    return true;
  }

  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*ex*/) override
  {
    return fail();
  }

private:
  bool scalar()
  {
    m_field = nullptr;
    return m_depth > 0 || fail();
  }
  bool fail()
  {
    failed = true;
    return false;
  }

  int m_depth = 0;
  int m_seen = 0;
  std::string* m_field = nullptr;
};

} // namespace

std::optional<std::string> read_payload_text(int fd, const PayloadLimits& limits)
{
  if (::isatty(fd) == 1) {
    return std::nullopt;
  }
  const auto deadline = Clock::now() + limits.timeout;
  std::string text;
  char buffer[16384];
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      return std::nullopt;
    }
    pollfd watch{fd, POLLIN, 0};
    const int ready = ::poll(&watch, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) {
      continue;
    }
    if (ready <= 0) {
      return std::nullopt; // an error, or no EOF in time
    }
    // Never read more than one byte past the cap: that byte is enough to know it was too much.
    const std::size_t want = std::min(sizeof buffer, limits.max_bytes + 1 - text.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      return std::nullopt;
    }
    if (n == 0) {
      return text;
    }
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > limits.max_bytes) {
      return std::nullopt;
    }
  }
}

std::optional<Payload> parse_payload(std::string_view text)
{
  PayloadSax sax;
  (void)nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
  if (!sax.saw_object || (sax.failed && !sax.complete())) {
    return std::nullopt;
  }
  if (!is_plain_event_name(sax.payload.hook_event_name)) {
    sax.payload.hook_event_name.clear();
  }
  return std::move(sax.payload);
}

std::optional<Payload> read_payload(int fd, const PayloadLimits& limits)
{
  auto text = read_payload_text(fd, limits);
  if (!text) {
    return std::nullopt;
  }
  return parse_payload(*text);
}

} // namespace mailroom::hooks
