#include "mail/address.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

bool is_segment_start(char c)
{
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

bool is_segment_char(char c)
{
  return is_segment_start(c) || c == '.' || c == '_' || c == '-';
}

std::string_view last_segment(std::string_view name)
{
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

Error invalid(std::string_view text, std::string hint)
{
  Error e = make_error(ErrorCode::invalid_recipient,
                       fmt::format("invalid recipient \"{}\": expected name, rig/name, @all or @group", text),
                       std::move(hint));
  e.input = std::string(text);
  return e;
}

} // namespace

std::vector<std::string> valid_address_shapes()
{
  return {"name", "rig/name", "@all", "@group"};
}

bool is_valid_mailbox(std::string_view text)
{
  if (text.empty() || text.size() > k_max_address_bytes) {
    return false;
  }
  bool at_segment_start = true;
  for (const char c : text) {
    if (c == '/') {
      if (at_segment_start) {
        return false; // empty segment
      }
      at_segment_start = true;
      continue;
    }
    if (at_segment_start ? !is_segment_start(c) : !is_segment_char(c)) {
      return false;
    }
    at_segment_start = false;
  }
  return !at_segment_start;
}

Result<Address> parse_address(std::string_view text)
{
  if (text.empty()) {
    return invalid(text, "a recipient cannot be empty");
  }
  if (text.size() > k_max_address_bytes) {
    Error e = make_error(ErrorCode::invalid_recipient,
                         fmt::format("invalid recipient: {} bytes; an address is at most {} bytes",
                                     text.size(), k_max_address_bytes));
    e.input = std::string(text);
    return e;
  }
  if (text.front() == '@') {
    const std::string_view rest = text.substr(1);
    if (rest == "all") {
      return Address{Address::Kind::all, {}};
    }
    if (is_valid_mailbox(rest) && rest.find('/') == std::string_view::npos) {
      return Address{Address::Kind::group, std::string(rest)};
    }
    return invalid(text, "a group is @ followed by one name, e.g. @reviewers");
  }
  if (is_valid_mailbox(text)) {
    return Address{Address::Kind::mailbox, std::string(text)};
  }
  // Foreign forms other mail tools use; suggest, never correct.
  const auto colon = text.find(':');
  if (colon != std::string_view::npos) {
    const std::string_view after = text.substr(colon + 1);
    if (after == "*") {
      return invalid(text, "did you mean @all?");
    }
    if (is_valid_mailbox(after)) {
      Error e = invalid(text, fmt::format("did you mean {}?", after));
      e.suggestions.emplace_back(after);
      return e;
    }
  }
  if (text.find(' ') != std::string_view::npos) {
    return invalid(text, "mailbox names cannot contain spaces");
  }
  if (text.front() == '-') {
    return invalid(text, "mailbox names cannot start with '-'");
  }
  return invalid(text, "segments are letters, digits, '.', '_' or '-', joined by '/'");
}

std::vector<std::string> suggest_mailboxes(std::string_view input, const std::vector<std::string>& known,
                                           std::size_t max)
{
  struct Candidate {
    std::size_t score;
    const std::string* name;
  };
  std::vector<Candidate> candidates;
  const std::size_t threshold = std::max<std::size_t>(2, input.size() / 3);
  for (const std::string& name : known) {
    if (name == input) {
      continue;
    }
    std::size_t score = text::edit_distance(input, name);
    // `mayor` should find `rig/mayor`, and `laser/mayor` should find `mayor`.
    const std::size_t local = text::edit_distance(last_segment(input), last_segment(name));
    if (local == 0) {
      score = std::min<std::size_t>(score, 1);
    } else {
      score = std::min(score, local + 1);
    }
    if (score <= threshold) {
      candidates.push_back({score, &name});
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.score != b.score ? a.score < b.score : *a.name < *b.name;
  });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < candidates.size() && i < max; ++i) {
    out.push_back(*candidates[i].name);
  }
  return out;
}

} // namespace mailroom::mail
