# The portable edition (portable/ulid_portable.sql) against the native extension, in one database
# of a server of its own (UTF8): the same bytes, errors and generator rules, also under a hostile
# search_path. The checks are t/lib/PortableDifferential.pm's, which t/180_pg_tle.pl also runs
# against the pg_tle form.
#
#   - installs as a role that is not a superuser (only CREATE on the database), twice (re-runnable);
#     refused, nothing created, where a schema ulid_portable is another role's; every function SQL
#     or PL/pgSQL, SECURITY INVOKER, with the expected volatility, strictness and PARALLEL label;
#     usable by a role with no privileges of its own, and by one session switching roles;
#   - 100,000 random values plus the extremes: ulid_encode = native text, ulid_decode of the
#     canonical, lowercase and alias forms = native input, ulid_to_timestamp, ulid_min/ulid_max
#     and gen_ulid(ts)'s millisecond = native, all byte for byte;
#   - a list of bad strings (wrong length, bad and look-alike characters, a first character above 7)
#     and bad timestamps: the same SQLSTATE, message and DETAIL; also with a nondeterministic ICU
#     collation (skipped without ICU), in LATIN1, SQL_ASCII and EUC_JP databases, and with
#     standard_conforming_strings = off (refused on 19, which is checked instead);
#   - gen_ulid() strictly increasing within a session across ROLLBACK (also of the session's first
#     transaction), ROLLBACK TO SAVEPOINT, errors, exception blocks, DISCARD TEMP/SEQUENCES/ALL; a
#     first call in a read-only transaction is 25006; the 80-bit carry, the 2^63 step and the
#     overflow (54000, native wording, state unchanged) from planted states; the limits
#     docs/portable.md states; unique and per-session increasing across 8 concurrent pgbench
#     clients;
#   - public ids: without pgcrypto, ulid_encrypt/ulid_decrypt raise 0A000 naming it and the rest
#     works; with pgcrypto in a schema of its own, FIPS-197's AES-128 and AES-256 vectors from both
#     editions, 10,000 random ids x keys byte-identical to the native functions (both directions),
#     round trips, a wrong key, keys of bad lengths (the native 22023), NULLs; a look-alike
#     encrypt() first on the path, or made a member of pgcrypto, is not called; pgcrypto moved to
#     another schema is found;
#   - a search_path whose first schema plants look-alikes of every pg_catalog function and operator
#     the file names: none is ever called.
# Needs the native extension and pgcrypto installed for the server (scripts/test installs the tree
# into every server before its TAP suites). About 30 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use PortableDifferential;

my $started = time;
my $su      = getpwuid($<);    # the bootstrap superuser: the OS user that ran initdb

my $node = PostgreSQL::Test::Cluster->new('portable');
# UTF8 whatever the environment's locale: the bad strings hold multibyte characters
$node->init(extra => [ '--encoding=UTF8', '--locale=C' ]);
must($node->start(fail_ok => 1), 'server starts');
must(node_sql_ok($node, 'CREATE DATABASE differential'), 'a database for the checks');

PortableDifferential::run(
	node => $node,
	db   => 'differential',
	su   => $su,
	form => 'loose',
	work => PostgreSQL::Test::Utils::tempdir);

note 'portable_differential took ' . (time - $started) . ' s';
$node->stop;

done_testing();
