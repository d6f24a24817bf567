// Sending and replying. Everything that can be checked without the database (sizes, shapes, the
// fingerprint) is done before BEGIN; recipients, the idempotency key, the id and the rows are all
// inside one BEGIN IMMEDIATE transaction, so a message is stored whole or not at all.

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>
#include <sys/random.h>

#include "beads/bead_store.hpp"
#include "beads/rows.hpp"
#include "beads/sql.hpp"
#include "mail/address.hpp"
#include "mail/limits.hpp"
#include "util/sha256.hpp"

namespace mailroom::providers::beads {

using db::Statement;

namespace {

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

std::string describe_limit(std::size_t limit)
{
  if (limit % (1024U * 1024U) == 0) {
    return fmt::format("{} bytes ({} MiB)", limit, limit / (1024U * 1024U));
  }
  return fmt::format("{} bytes", limit);
}

Result<void> check_sizes(const mail::SendRequest& request)
{
  if (request.body.size() > mail::k_max_body_bytes) {
    return usage(fmt::format("body is {} bytes; the limit is {}", request.body.size(),
                             describe_limit(mail::k_max_body_bytes)));
  }
  if (request.subject.size() > mail::k_max_subject_bytes) {
    return usage(fmt::format("subject is {} bytes; the limit is {}", request.subject.size(),
                             describe_limit(mail::k_max_subject_bytes)));
  }
  const std::size_t recipients = request.to.size() + request.cc.size();
  if (recipients > mail::k_max_recipients) {
    return usage(fmt::format("{} recipients; the limit is {}", recipients, mail::k_max_recipients));
  }
  if (request.idempotency_key) {
    if (request.idempotency_key->empty()) {
      return usage("idempotency key is empty");
    }
    if (request.idempotency_key->size() > mail::k_max_idempotency_key_bytes) {
      return usage(fmt::format("idempotency key is {} bytes; the limit is {}",
                               request.idempotency_key->size(),
                               describe_limit(mail::k_max_idempotency_key_bytes)));
    }
  }
  return {};
}

// Length-prefixed, so that no two different field lists hash the same bytes.
void add_field(util::Sha256& hasher, std::string_view field)
{
  hasher.update(fmt::format("{}:", field.size()));
  hasher.update(field);
}

void add_sorted(util::Sha256& hasher, std::vector<mail::Mailbox> names)
{
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  add_field(hasher, fmt::format("{}", names.size()));
  for (const auto& name : names) {
    add_field(hasher, name);
  }
}

// SHA-256 of what the caller asked for: sender, recipients as requested (sorted; @all as a flag,
// since its audience may change between retries), subject, body, priority, type, and the
// message replied to.
std::string fingerprint_of(const mail::Mailbox& from, const std::vector<mail::Mailbox>& to,
                           const std::vector<mail::Mailbox>& cc, bool broadcast,
                           std::string_view subject, std::string_view body, mail::Priority priority,
                           std::string_view type, const std::optional<mail::MessageId>& reply_to)
{
  util::Sha256 hasher;
  add_field(hasher, "mailroom-fingerprint-v1");
  add_field(hasher, from);
  add_sorted(hasher, to);
  add_sorted(hasher, cc);
  add_field(hasher, broadcast ? "all" : "");
  add_field(hasher, subject);
  add_field(hasher, body);
  add_field(hasher, fmt::format("{}", static_cast<int>(priority)));
  add_field(hasher, type);
  add_field(hasher, reply_to.value_or(""));
  return util::to_hex(hasher.digest());
}

std::string random_bytes(std::size_t count)
{
  std::string out(count, '\0');
  std::size_t filled = 0;
  while (filled < count) {
    const ssize_t got = ::getrandom(out.data() + filled, count - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    }
  }
  return out;
}

std::string hex(std::string_view bytes)
{
  constexpr std::string_view k_digits = "0123456789abcdef";
  std::string out;
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(k_digits[byte >> 4U]);
    out.push_back(k_digits[byte & 0x0FU]);
  }
  return out;
}

void append_unique(std::vector<mail::Mailbox>& out, std::set<mail::Mailbox>& seen,
                   const mail::Mailbox& name)
{
  if (seen.insert(name).second) {
    out.push_back(name);
  }
}

} // namespace

Result<mail::SendReceipt> BeadStore::send(const mail::SendRequest& request)
{
  TRY(check_sizes(request));
  Draft draft;
  draft.from = request.from;
  draft.to = request.to;
  draft.cc = request.cc;
  draft.broadcast = request.broadcast;
  draft.require_registered = request.require_registered;
  draft.subject = request.subject;
  draft.body = request.body;
  draft.priority = request.priority;
  draft.type = request.type;
  draft.idempotency_key = request.idempotency_key;
  return store(draft);
}

Result<mail::SendReceipt> BeadStore::reply(const mail::MessageId& id,
                                                 const mail::ReplyRequest& request)
{
  TRY_ASSIGN(Loaded original, load(request.from, id));
  const mail::Message& parent = original.message;
  Draft draft;
  draft.from = request.from;
  // To the original sender; a sender replying to their own message writes to its recipients.
  if (parent.from != request.from) {
    draft.to.push_back(parent.from);
  }
  if (request.reply_all || parent.from == request.from) {
    draft.to.insert(draft.to.end(), parent.to.begin(), parent.to.end());
  }
  if (request.reply_all) {
    draft.cc = parent.cc;
  }
  std::erase(draft.to, request.from);
  std::erase(draft.cc, request.from);
  // Everyone on a reply already received mail in this thread; the registry does not gate them.
  draft.require_registered = false;
  draft.subject = request.subject ? *request.subject : mail::reply_subject(parent.subject);
  draft.body = request.body;
  draft.priority = request.priority;
  draft.type = request.type;
  draft.idempotency_key = request.idempotency_key;
  draft.thread_id = parent.thread_id;
  draft.reply_to = parent.id;

  mail::SendRequest sizes;
  sizes.subject = draft.subject;
  sizes.body = draft.body;
  sizes.idempotency_key = draft.idempotency_key;
  TRY(check_sizes(sizes));
  return store(draft);
}

Result<void> BeadStore::resolve_recipients(const Draft& draft, std::vector<mail::Mailbox>& to,
                                                 std::vector<mail::Mailbox>& cc)
{
  std::vector<mail::Mailbox> active;
  if (draft.broadcast || draft.require_registered) {
    TRY_ASSIGN(active, active_names());
  }
  if (draft.require_registered) {
    for (const auto* list : {&draft.to, &draft.cc}) {
      for (const auto& name : *list) {
        if (name == mail::k_human || std::binary_search(active.begin(), active.end(), name)) {
          continue;
        }
        std::vector<std::string> known = active;
        known.emplace_back(mail::k_human);
        Error error = make_error(ErrorCode::unknown_recipient,
                                             fmt::format("unknown recipient \"{}\"", name));
        error.input = name;
        error.suggestions = mail::suggest_mailboxes(name, known);
        const std::string add = fmt::format("register a new mailbox with: mailroom agents add {}", name);
        error.hint = error.suggestions.empty()
                         ? add
                         : fmt::format("did you mean \"{}\"? ({})", error.suggestions.front(), add);
        return error;
      }
    }
  }
  std::set<mail::Mailbox> seen;
  for (const auto& name : draft.to) {
    append_unique(to, seen, name);
  }
  if (draft.broadcast) {
    // The audience is fixed here, under the write lock: exactly who gets this message.
    for (const auto& name : active) {
      if (name != draft.from && name != mail::k_human) {
        append_unique(to, seen, name);
      }
    }
  }
  for (const auto& name : draft.cc) {
    append_unique(cc, seen, name);
  }
  if (to.empty() && cc.empty()) {
    if (draft.broadcast) {
      return usage("no recipients: @all matched no registered mailbox other than the sender");
    }
    return usage("no recipients");
  }
  return {};
}

Result<mail::MessageId> BeadStore::new_message_id(const Draft& draft, mail::UnixMillis now)
{
  util::Sha256 hasher;
  add_field(hasher, random_bytes(16));
  add_field(hasher, draft.from);
  add_field(hasher, fmt::format("{}", now));
  add_field(hasher, draft.subject);
  const std::string digest = util::to_hex(hasher.digest());
  // Short ids, lengthened only on collision. Beads are never deleted, so an id once taken stays
  // taken and is never handed out again.
  for (std::size_t length = 6; length <= digest.size(); ++length) {
    mail::MessageId candidate = fmt::format("{}-{}", m_id_prefix, digest.substr(0, length));
    TRY_ASSIGN(Statement * exists, m_db.cached(sql::k_id_exists));
    TRY(exists->bind(candidate));
    TRY_ASSIGN(const bool taken, exists->step());
    exists->reset();
    if (!taken) {
      return candidate;
    }
  }
  return make_error(ErrorCode::store_error, "could not find a free message id");
}

Result<std::optional<mail::SendReceipt>> BeadStore::replay(const Draft& draft,
                                                                 const std::string& fingerprint)
{
  TRY_ASSIGN(Statement * select, m_db.cached(sql::k_select_idempotency));
  TRY(select->bind(draft.from, *draft.idempotency_key));
  TRY_ASSIGN(const bool seen, select->step());
  if (!seen) {
    return std::optional<mail::SendReceipt>();
  }
  const std::string stored_fingerprint = select->get<std::string>(0);
  const mail::MessageId original_id = select->get<std::string>(1);
  select->reset();
  if (stored_fingerprint != fingerprint) {
    return make_error(
        ErrorCode::conflict,
        fmt::format("idempotency key \"{}\" was already used for message {} with different content",
                    *draft.idempotency_key, original_id),
        "use a new key for a new message");
  }
  TRY_ASSIGN(Loaded original, load(draft.from, original_id, true));
  mail::SendReceipt receipt;
  receipt.recipients = original.message.to;
  receipt.recipients.insert(receipt.recipients.end(), original.message.cc.begin(),
                            original.message.cc.end());
  receipt.message = std::move(original.message);
  receipt.replayed = true;
  return std::optional<mail::SendReceipt>(std::move(receipt));
}

Result<mail::SendReceipt> BeadStore::store(const Draft& draft)
{
  const std::string fingerprint =
      draft.idempotency_key ? fingerprint_of(draft.from, draft.to, draft.cc, draft.broadcast,
                                             draft.subject, draft.body, draft.priority, draft.type,
                                             draft.reply_to)
                            : std::string();
  const mail::ThreadId thread_id =
      draft.thread_id ? *draft.thread_id : fmt::format("thread-{}", hex(random_bytes(6)));

  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  const mail::UnixMillis now = m_clock.now();
  if (draft.idempotency_key) {
    TRY_ASSIGN(std::optional<mail::SendReceipt> replayed, replay(draft, fingerprint));
    if (replayed) {
      return std::move(*replayed); // nothing written; the transaction rolls back
    }
  }
  mail::Message message;
  TRY(resolve_recipients(draft, message.to, message.cc));
  TRY_ASSIGN(message.id, new_message_id(draft, now));
  message.from = draft.from;
  message.subject = draft.subject;
  message.body = draft.body;
  message.created_at = now;
  // The sender's view (see load): read, unless the sender is also a recipient.
  message.read = std::find(message.to.begin(), message.to.end(), draft.from) == message.to.end() &&
                 std::find(message.cc.begin(), message.cc.end(), draft.from) == message.cc.end();
  message.thread_id = thread_id;
  message.reply_to = draft.reply_to;
  message.priority = draft.priority;
  message.type = draft.type;

  const std::string to_list = detail::join_names(message.to);
  const std::string cc_list = detail::join_names(message.cc);
  const int priority = static_cast<int>(message.priority);
  TRY_ASSIGN(Statement * insert_bead, m_db.cached(sql::k_insert_bead));
  TRY(insert_bead->bind(message.id, message.from, to_list, cc_list, message.subject,
                        sqlite::Blob{message.body}, now, message.thread_id, message.reply_to,
                        priority, message.type, m_uid, m_host));
  TRY(insert_bead->exec());
  const std::int64_t seq = m_db.last_insert_rowid();

  TRY_ASSIGN(Statement * insert_delivery, m_db.cached(sql::k_insert_delivery));
  for (const auto* list : {&message.to, &message.cc}) {
    const char* kind = list == &message.to ? "to" : "cc";
    for (const auto& recipient : *list) {
      TRY(insert_delivery->bind(seq, recipient, kind, priority, now));
      TRY(insert_delivery->exec());
    }
  }
  if (draft.idempotency_key) {
    TRY_ASSIGN(Statement * insert_key, m_db.cached(sql::k_insert_idempotency));
    TRY(insert_key->bind(draft.from, *draft.idempotency_key, fingerprint, seq, now));
    TRY(insert_key->exec());
  }
  TRY_ASSIGN(Statement * register_sender, m_db.cached(sql::k_register_sender));
  TRY(register_sender->bind(draft.from, now));
  TRY(register_sender->exec());
  TRY(transaction.commit());

  mail::SendReceipt receipt;
  receipt.recipients = message.to;
  receipt.recipients.insert(receipt.recipients.end(), message.cc.begin(), message.cc.end());
  receipt.message = std::move(message);
  return receipt;
}

} // namespace mailroom::providers::beads
