#include "schedule/cron.hpp"

#include <array>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::schedule {

namespace {

constexpr std::string_view k_cron_hint =
    "five fields: minute hour day-of-month month day-of-week, e.g. \"0 9 * * mon-fri\", or @hourly, "
    "@daily, @weekly, @monthly";

struct Field {
  std::string_view name;
  int low;
  int high;
  const std::array<std::string_view, 12>* names; // names[i] is the value low_name + i
  int first_name_value;
};

constexpr std::array<std::string_view, 12> k_month_names = {"jan", "feb", "mar", "apr", "may", "jun",
                                                            "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 12> k_day_names = {"sun", "mon", "tue", "wed", "thu", "fri",
                                                          "sat", "",    "",    "",    "",    ""};

constexpr std::array<Field, 5> k_fields = {
    Field{"minute", 0, 59, nullptr, 0},          Field{"hour", 0, 23, nullptr, 0},
    Field{"day-of-month", 1, 31, nullptr, 0},    Field{"month", 1, 12, &k_month_names, 1},
    Field{"day-of-week", 0, 7, &k_day_names, 0},
};

struct Shorthand {
  std::string_view name;
  std::string_view fields;
};

constexpr std::array<Shorthand, 7> k_shorthands = {
    Shorthand{"@hourly", "0 * * * *"},   Shorthand{"@daily", "0 0 * * *"},
    Shorthand{"@midnight", "0 0 * * *"}, Shorthand{"@weekly", "0 0 * * 0"},
    Shorthand{"@monthly", "0 0 1 * *"},  Shorthand{"@yearly", "0 0 1 1 *"},
    Shorthand{"@annually", "0 0 1 1 *"},
};

class FieldError {
public:
  FieldError(std::string_view expression, const Field& field, std::string_view part)
      : m_expression(expression), m_field(field), m_part(part)
  {
  }
  Error operator()(std::string_view why) const
  {
    return make_error(ErrorCode::usage,
                      fmt::format("invalid cron expression \"{}\": {} \"{}\" {}",
                                  text::cap_for_echo(m_expression), m_field.name, text::cap_for_echo(m_part),
                                  why),
                      std::string(k_cron_hint));
  }

private:
  std::string_view m_expression;
  const Field& m_field;
  std::string_view m_part;
};

// A value: digits, or (for months and weekdays) a three-letter name in any case.
Result<int> value_of(std::string_view text, const Field& field, const FieldError& fail)
{
  if (text.empty()) {
    return fail("is missing a value");
  }
  if (std::isdigit(static_cast<unsigned char>(text.front())) != 0) {
    int value = 0;
    for (const char c : text) {
      if (std::isdigit(static_cast<unsigned char>(c)) == 0 || value > 1000) {
        return fail("is not a number");
      }
      value = value * 10 + (c - '0');
    }
    if (value < field.low || value > field.high) {
      return fail(fmt::format("is out of range {}-{}", field.low, field.high));
    }
    return value;
  }
  if (field.names != nullptr && text.size() == 3) {
    std::string lower;
    for (const char c : text) {
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (std::size_t i = 0; i < field.names->size(); ++i) {
      if (!(*field.names)[i].empty() && (*field.names)[i] == lower) {
        return field.first_name_value + static_cast<int>(i);
      }
    }
  }
  return fail(field.names != nullptr ? "is neither a number nor a name" : "is not a number");
}

// One list element into `set` (bits low..high of the field). Returns whether it is a single value.
Result<bool> add_element(std::string_view element, const Field& field, std::vector<bool>& set,
                         std::string_view expression)
{
  const FieldError fail(expression, field, element);
  int step = 1;
  std::string_view range = element;
  if (const auto slash = element.find('/'); slash != std::string_view::npos) {
    range = element.substr(0, slash);
    const std::string_view step_text = element.substr(slash + 1);
    if (step_text.empty() || step_text.find_first_not_of("0123456789") != std::string_view::npos ||
        step_text.size() > 3) {
      return fail("has a step that is not a number");
    }
    step = std::stoi(std::string(step_text));
    if (step < 1 || step > field.high - field.low + 1) {
      return fail(fmt::format("has a step outside 1-{}", field.high - field.low + 1));
    }
    if (range != "*" && range.find('-') == std::string_view::npos) {
      return fail("has a step after a single value; write a range (e.g. 5-59/10) or */n");
    }
  }
  int low = field.low;
  int high = field.high;
  bool single = false;
  if (range == "*") {
    if (field.name == "day-of-week") {
      high = 6; // 7 is Sunday again
    }
  } else if (const auto dash = range.find('-'); dash != std::string_view::npos) {
    TRY_ASSIGN(low, value_of(range.substr(0, dash), field, fail));
    TRY_ASSIGN(high, value_of(range.substr(dash + 1), field, fail));
    if (low > high) {
      return fail("is a range that runs backwards");
    }
  } else {
    TRY_ASSIGN(low, value_of(range, field, fail));
    high = low;
    single = true;
  }
  for (int value = low; value <= high; value += step) {
    set[static_cast<std::size_t>(value)] = true;
  }
  return single;
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) {
      return parts;
    }
    start = at + 1;
  }
}

std::vector<std::string_view> words(std::string_view text)
{
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      ++i;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') {
      ++i;
    }
    if (i > start) {
      out.push_back(text.substr(start, i - start));
    }
  }
  return out;
}

template <std::size_t N> int next_set(const std::bitset<N>& set, int from)
{
  for (int i = from; i < static_cast<int>(N); ++i) {
    if (set[static_cast<std::size_t>(i)]) {
      return i;
    }
  }
  return -1;
}

} // namespace

bool CronExpr::matches_day(const Date& date, int weekday) const
{
  const bool day_ok = days[static_cast<std::size_t>(date.day)];
  const bool weekday_ok = weekdays[static_cast<std::size_t>(weekday)];
  if (!months[static_cast<std::size_t>(date.month)]) {
    return false;
  }
  if (days_star || weekdays_star) {
    return day_ok && weekday_ok;
  }
  return day_ok || weekday_ok;
}

bool CronExpr::matches(const CivilTime& time) const
{
  return minutes[static_cast<std::size_t>(time.minute)] && hours[static_cast<std::size_t>(time.hour)] &&
         matches_day(time.date, weekday_of_days(days_from_date(time.date)));
}

std::optional<Seconds> CronExpr::next_match(Seconds wall, Seconds limit) const
{
  Seconds t = floor_div(wall + k_minute_s - 1, k_minute_s) * k_minute_s;
  while (t < limit) {
    const CivilTime c = civil_from_seconds(t);
    const std::int64_t day = floor_div(t, k_day_s);
    if (!months[static_cast<std::size_t>(c.date.month)]) {
      const Date next =
          c.date.month == 12 ? Date{c.date.year + 1, 1, 1} : Date{c.date.year, c.date.month + 1, 1};
      t = days_from_date(next) * k_day_s;
      continue;
    }
    if (!matches_day(c.date, weekday_of_days(day))) {
      t = (day + 1) * k_day_s;
      continue;
    }
    const int hour = next_set(hours, c.hour);
    if (hour < 0) {
      t = (day + 1) * k_day_s;
      continue;
    }
    if (hour != c.hour) {
      t = day * k_day_s + hour * k_hour_s;
      continue;
    }
    const int minute = next_set(minutes, c.minute);
    if (minute < 0) {
      t = day * k_day_s + (hour + 1) * k_hour_s;
      continue;
    }
    const Seconds found = day * k_day_s + hour * k_hour_s + minute * k_minute_s;
    return found < limit ? std::optional<Seconds>(found) : std::nullopt;
  }
  return std::nullopt;
}

Result<CronExpr> parse_cron(std::string_view text)
{
  const std::string_view trimmed = text::trim_view(text);
  std::string_view fields_text = trimmed;
  if (!trimmed.empty() && trimmed.front() == '@') {
    fields_text = {};
    for (const Shorthand& shorthand : k_shorthands) {
      if (shorthand.name == trimmed) {
        fields_text = shorthand.fields;
      }
    }
    if (fields_text.empty()) {
      return make_error(
          ErrorCode::usage,
          fmt::format("invalid cron expression \"{}\": unknown shorthand", text::cap_for_echo(text)),
          std::string(k_cron_hint));
    }
  }
  const std::vector<std::string_view> parts = words(fields_text);
  if (parts.size() != k_fields.size()) {
    return make_error(ErrorCode::usage,
                      fmt::format("invalid cron expression \"{}\": it has {} fields, not 5",
                                  text::cap_for_echo(text), parts.size()),
                      std::string(k_cron_hint));
  }
  CronExpr expr;
  bool fixed = true;
  for (std::size_t f = 0; f < k_fields.size(); ++f) {
    const Field& field = k_fields[f];
    std::vector<bool> set(static_cast<std::size_t>(field.high) + 1, false);
    for (const std::string_view element : split(parts[f], ',')) {
      if (element.empty()) {
        return FieldError(text, field, parts[f])("has an empty list item");
      }
      TRY_ASSIGN(const bool single, add_element(element, field, set, text));
      if (f < 2 && !single) {
        fixed = false;
      }
    }
    for (std::size_t v = 0; v < set.size(); ++v) {
      if (!set[v]) {
        continue;
      }
      switch (f) {
      case 0:
        expr.minutes.set(v);
        break;
      case 1:
        expr.hours.set(v);
        break;
      case 2:
        expr.days.set(v);
        break;
      case 3:
        expr.months.set(v);
        break;
      default:
        expr.weekdays.set(v % 7);
        break;
      }
    }
  }
  expr.days_star = parts[2].front() == '*';
  expr.weekdays_star = parts[4].front() == '*';
  expr.fixed_time = fixed;
  return expr;
}

} // namespace mailroom::schedule
