#include "mail/schedules.hpp"

#include <array>
#include <utility>

namespace mailroom::mail {

namespace {

template <typename E, std::size_t N> using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<RuleKind, 3> k_rule_kinds = {
    {{RuleKind::at, "at"}, {RuleKind::every, "every"}, {RuleKind::cron, "cron"}}};
constexpr Names<CatchUp, 2> k_catch_ups = {{{CatchUp::latest, "latest"}, {CatchUp::skip, "skip"}}};
constexpr Names<Overlap, 2> k_overlaps = {{{Overlap::skip, "skip"}, {Overlap::send, "send"}}};
constexpr Names<FiringKind, 2> k_firing_kinds = {
    {{FiringKind::slot, "slot"}, {FiringKind::run_now, "run_now"}}};
constexpr Names<FiringOutcome, 6> k_outcomes = {{{FiringOutcome::sent, "sent"},
                                                 {FiringOutcome::partial, "partial"},
                                                 {FiringOutcome::skipped_open, "skipped_open"},
                                                 {FiringOutcome::missed, "missed"},
                                                 {FiringOutcome::failed, "failed"},
                                                 {FiringOutcome::suppressed, "suppressed"}}};
constexpr Names<FirerKind, 3> k_firer_kinds = {
    {{FirerKind::run_due, "run-due"}, {FirerKind::serve, "serve"}, {FirerKind::sweep, "sweep"}}};

template <typename E, std::size_t N> std::string_view name_of(const Names<E, N>& names, E value)
{
  for (const auto& [v, name] : names) {
    if (v == value) {
      return name;
    }
  }
  return {};
}

template <typename E, std::size_t N>
std::optional<E> value_of(const Names<E, N>& names, std::string_view text)
{
  for (const auto& [v, name] : names) {
    if (name == text) {
      return v;
    }
  }
  return std::nullopt;
}

} // namespace

std::string_view to_string(RuleKind kind)
{
  return name_of(k_rule_kinds, kind);
}
std::string_view to_string(CatchUp catch_up)
{
  return name_of(k_catch_ups, catch_up);
}
std::string_view to_string(Overlap overlap)
{
  return name_of(k_overlaps, overlap);
}
std::string_view to_string(FiringKind kind)
{
  return name_of(k_firing_kinds, kind);
}
std::string_view to_string(FiringOutcome outcome)
{
  return name_of(k_outcomes, outcome);
}
std::string_view to_string(FirerKind kind)
{
  return name_of(k_firer_kinds, kind);
}
std::optional<RuleKind> parse_rule_kind(std::string_view text)
{
  return value_of(k_rule_kinds, text);
}
std::optional<CatchUp> parse_catch_up(std::string_view text)
{
  return value_of(k_catch_ups, text);
}
std::optional<Overlap> parse_overlap(std::string_view text)
{
  return value_of(k_overlaps, text);
}
std::optional<FiringKind> parse_firing_kind(std::string_view text)
{
  return value_of(k_firing_kinds, text);
}
std::optional<FiringOutcome> parse_firing_outcome(std::string_view text)
{
  return value_of(k_outcomes, text);
}

} // namespace mailroom::mail
