#include "hook_guard.hpp"

#include <algorithm>

#include "hook_deadline.hpp"
#include "parser.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

namespace {

bool is_option(std::string_view word)
{
  return word.size() > 1 && word[0] == '-';
}

// `--name` or `--name=...`.
bool is_spelling_of(std::string_view word, std::string_view name)
{
  return word == name ||
         (text::starts_with(word, name) && word.size() > name.size() && word[name.size()] == '=');
}

} // namespace

HookWords read_hook_words(const std::vector<std::string>& args)
{
  HookWords words;
  std::size_t i = 0;
  bool mail_word = false;
  bool after_unknown = false; // the previous word was an unknown option, which may take a value
  bool check = false;
  // The command word: the first word that is neither an option nor a value of one. An unknown
  // option's next word may be its value, so a word after one does not end the search.
  for (; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      return words;
    }
    if (is_option(word)) {
      words.json = words.json || word == "--json";
      const GlobalSpec* global = find_global(word.substr(0, word.find('=')));
      const bool has_value = word.find('=') != std::string::npos;
      if (global != nullptr && !global->value_name.empty() && !has_value) {
        ++i; // its value
      }
      after_unknown = global == nullptr && !has_value;
      continue;
    }
    if (word == "check") {
      check = true;
      break;
    }
    if (word == "mail" && !mail_word) {
      mail_word = true;
      after_unknown = false;
      continue;
    }
    if (!after_unknown) {
      return words;
    }
    after_unknown = false;
  }
  if (!check) {
    return words;
  }
  for (++i; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      break;
    }
    words.json = words.json || word == "--json";
    words.hook = words.hook || is_spelling_of(word, "--inject") || is_spelling_of(word, "--hook-format");
    if (word == "--budget" && i + 1 < args.size()) {
      words.budget = args[i + 1];
    } else if (is_spelling_of(word, "--budget")) {
      words.budget = word.substr(std::string_view("--budget=").size());
    }
  }
  return words;
}

bool is_hook_invocation(const std::vector<std::string>& args)
{
  return read_hook_words(args).hook;
}

Result<void> HookOutput::out(std::string_view text)
{
  m_out.append(text);
  return {};
}

void HookOutput::answer(bool succeeded)
{
  if (m_answered) {
    return;
  }
  m_answered = true;
  if (m_deadline != nullptr && !m_deadline->begin_answer()) {
    return; // the budget ran out: the process is ending with its own line
  }
  if (succeeded && !m_out.empty()) {
    (void)m_inner.out(m_out);
  }
  if (!m_err.empty()) {
    const std::string line = m_err.substr(0, m_err.find('\n'));
    m_inner.err(text::cap_for_echo(line, 400) + "\n");
  }
  if (m_deadline != nullptr) {
    m_deadline->answered();
  }
}

} // namespace mailroom::cli
