#pragma once

// Internal to the SQL stores: a schedule's and a firing's rows to values and back
// (schedule_sql.hpp has the columns).

#include <optional>
#include <string>

#include "base/result.hpp"
#include "db/statement.hpp"
#include "mail/schedules.hpp"

namespace mailroom::providers::sqlstore {

// The schedule in the current row (MR_SQL_SCHEDULE_COLUMNS), with its last firing when it has one.
mail::Schedule schedule_from_row(const db::Statement& row);
// The firing in the current row (MR_SQL_FIRING_COLUMNS).
mail::Firing firing_from_row(const db::Statement& row);

// The text a schedule's row is written with, kept alive for the statement's run (engines may bind
// text without copying it): make one, bind, run the statement, then let it go. `schedule` too must
// outlive the run.
class ScheduleColumns {
public:
  explicit ScheduleColumns(const mail::Schedule& schedule);
  // Binds every column to ScheduleQueries::insert, or the changing ones to ::update.
  Result<void> bind_insert(db::Statement& statement) const;
  Result<void> bind_update(db::Statement& statement) const;

private:
  auto changing() const;

  const mail::Schedule& m_schedule;
  std::string m_kind;
  std::string m_catch_up;
  std::string m_overlap;
  std::string m_to;
  std::string m_cc;
  std::optional<std::string> m_last_kind;
};

// Binds `firing` of schedule `id` to ScheduleQueries::insert_firing.
Result<void> bind_firing(db::Statement& statement, const std::string& id, const mail::Firing& firing);

// "schedule \"NAME\" of FROM not found", with `names` (the owner's live ones) as suggestions.
Error schedule_not_found(const mail::Mailbox& from, const std::string& name,
                         const std::vector<std::string>& names);

} // namespace mailroom::providers::sqlstore
