#pragma once

// The bead store: mailroom's default provider, one SQLite file (or ":memory:"). A message is one
// bead stored once; each recipient has a delivery row holding its own read/archived state; a
// registry of mailboxes backs unknown-recipient checks, @all and `agents`.
// See reliability.md §1–2 for the rules it follows (BEGIN IMMEDIATE writes, no scans on the hook
// path, idempotency keys in the same transaction, size caps before BEGIN).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mail/clock.hpp"
#include "mail/provider.hpp"
#include "base/result.hpp"
#include "mail/settings.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

class BeadStore final : public mail::Provider {
public:
  // Opens the store `settings` describe (see open_bead_store).
  static Result<std::unique_ptr<BeadStore>> open(const mail::StoreSettings& settings,
                                                       const mail::Clock& clock);

  BeadStore(sqlite::Database db, const mail::Clock& clock, std::string id_prefix);

  mail::Capabilities capabilities() const override;
  Result<mail::SendReceipt> send(const mail::SendRequest& request) override;
  Result<mail::SendReceipt> reply(const mail::MessageId& id,
                                        const mail::ReplyRequest& request) override;
  Result<std::vector<mail::Message>> inbox(const mail::Mailbox& mailbox,
                                                 const mail::ListOptions& options) override;
  Result<mail::CheckResult> check(const mail::Mailbox& mailbox, std::size_t limit) override;
  Result<mail::Counts> count(const mail::Mailbox& mailbox) override;
  Result<mail::Message> get(const mail::Mailbox& viewer, const mail::MessageId& id) override;
  Result<mail::Message> read(const mail::Mailbox& viewer, const mail::MessageId& id,
                                   const mail::DeliverFn& deliver) override;
  Result<mail::ChangeOutcome> mark_read(const mail::Mailbox& mailbox,
                                              const mail::MessageId& id) override;
  Result<mail::ChangeOutcome> mark_unread(const mail::Mailbox& mailbox,
                                                const mail::MessageId& id) override;
  Result<mail::ChangeOutcome> archive(const mail::Mailbox& mailbox,
                                            const mail::MessageId& id) override;
  Result<mail::ChangeOutcome> unarchive(const mail::Mailbox& mailbox,
                                              const mail::MessageId& id) override;
  Result<std::vector<mail::MessageId>> mark_all_read(const mail::Mailbox& mailbox) override;
  Result<mail::ThreadResult> thread(const mail::Mailbox& viewer,
                                          const std::string& thread_or_message_id) override;
  Result<std::vector<mail::DeliveryStatus>> status(const mail::Mailbox& viewer,
                                                         const mail::MessageId& id) override;
  Result<void> ensure_registered(const mail::Mailbox& mailbox) override;
  Result<std::vector<mail::Agent>> agents() override;
  Result<std::vector<mail::Mailbox>> add_agents(const std::vector<mail::Mailbox>& names) override;
  Result<void> remove_agent(const mail::Mailbox& name) override;

  // The connection, for tests and maintenance (EXPLAIN QUERY PLAN, integrity checks).
  sqlite::Database& database() { return m_db; }

private:
  // Everything a stored message needs; send and reply both end in store().
  struct Draft {
    mail::Mailbox from;
    std::vector<mail::Mailbox> to;
    std::vector<mail::Mailbox> cc;
    bool broadcast = false;
    bool require_registered = true;
    std::string subject;
    std::string body;
    mail::Priority priority = mail::Priority::normal;
    std::string type;
    std::optional<std::string> idempotency_key;
    std::optional<mail::ThreadId> thread_id; // nullopt: a new thread
    std::optional<mail::MessageId> reply_to;
  };
  struct Loaded {
    mail::Message message;
    bool is_recipient = false;
    std::int64_t seq = 0;
  };

  Result<mail::SendReceipt> store(const Draft& draft);
  Result<std::optional<mail::SendReceipt>> replay(const Draft& draft, const std::string& fingerprint);
  Result<void> resolve_recipients(const Draft& draft, std::vector<mail::Mailbox>& to,
                                        std::vector<mail::Mailbox>& cc);
  Result<mail::MessageId> new_message_id(const Draft& draft, mail::UnixMillis now);
  // Message `id` as `viewer` sees it. Errors: not_found, not_recipient (unless `allow_stranger`).
  Result<Loaded> load(const mail::Mailbox& viewer, const mail::MessageId& id,
                            bool allow_stranger = false);
  // Runs one per-recipient UPDATE (`sql`, with the time bound when `with_time`) in a write
  // transaction and tells changed from already, not_found and not_recipient.
  Result<mail::ChangeOutcome> change(std::string_view sql, const mail::Mailbox& mailbox,
                                           const mail::MessageId& id, bool with_time);
  Result<std::vector<mail::Mailbox>> active_names();

  sqlite::Database m_db;
  const mail::Clock& m_clock;
  std::string m_id_prefix;
  std::int64_t m_uid = 0;
  std::string m_host;
};

// Opens the bead store at `settings.path` (":memory:" for a private in-memory store): creates the
// directory (0700) and the database (0600) when `settings.create`, refuses a network filesystem
// unless `settings.allow_network_fs`, applies the connection settings and migrates the schema.
// Errors: store_error naming the path (cannot create or open, not a database, read-only, newer
// schema, network filesystem), timeout.
Result<std::unique_ptr<mail::Provider>> open_bead_store(const mail::StoreSettings& settings,
                                                              const mail::Clock& clock);

} // namespace mailroom::providers::beads
