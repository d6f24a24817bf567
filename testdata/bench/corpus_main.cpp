// mailroom-bench-corpus: one synthetic corpus written twice, as a mailroom export (JSON Lines, for
// `mailroom import`) and as a maildir (for `notmuch new`), so that search can be timed against
// notmuch on the same messages. Used by testdata/bench/views.sh; not installed.
//
// Message i goes from agent-(i mod M) to agent-(i+1 mod M) with a cc to `archivist`, who therefore
// sees every message (so `mailroom --as archivist search W` and `notmuch search W` look at the same
// mail). Bodies are ~60 words drawn from a Zipf-like vocabulary of 5,000 made-up words, plus marker
// words at fixed rates: "heron" in every 10th message, "kestrel" in every 100th, "osprey" in every
// 1,000th. Everything is a pure function of the message number.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "render/transfer.hpp"

namespace {

std::uint64_t splitmix(std::uint64_t x)
{
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27U)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31U);
}

class Words {
public:
  Words()
  {
    const char* onsets[] = {"b", "br", "c", "ch", "d", "f", "g",  "gr", "h",  "j", "k", "l",
                            "m", "n",  "p", "pl", "r", "s", "st", "t",  "tr", "v", "w", "z"};
    const char* vowels[] = {"a", "e", "i", "o", "u", "ai", "ou"};
    const char* codas[] = {"", "n", "r", "s", "t", "l", "m"};
    for (std::uint64_t i = 0; m_words.size() < 5000; ++i) {
      std::uint64_t h = splitmix(i);
      std::string word;
      const int syllables = 2 + static_cast<int>(h % 2);
      for (int s = 0; s < syllables; ++s) {
        h = splitmix(h);
        word += onsets[h % std::size(onsets)];
        word += vowels[(h >> 8U) % std::size(vowels)];
        word += codas[(h >> 16U) % std::size(codas)];
      }
      if (word != "heron" && word != "kestrel" && word != "osprey") {
        m_words.push_back(word);
      }
    }
    // Zipf-like: weight 1/(rank+1), sampled through the cumulative table.
    double total = 0;
    for (std::size_t r = 0; r < m_words.size(); ++r) {
      total += 1.0 / static_cast<double>(r + 1);
      m_cumulative.push_back(total);
    }
  }

  const std::string& pick(std::uint64_t h) const
  {
    const double x = static_cast<double>(h % 1000000007ULL) / 1000000007.0 * m_cumulative.back();
    std::size_t lo = 0;
    std::size_t hi = m_cumulative.size() - 1;
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (m_cumulative[mid] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return m_words[lo];
  }

private:
  std::vector<std::string> m_words;
  std::vector<double> m_cumulative;
};

std::string hex(std::uint64_t value, int digits)
{
  return fmt::format("{:0{}x}", value, 16).substr(16 - static_cast<std::size_t>(digits));
}

std::string rfc2822(std::int64_t millis)
{
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buffer;
}

} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Write one synthetic corpus as a mailroom export and as a maildir"};
  std::int64_t messages = 100000;
  int mailboxes = 100;
  std::string jsonl;
  std::string maildir;
  app.add_option("--messages", messages, "messages to write")->check(CLI::PositiveNumber);
  app.add_option("--mailboxes", mailboxes, "mailboxes agent-000...")->check(CLI::PositiveNumber);
  app.add_option("--jsonl", jsonl, "the mailroom export to write")->required();
  app.add_option("--maildir", maildir, "the maildir to write (omit for none)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  namespace mail = mailroom::mail;
  namespace render = mailroom::render;
  const Words words;
  const std::int64_t start = 1767225600000; // 2026-01-01T00:00:00Z
  std::ofstream out(jsonl, std::ios::binary);
  if (!out) {
    std::fprintf(stderr, "mailroom-bench-corpus: cannot write %s\n", jsonl.c_str());
    return 5;
  }
  if (!maildir.empty()) {
    for (const char* sub : {"cur", "new", "tmp"}) {
      std::filesystem::create_directories(std::filesystem::path(maildir) / sub);
    }
  }
  out << render::encode_header({render::k_export_format_version, start, "mailroom-bench-corpus"});
  std::vector<std::string> names;
  for (int m = 0; m < mailboxes; ++m) {
    names.push_back(fmt::format("agent-{:03}", m));
  }
  std::vector<std::string> all = names;
  all.emplace_back("archivist");
  std::sort(all.begin(), all.end());
  for (const std::string& name : all) {
    mail::MailboxRecord r;
    r.name = name;
    r.registered_at = start;
    out << render::encode_record(r);
  }
  std::string buffer;
  for (std::int64_t i = 0; i < messages; ++i) {
    const auto n = static_cast<std::uint64_t>(i);
    std::uint64_t h = splitmix(n * 7919 + 1);
    mail::MessageRecord record;
    mail::Message& m = record.message;
    m.id = "mr-" + hex(splitmix(n), 16);
    m.from = names[static_cast<std::size_t>(i % mailboxes)];
    m.to = {names[static_cast<std::size_t>((i + 1) % mailboxes)]};
    m.cc = {"archivist"};
    m.addressed_to = {m.to[0], "archivist"};
    std::vector<std::string> body_words;
    for (int w = 0; w < 60; ++w) {
      h = splitmix(h);
      body_words.push_back(words.pick(h));
    }
    h = splitmix(h);
    const std::size_t at = h % body_words.size();
    if (i % 10 == 3) {
      body_words[at] = "heron";
    }
    if (i % 100 == 7) {
      body_words[(at + 11) % body_words.size()] = "kestrel";
    }
    if (i % 1000 == 13) {
      body_words[(at + 23) % body_words.size()] = "osprey";
    }
    std::string subject;
    for (int w = 0; w < 4; ++w) {
      h = splitmix(h);
      subject += (w > 0 ? " " : "") + words.pick(h);
    }
    m.subject = subject;
    m.body.clear();
    for (std::size_t w = 0; w < body_words.size(); ++w) {
      m.body += body_words[w];
      m.body += (w % 12 == 11) ? ".\n" : " ";
    }
    m.created_at = start + i * 1000;
    m.thread_id = "thread-" + hex(splitmix(n ^ 0x5151), 12);
    m.trace.trace_id = hex(splitmix(n ^ 0x7777), 16) + hex(splitmix(n ^ 0x8888), 16);
    m.trace.span_id = hex(splitmix(n ^ 0x9999), 16);
    m.sender_uid = 1000;
    m.sender_host = "bench";
    buffer += render::encode_record(record);
    for (const auto& [recipient, role] :
         {std::pair{m.to[0], "to"}, std::pair{std::string("archivist"), "cc"}}) {
      mail::DeliveryRecord d;
      d.message = m.id;
      d.status.recipient = recipient;
      d.status.kind = role;
      d.status.delivered_at = m.created_at;
      if (splitmix(h + (role[0] == 't' ? 1 : 2)) % 10 != 0) {
        d.status.read_at = m.created_at + 60000;
      }
      buffer += render::encode_record(d);
    }
    if (buffer.size() > (1U << 20U)) {
      out << buffer;
      buffer.clear();
    }
    if (!maildir.empty()) {
      std::ofstream file(std::filesystem::path(maildir) / "cur" / fmt::format("{}.bench:2,S", i),
                         std::ios::binary);
      file << "From: " << m.from << " <" << m.from << "@mailroom.invalid>\n"
           << "To: " << m.to[0] << " <" << m.to[0] << "@mailroom.invalid>\n"
           << "Cc: archivist <archivist@mailroom.invalid>\n"
           << "Subject: " << m.subject << "\n"
           << "Date: " << rfc2822(m.created_at) << "\n"
           << "Message-ID: <" << m.id << "@mailroom.invalid>\n"
           << "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n"
           << m.body;
    }
  }
  out << buffer;
  out.close();
  if (!out) {
    std::fprintf(stderr, "mailroom-bench-corpus: writing %s failed\n", jsonl.c_str());
    return 5;
  }
  return 0;
}
