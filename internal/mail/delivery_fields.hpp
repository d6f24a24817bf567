#pragma once

// The stored fields of a delivery, written once, as mail/message_fields.hpp is for messages: for
// each, its SQL column of `deliveries` (which is also its mail::DeliveryStatus member and its key
// in the delivery JSON of `status` and `trace`), its key in an export record, its kind and whether
// the delivery JSON shows it. Every consumer iterates this table instead of naming fields: the
// stores' delivery column lists (providers/sqlstore: shared_sql.hpp, dialect_sql.hpp) and row
// reading (rows.cpp), the delivery JSON and its schema (render/delivery_json.cpp,
// ops/schema.cpp), export and import (render/transfer.cpp) and import's comparison
// (mail/transfer.cpp).
//
// Not in the table: the message (a delivery's key, written by each statement as it needs it), the
// copies of the message's priority, created_at and sender (never read back), the watcher's claim
// (claimed_by, claim_until, claim_token: a lease, shown as `claim` while it holds and never
// exported) and import's own_expiry (mail/transfer.hpp). The stores' import insert names its
// columns itself (each engine's sql_transfer.cpp; a test checks it names every field's column).

#include <array>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "mail/message.hpp"

namespace mailroom::mail {

// How a field is held, stored and written. The member type follows from the kind.
enum class DeliveryFieldKind {
  name,            // std::string of a mailbox; TEXT; JSON string
  text,            // std::string; TEXT; JSON string
  millis,          // UnixMillis; INTEGER; JSON RFC 3339 time
  optional_millis, // std::optional<UnixMillis>; NULL and null when absent
  optional_name,   // std::optional<Mailbox>; NULL and null when absent
  integer,         // std::int64_t; INTEGER; JSON integer
  ack_state,       // AckState; TEXT (mail::to_string); JSON string
  request_state,   // std::optional<RequestState>; TEXT or NULL (no reply expected); JSON likewise
};

// Whether the delivery JSON (status, trace) shows a field; an export record has them all.
enum class DeliveryFieldView { shown, export_only };

// The table, in export order (the export record's key order after "kind" and "message"). A row is
// X(column, export_key, kind, view, ...): `column` the SQL column, the mail::DeliveryStatus member
// and the delivery JSON's key, `export_key` the export record's key (a record's own "kind" is
// "delivery", so the delivery's kind is its "role"), `kind` a DeliveryFieldKind, `view` a
// DeliveryFieldView; the macro's extra arguments are passed on to every row. It is a macro so that
// the stores can splice the column names into their SQL string literals at compile time.
// clang-format off
#define MR_DELIVERY_FIELDS(X, ...)                                                                           \
  X(recipient,        recipient,        name,            shown,       __VA_ARGS__)                           \
  X(kind,             role,             text,            shown,       __VA_ARGS__)                           \
  X(delivered_at,     delivered_at,     millis,          shown,       __VA_ARGS__)                           \
  X(read_at,          read_at,          optional_millis, shown,       __VA_ARGS__)                           \
  X(archived_at,      archived_at,      optional_millis, shown,       __VA_ARGS__)                           \
  X(ack_state,        ack_state,        ack_state,       shown,       __VA_ARGS__)                           \
  X(acked_at,         acked_at,         optional_millis, shown,       __VA_ARGS__)                           \
  X(attempts,         attempts,         integer,         shown,       __VA_ARGS__)                           \
  X(last_attempt_at,  last_attempt_at,  optional_millis, shown,       __VA_ARGS__)                           \
  X(next_attempt_at,  next_attempt_at,  optional_millis, export_only, __VA_ARGS__)                           \
  X(acted_by,         acted_by,         optional_name,   shown,       __VA_ARGS__)                           \
  X(handler_attempts, handler_attempts, integer,         shown,       __VA_ARGS__)                           \
  X(retry_at,         retry_at,         optional_millis, export_only, __VA_ARGS__)                           \
  X(set_aside_at,     set_aside_at,     optional_millis, shown,       __VA_ARGS__)                           \
  X(request_state,    request_state,    request_state,   shown,       __VA_ARGS__)                           \
  X(request_state_at, request_state_at, optional_millis, shown,       __VA_ARGS__)                           \
  X(expires_at,       expires_at,       optional_millis, shown,       __VA_ARGS__)
// clang-format on

// One row of the table without its member.
struct DeliveryField {
  std::string_view column;     // the SQL column, the member and the delivery JSON's key
  std::string_view export_key; // the export record's key
  DeliveryFieldKind kind;
  DeliveryFieldView view;
};

#define MR_DELIVERY_FIELD_ROW(column, export_key, kind, view, ...)                                           \
  DeliveryField{#column, #export_key, DeliveryFieldKind::kind, DeliveryFieldView::view},
inline constexpr std::array k_delivery_fields = {MR_DELIVERY_FIELDS(MR_DELIVERY_FIELD_ROW)};
#undef MR_DELIVERY_FIELD_ROW

// The kind of a field as a type, so that a visitor picks its code at compile time.
template <DeliveryFieldKind K> using DeliveryFieldKindTag = std::integral_constant<DeliveryFieldKind, K>;

// Calls `f(DeliveryFieldKindTag<kind>{}, field, member...)` for every row, in table order, where
// each `member` is the field's member of one of `deliveries` (const when that delivery is): one
// delivery to read or write it, two to compare. Test a kind with `decltype(tag)::value`.
template <typename F, typename... D> constexpr void for_each_delivery_field(F&& f, D&... deliveries)
{
  static_assert((std::is_same_v<std::remove_const_t<D>, DeliveryStatus> && ...));
  std::size_t row = 0;
#define MR_DELIVERY_FIELD_VISIT(column, export_key, kind, view, ...)                                         \
  f(DeliveryFieldKindTag<DeliveryFieldKind::kind>{}, k_delivery_fields[row++], deliveries.column...);
  MR_DELIVERY_FIELDS(MR_DELIVERY_FIELD_VISIT)
#undef MR_DELIVERY_FIELD_VISIT
}

// For a visitor's final `else`: fails to compile when a kind has no branch.
template <DeliveryFieldKind K> inline constexpr bool k_unhandled_delivery_field_kind = false;

} // namespace mailroom::mail
