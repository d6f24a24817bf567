#include "text/reminder.hpp"

#include <vector>

#include "text/adopt.hpp"
#include "text/unicode.hpp"
#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

constexpr std::string_view k_name = "systemreminder";
constexpr std::size_t k_first_word = 6; // "system"

// One character of input as the tag matcher sees it.
struct Unit {
  std::size_t length = 1;
  char fold = '\0'; // unicode::fold_for_tags, or '\0'
  bool ignorable = false;
};

Unit read_unit(std::string_view text, std::size_t pos)
{
  const utf8::Decoded d = utf8::decode(text, pos);
  if (!d.valid) {
    return {1, '\0', true};
  }
  const char fold = unicode::fold_for_tags(d.code_point);
  if (fold != '\0') {
    return {d.length, fold, false};
  }
  // Whitespace, controls, marks and every hidden class: nothing a reader sees between letters.
  return {d.length, '\0', unicode::classify(d.code_point) != unicode::CharClass::visible};
}

enum class Phase : unsigned char { dead, open, slash, name, done };

// A possible tag starting at an opening bracket at `pos` of the output, and how far it matched.
struct Candidate {
  std::size_t pos = 0;
  Phase phase = Phase::open;
  std::size_t matched = 0; // letters of k_name
  bool separator = false;  // '-' or '_' seen between the words
};

void step(Candidate& c, const Unit& u)
{
  if (u.ignorable || c.phase == Phase::dead || c.phase == Phase::done) {
    return;
  }
  switch (c.phase) {
  case Phase::open:
  case Phase::slash:
    if (u.fold == '/') {
      c.phase = Phase::slash;
    } else if (u.fold == k_name[0]) {
      c.phase = Phase::name;
      c.matched = 1;
    } else {
      c.phase = Phase::dead;
    }
    return;
  case Phase::name:
    if (c.matched == k_first_word && !c.separator && (u.fold == '-' || u.fold == '_')) {
      c.separator = true;
    } else if (u.fold == k_name[c.matched]) {
      ++c.matched;
      c.phase = c.matched == k_name.size() ? Phase::done : Phase::name;
    } else {
      c.phase = Phase::dead;
    }
    return;
  default:
    return;
  }
}

// The length of the run of ASCII bytes other than '<' at `pos`: text that cannot start a tag nor
// advance one whose name is already broken, copied without decoding.
std::size_t inert_ascii_run(std::string_view text, std::size_t pos)
{
  std::size_t end = pos;
  while (end < text.size() && static_cast<unsigned char>(text[end]) < 0x80 && text[end] != '<') {
    ++end;
  }
  return end - pos;
}

} // namespace

std::string neutralise_reminder_tags(std::string_view text)
{
  // The output grows as a stack. Each opening bracket in it starts a candidate; only the last
  // candidate advances, because a later bracket ends the name of every earlier one. Removing a
  // tag truncates the output back to its bracket, and the candidate before it resumes where it
  // stopped, which is how a tag rebuilt from the halves around a removed one is caught.
  std::string out;
  out.reserve(text.size());
  std::vector<Candidate> candidates;
  const auto remove_last = [&] {
    out.resize(candidates.back().pos);
    candidates.pop_back();
  };
  for (std::size_t pos = 0; pos < text.size();) {
    if (candidates.empty() || candidates.back().phase == Phase::dead) {
      if (const std::size_t run = inert_ascii_run(text, pos); run > 0) {
        out += text.substr(pos, run);
        pos += run;
        continue;
      }
    }
    const Unit u = read_unit(text, pos);
    const std::string_view bytes = text.substr(pos, u.length);
    pos += u.length;
    if (u.fold == '<') {
      if (!candidates.empty() && candidates.back().phase == Phase::done) {
        remove_last(); // a tag with no closing bracket ends before the next opening one
      }
      candidates.push_back({out.size()});
      out += bytes;
      continue;
    }
    if (!candidates.empty()) {
      Candidate& last = candidates.back();
      if (last.phase == Phase::done && u.fold == '>') {
        remove_last();
        continue;
      }
      step(last, u);
    }
    out += bytes;
  }
  if (!candidates.empty() && candidates.back().phase == Phase::done) {
    remove_last();
  }
  return out;
}

DisplayText neutralise_reminder_tags(const DisplayText& text)
{
  return adopt_sanitised(neutralise_reminder_tags(text.view()), text.truncated());
}

bool contains_reminder_tag(std::string_view text)
{
  for (std::size_t pos = 0; pos < text.size();) {
    const Unit first = read_unit(text, pos);
    pos += first.length;
    if (first.fold != '<') {
      continue;
    }
    Candidate c;
    for (std::size_t next = pos; next < text.size() && c.phase != Phase::dead && c.phase != Phase::done;) {
      const Unit u = read_unit(text, next);
      next += u.length;
      step(c, u);
    }
    if (c.phase == Phase::done) {
      return true;
    }
  }
  return false;
}

} // namespace mailroom::text
