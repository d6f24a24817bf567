#!/usr/bin/env bash
# Fails when the unread rule or inbox order is spelled out in SQL anywhere but
# providers/sqlstore/sql_rules.hpp (MR_SQL_OPEN, MR_SQL_UNREAD, MR_SQL_UNREAD_BUT_EXPIRED,
# MR_SQL_INBOX_ORDER; a released schema script keeps its own text),
# or inbox order is compared in C++ anywhere but internal/mail/message.cpp (mail::inbox_before).
# Statements are read with their whitespace folded, so a rule split over lines is found too.
# Run by scripts/check-layering.sh (CTest `layering`, part of `make check`).
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files --cached --others --exclude-standard 'internal/*.cpp' 'internal/*.hpp' \
    'providers/*.cpp' 'providers/*.hpp' 'providers/*.inl' |
  grep -v -e '_test\.cpp$' |
  sort -u | xargs perl -0777 -ne '
    next if $ARGV eq "providers/sqlstore/sql_rules.hpp";
    my $t = $_;
    $t =~ s/"\s*\\?\s*\n\s*"//g;   # string literals continued on the next line
    $t =~ s/\s+/ /g;
    my @found;
    push @found, "the unread rule" if $t =~ /read_at IS NULL[^;"]{0,90}?expires_at IS NULL OR/
      || $t =~ /expires_at IS NULL OR \S*expires_at > \S+?\)? AS unread/
      || $t =~ /expires_at <= \S+ AND \S*read_at IS NULL/
      || ($ARGV !~ m{/schema_sql\w*\.hpp$} && $t =~ /read_at IS NULL AND \S*archived_at IS NULL/);
    push @found, "inbox order (SQL)" if $t =~ /ORDER BY (\w+\.)?priority, (\w+\.)?created_at/;
    push @found, "inbox order (C++)" if $ARGV ne "internal/mail/message.cpp"
      && $t =~ /\w+\.priority (!=|<|>) \w+\.priority/;
    for my $what (@found) {
      print "$ARGV spells out $what: use providers/sqlstore/sql_rules.hpp or mail::inbox_before\n";
      $bad = 1;
    }
    END { exit($bad ? 1 : 0) }'
