#include "mail/archive_filter.hpp"

#include "text/strings.hpp"

namespace mailroom::mail {

bool ArchiveFilter::matches(const Message& message) const
{
  if (from && message.from != *from) {
    return false;
  }
  if (empty_body && message.body_bytes() != 0) {
    return false;
  }
  if (subject_prefix || subject_contains) {
    const std::string subject = text::ascii_lower(message.subject);
    if (subject_prefix && !subject.starts_with(text::ascii_lower(*subject_prefix))) {
      return false;
    }
    if (subject_contains && subject.find(text::ascii_lower(*subject_contains)) == std::string::npos) {
      return false;
    }
  }
  return true;
}

} // namespace mailroom::mail
