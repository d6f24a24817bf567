#!/usr/bin/env bash
# Fails when a file includes a project header from a layer it may not depend on
# (ARCHITECTURE.md). CMake links each folder only downward; this also catches header-only uses.
set -euo pipefail
cd "$(dirname "$0")/.."
# One pass: the file lists come from one git call each, and one perl process reads each file once
# and applies every check below to it (a loop of sed and grep per file took 30 s on a busy machine).
#
# The layer graph is written once, in cmake/layers.txt; CMake links by it too. A file may include
# its own layer and the layers below it; a folder with no line fails.
#
# cmd/ parses and prints: cmd/cli/ runs the command line (parser, help, completion, output, the
# terminal, the hook guard, the command table) and cmd/commands/ holds one file per command; the
# operations (internal/ops) make the mail decisions and write the results' JSON. cmd/cli/ never
# includes a command's header (only its tests may). A file of cmd/ (source or header) fails here
# when it
#  - calls a Provider method or takes the provider from its session (ctx/session.provider(),
#    providers.get()), or reaches a store's facets;
#  - names mail::Provider, or calls open_provider, outside the files that open a store for a
#    surface (store_openers);
#  - includes a provider's internals (beads/, sqlstore/, postgres/, exec/), except gc_mail.cpp,
#    which is the script side of the exec protocol; or the provider factory outside the files
#    that build the opener or list the schemes (factory_users);
#  - builds a JSON document itself, except the files listed, which hold what is not an
#    operation's result.
#
# internal/mcp and internal/http serve the same operations as the CLI and reach the store only
# through internal/ops: neither calls a Provider method, reaches a store's facets or arms its
# change signal itself; neither names mail::Provider or a ProviderSlot, takes a connection from the
# pool, or includes a store header (mail/provider.hpp, mail/facets, a provider's internals or
# the factory): a call runs on an ops::PooledSession, a watcher on an ops::ChangeWatch. No MCP tool
# writes a result's JSON document itself (the one JSON-RPC envelope and the isError result are
# the protocol's, not a result's).
#
# A narrow Provider (issue #30): mail::Provider has at most 12 virtual methods besides its
# destructor, and each facet interface (internal/mail/facets/*.hpp) at most 8.
store_openers=(
  app.cpp context.hpp # the command's store, opened on first use (AppDeps, ProviderSlot)
  init.cpp            # creates the store, then opens it
  pooled.cpp          # mcp's and serve's pooled connection per request
  gc_mail.cpp         # the exec protocol's script side answers over the store
)
factory_users=(
  app.cpp       # providers::make_provider is the opener run() passes
  app_texts.cpp # --version lists the compiled-in schemes
  gc_mail.cpp   # the store behind an exec provider's settings
)
json_exceptions=(
  app.cpp app_texts.cpp completion.cpp config.cpp hooks.cpp init.cpp # not mail operations
  mcp.cpp mcp_install.cpp # mcp --check-identity, mcp show/install/uninstall: not mail operations
  checks.cpp doctor.cpp   # hooks status and doctor: set-up checks, not mail operations
  support.cpp             # the warning line of every command
)
status=0
{
  # Test files (and their test_support headers) may include what they test and the testing helpers.
  git ls-files 'internal/*.cpp' 'internal/*.hpp' 'providers/*.cpp' 'providers/*.hpp' 'tests/testing/*.cpp' \
    'tests/testing/*.hpp' | grep -vE '(_test\.cpp|test_support\.hpp)$' | sed 's/^/layer /'
  git ls-files 'cmd/*.cpp' 'cmd/*.hpp' | grep -v '_test\.cpp$' | sed 's/^/cmd /'
  git ls-files 'internal/mcp/*.cpp' 'internal/mcp/*.hpp' 'internal/http/*.cpp' 'internal/http/*.hpp' |
    grep -v '_test\.cpp$' | sed 's/^/surface /'
} | OPENERS="${store_openers[*]}" FACTORY="${factory_users[*]}" JSON="${json_exceptions[*]}" perl -e '
  use strict;
  use warnings;
  my $layers = "cmake/layers.txt";
  my (%deps_of, %layer_of_folder, %allowed_of);
  open(my $graph, "<", $layers) or die "$layers: $!\n";
  while (<$graph>) {
    next if /^\s*(#|$)/;
    my ($name, $folder, @rest) = split;
    $layer_of_folder{$folder} = $name;
    $deps_of{$name} = [grep { !/^\[[A-Z_]*\]$/ } @rest];
  }
  sub closure { # layer -> itself and every layer below it
    my @todo = @_;
    my %seen;
    while (@todo) {
      my $l = shift @todo;
      next if $seen{$l}++;
      push @todo, @{$deps_of{$l} || []};
    }
    return \%seen;
  }
  my %openers = map { $_ => 1 } split " ", $ENV{OPENERS};
  my %factory = map { $_ => 1 } split " ", $ENV{FACTORY};
  my %json = map { $_ => 1 } split " ", $ENV{JSON};
  my $status = 0;
  # Prints "<line number>:<line>" for each line of @$lines matching $re; true when any did.
  sub matching {
    my ($lines, $re) = @_;
    my $found = 0;
    for my $i (0 .. $#$lines) {
      if ($lines->[$i] =~ $re) {
        print $i + 1, ":", $lines->[$i], "\n";
        $found = 1;
      }
    }
    return $found;
  }
  my $calls = qr/provider(->|\.)[a-z_]+\(|\.provider\(\)|->provider\(\)|providers\.get\(\)|session\.provider\(|facets\(\)/;
  while (my $entry = <STDIN>) {
    chomp $entry;
    my ($kind, $file) = split / /, $entry, 2;
    open(my $in, "<", $file) or die "$file: $!\n";
    chomp(my @lines = <$in>);
    close $in;
    (my $name = $file) =~ s{.*/}{};
    if ($kind eq "layer") {
      (my $dir = $file) =~ s{/[^/]*$}{};
      my $layer = $layer_of_folder{$dir};
      # A subfolder of a layer folder (internal/mail/facets) belongs to that layer; a folder right
      # under a top folder (providers/x) needs its own line.
      my $up = $dir;
      while (!defined $layer && $up =~ m{/.*/}) {
        $up =~ s{/[^/]*$}{};
        $layer = $layer_of_folder{$up};
      }
      if (!defined $layer) {
        print "$file: its folder $dir has no line in $layers\n";
        $status = 1;
        next;
      }
      my $ok = $allowed_of{$layer} ||= closure($layer);
      for (@lines) {
        next unless /^#include "([^"]*)"/;
        my $inc = $1;
        next unless $inc =~ m{^([^/]*)/};
        my $top = $1;
        next if $ok->{$top};
        print "$file includes \"$inc\": $layer may not depend on $top ($layers)\n";
        $status = 1;
      }
    } elsif ($kind eq "cmd") {
      if (matching(\@lines, $calls)) {
        print "$file calls the provider: call an operation in internal/ops instead\n";
        $status = 1;
      }
      if (!$openers{$name} && matching(\@lines, qr/\bmail::Provider\b|open_provider\(/)) {
        print "$file holds a provider: only the files that open the store may (call an operation instead)\n";
        $status = 1;
      }
      if ($name ne "gc_mail.cpp" && matching(\@lines, qr/^#include "(beads|sqlstore|postgres|exec)\//)) {
        print "$file includes a provider\x27s internals: cmd/ reaches the store only through internal/ops\n";
        $status = 1;
      }
      if (!$factory{$name} && matching(\@lines, qr/^#include "(providers\/)?factory\.hpp"/)) {
        print "$file includes the provider factory: only the files that open the store or list the schemes may\n";
        $status = 1;
      }
      if (!$json{$name} && matching(\@lines, qr/json_document\(\)|nlohmann::(ordered_)?json doc\b/)) {
        print "$file builds result JSON by hand: print the operation\x27s to_json instead\n";
        $status = 1;
      }
      if ($file =~ m{^cmd/cli/} && matching(\@lines, qr/^#include "commands\//)) {
        print "$file includes a command\x27s header: cmd/cli/ runs the commands through the command table\n";
        $status = 1;
      }
    } elsif ($kind eq "surface") {
      if (matching(\@lines, qr/$calls|mail::change_signal\(/)) {
        print "$file calls the store: call an operation in internal/ops instead\n";
        $status = 1;
      }
      if (matching(\@lines, qr/\bmail::Provider\b|\bProviderSlot\b|connections(\.|->)take\(|^#include "(mail\/provider\.hpp|mail\/facets|(providers\/)?(beads|sqlstore|postgres|exec|factory)[\/.])/)) {
        print "$file holds the store: run on an ops::PooledSession or ops::ChangeWatch instead\n";
        $status = 1;
      }
      if ($file =~ m{^internal/mcp/} && matching(\@lines, qr/json_document\(\)/)) {
        print "$file builds result JSON by hand: answer the operation\x27s to_json instead\n";
        $status = 1;
      }
    }
  }
  sub virtuals {
    my ($file, $skip) = @_;
    open(my $in, "<", $file) or die "$file: $!\n";
    my $n = grep { /^\s*virtual\s/ && !($skip && /$skip/) } <$in>;
    return $n;
  }
  my $provider = virtuals("internal/mail/provider.hpp", qr/~Provider/);
  if ($provider > 12) {
    print "internal/mail/provider.hpp: $provider virtual methods (at most 12): make the new ones a facet\n";
    $status = 1;
  }
  for my $file (sort glob "internal/mail/facets/*.hpp") {
    my $n = virtuals($file);
    if ($n > 8) {
      print "$file: $n virtual methods (at most 8 per facet): split the facet\n";
      $status = 1;
    }
  }
  exit $status;
' || status=1

# The unread rule and inbox order are written once (scripts/check-sql-rules.sh says where).
bash scripts/check-sql-rules.sh || status=1
exit $status
