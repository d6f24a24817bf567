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
  std::string_view fold; // unicode::fold_for_tags; empty: ignorable
};

Unit read_unit(std::string_view text, std::size_t pos)
{
  const utf8::Decoded d = utf8::decode(text, pos);
  if (!d.valid) {
    return {1, {}}; // an invalid byte is shown as an escape: nothing a reader takes for a letter
  }
  return {d.length, unicode::fold_for_tags(d.code_point)};
}

// What the structural guard writes for a bracket that is not part of a removed tag.
constexpr std::string_view k_guard_open = "\xE2\x80\xB9"; // U+2039 SINGLE LEFT-POINTING ANGLE QUOTATION MARK
constexpr std::string_view k_guard_close =
    "\xE2\x80\xBA"; // U+203A SINGLE RIGHT-POINTING ANGLE QUOTATION MARK

enum class Phase : unsigned char { dead, open, slash, name, done };

// A possible tag starting at an opening bracket at `pos` of the output, and how far it matched.
struct Candidate {
  std::size_t pos = 0;
  Phase phase = Phase::open;
  std::size_t matched = 0; // letters of k_name
  bool separator = false;  // '-' or '_' seen between the words
};

void step(Candidate& c, char fold)
{
  switch (c.phase) {
  case Phase::open:
  case Phase::slash:
    if (fold == '/') {
      c.phase = Phase::slash;
    } else if (fold == k_name[0]) {
      c.phase = Phase::name;
      c.matched = 1;
    } else {
      c.phase = Phase::dead;
    }
    return;
  case Phase::name:
    if (c.matched == k_first_word && !c.separator && (fold == '-' || fold == '_')) {
      c.separator = true;
    } else if (fold == k_name[c.matched]) {
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

// Advances `c` over every character `u` folds to (none for an ignorable unit).
void step(Candidate& c, const Unit& u)
{
  for (const char fold : u.fold) {
    if (c.phase == Phase::dead || c.phase == Phase::done) {
      return;
    }
    step(c, fold);
  }
}

// The length of the gate's escape for a hidden character (`<U+200B>`, sanitize.cpp) at `pos`, or
// 0. The structural guard leaves these as they are, so sanitising hook text twice changes nothing;
// no tag can be formed from one.
std::size_t escape_at(std::string_view text, std::size_t pos)
{
  if (text.substr(pos, 3) != "<U+") {
    return 0;
  }
  std::size_t end = pos + 3;
  while (end < text.size() && end - pos < 9 &&
         ((text[end] >= '0' && text[end] <= '9') || (text[end] >= 'A' && text[end] <= 'F'))) {
    ++end;
  }
  const std::size_t digits = end - pos - 3;
  return digits >= 4 && digits <= 6 && end < text.size() && text[end] == '>' ? end + 1 - pos : 0;
}

// The length of the run of ASCII bytes other than '<' and '>' at `pos`: text that cannot start a
// tag nor advance one whose name is already broken, copied without decoding.
std::size_t inert_ascii_run(std::string_view text, std::size_t pos)
{
  std::size_t end = pos;
  while (end < text.size() && static_cast<unsigned char>(text[end]) < 0x80 && text[end] != '<' &&
         text[end] != '>') {
    ++end;
  }
  return end - pos;
}

} // namespace

std::string neutralise_reminder_tags(std::string_view text, Brackets brackets)
{
  // The output grows as a stack. Each opening bracket in it starts a candidate; only the last
  // candidate advances, because a later bracket ends the name of every earlier one. Removing a
  // tag truncates the output back to its bracket, and the candidate before it resumes where it
  // stopped, which is how a tag rebuilt from the halves around a removed one is caught.
  const bool guard = brackets == Brackets::replace;
  std::string out;
  out.reserve(text.size() + (guard ? 16 : 0));
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
    const std::size_t escape = guard ? escape_at(text, pos) : 0;
    const std::string_view bytes = text.substr(pos, escape > 0 ? escape : u.length);
    pos += bytes.size();
    if (u.fold == "<") {
      if (!candidates.empty() && candidates.back().phase == Phase::done) {
        remove_last(); // a tag with no closing bracket ends before the next opening one
      }
      if (!candidates.empty() && candidates.back().phase == Phase::dead) {
        candidates.clear(); // a dead candidate is never removed: none below it can resume
      }
      // An escape is a bracket whose name is broken at once ('U'), kept whole.
      candidates.push_back({out.size(), escape > 0 ? Phase::dead : Phase::open});
      out += guard && escape == 0 ? k_guard_open : bytes;
      continue;
    }
    if (!candidates.empty()) {
      Candidate& last = candidates.back();
      if (last.phase == Phase::done && u.fold == ">") {
        remove_last();
        continue;
      }
      step(last, u);
    }
    out += guard && u.fold == ">" ? k_guard_close : bytes;
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
    if (first.fold != "<") {
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
