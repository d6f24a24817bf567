#pragma once

// FakeProvider: a real in-memory mail::Provider for tests. It follows provider.hpp exactly (it passes
// the provider contract suite) and records what it was asked to do, so command tests can assert effects
// without a store. Not thread-safe; one instance per test.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mail/clock.hpp"
#include "mail/provider.hpp"

namespace mailroom::testing {

// Every capability on: what FakeProvider does by default.
mail::Capabilities all_capabilities();

class FakeProvider final : public mail::Provider {
public:
  // A provider with no messages and an empty registry. `clock` stamps every message and change and
  // must outlive the provider. A capability switched off in `capabilities` makes the matching
  // requests fail with unsupported, as a provider without it must.
  explicit FakeProvider(const mail::Clock& clock,
                        mail::Capabilities capabilities = all_capabilities());

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

  // The name of every Provider method called so far, in call order ("send", "inbox", ...),
  // including calls that failed. capabilities() is not recorded.
  const std::vector<std::string>& operations() const { return m_operations; }
  // Forgets the recorded operations (the state stays).
  void clear_operations() { m_operations.clear(); }
  // How many changes were made to stored state (messages, delivery records, registry) so far;
  // unchanged by reads and by requests that failed or changed nothing.
  std::int64_t state_changes() const { return m_state_changes; }
  // Number of messages stored.
  std::size_t message_count() const { return m_messages.size(); }
  // Makes the next call of the method named `operation` ("check", "send", ...) fail with `error`
  // before it does anything; later calls work again. Lets tests exercise store failures.
  void fail_next(const std::string& operation, Error error);

private:
  struct Delivery {
    mail::Mailbox recipient;
    std::string kind; // "to" or "cc"
    mail::UnixMillis delivered_at = 0;
    std::optional<mail::UnixMillis> read_at;
    std::optional<mail::UnixMillis> archived_at;
  };

  // What an idempotent request asked for; a replay must match it field for field.
  struct Content {
    std::optional<mail::MessageId> reply_to;
    std::vector<mail::Mailbox> to;
    std::vector<mail::Mailbox> cc;
    bool broadcast = false;
    bool reply_all = false;
    std::optional<std::string> subject;
    std::string body;
    mail::Priority priority = mail::Priority::normal;
    std::string type;
    bool operator==(const Content&) const = default;
  };

  struct Stored {
    mail::Message message; // read/archived are filled in per viewer
    std::vector<Delivery> deliveries; // to first, then cc
    std::optional<std::string> idempotency_key;
    Content content;
  };

  struct Registration {
    mail::UnixMillis registered_at = 0;
    std::optional<mail::UnixMillis> last_seen;
  };

  // A send after the request has been turned into a message: shared by send and reply.
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
    mail::ThreadId thread_id; // empty: a new thread
    std::optional<mail::MessageId> reply_to;
    std::optional<std::string> idempotency_key;
    Content content;
  };

  std::optional<Error> begin(const std::string& operation);
  Result<mail::SendReceipt> store(Draft draft);
  std::optional<Error> check_recipients(const Draft& draft,
                                              const std::vector<mail::Mailbox>& explicit_names) const;
  std::vector<mail::Mailbox> broadcast_audience(const mail::Mailbox& from) const;
  Stored* find(const mail::MessageId& id);
  Result<Stored*> find_visible(const mail::Mailbox& viewer, const mail::MessageId& id);
  Result<Delivery*> find_delivery(const mail::Mailbox& mailbox, const mail::MessageId& id);
  mail::Message view(const Stored& stored, const mail::Mailbox& viewer) const;
  std::vector<mail::Message> open_messages(const mail::Mailbox& mailbox, bool include_read) const;
  void touch(const mail::Mailbox& mailbox);
  void register_mailbox(const mail::Mailbox& mailbox);
  mail::SendReceipt receipt(const Stored& stored, bool replayed) const;

  const mail::Clock& m_clock;
  mail::Capabilities m_capabilities;
  std::vector<Stored> m_messages; // index i holds id "fake-<i+1>"
  std::map<mail::Mailbox, Registration> m_registry;
  std::int64_t m_next_thread = 1;
  std::vector<std::string> m_operations;
  std::int64_t m_state_changes = 0;
  std::map<std::string, Error> m_failures;
};

} // namespace mailroom::testing
