# Major upgrades by logical replication: the path where pg_upgrade cannot go (from Debian's
# packaged 15 to an upstream-built major pg_upgrade fails for any table: t/210_pg_upgrade.pl),
# and one with no downtime beyond the cut-over. docs/upgrading.md describes the procedure this
# suite runs, with the recipes test/suites/recipes/upgrade_*.{sql,sh} verbatim:
#   1. the old server runs with wal_level = logical and publishes the tables (upgrade_publish.sql);
#   2. the new server gets the schema from the old one (upgrade_schema.sh: the new major's pg_dump
#      --schema-only --no-publications --no-subscriptions, restored with psql: CREATE EXTENSION
#      ulid, the table with its DEFAULT gen_ulid());
#   3. CREATE SUBSCRIPTION on the new server (upgrade_subscribe.sql; text, or binary = true) while
#      the application keeps writing to the old one: before, during and after the initial copy;
#   4. cut-over: the old server refuses writes (upgrade_cutover.sql: default_transaction_read_only,
#      25006), the new one catches up to the old one's last WAL position, the rows are checked
#      identical, the subscription is dropped (upgrade_finish.sql; with it the slot on the old
#      server goes), the application moves; a ulid key needs no sequence to be carried over: the
#      new server's gen_ulid() keys sort after every replicated one (as long as its clock is not
#      behind the old one's).
# Runs: 15 -> 18 in text and in binary mode, 13 -> 17 in text mode and with binary = true asked
# for, 14 -> 16 and 16 -> 18 in binary mode (when 14 and 16 are built): what the publisher's log shows of the
# replication (log_replication_commands, log_statement = all) is checked and printed — a 13
# publisher gets no binary option (the subscriber sends it only to 14+), and the initial copy is
# binary only from a 16+ publisher (COPY ... WITH (FORMAT binary)); before 16 it is text even with
# binary = true, then the changes stream in binary. The table: ulid primary key DEFAULT gen_ulid(),
# ulid[] (NULL arrays, NULL elements, empty), 25,000 rows before the subscription; the new server
# holds other objects first, so the ulid type's OID differs from the old server's (printed), as
# it would on a real new server. Checks per upgrade: the initial copy and the writes during and
# after it arrive (rows identical: COPY text digest and the 16 bytes of every ulid, array elements
# included), no apply or sync error (pg_stat_subscription_stats), writes refused on the old
# server after the cut-over, the subscription and its slot gone, new keys above every replicated one.
#
# Once per CI run: in the PostgreSQL 18 pass (plan skip_all in the others, or when 13, 17 or 18 is
# not built, or Debian's 15 is not installed); ULID_LOGICAL_UPGRADE_ANY_PASS=1 runs it in another
# pass on the host (the framework is then that major's; one without install_path skips). Each server
# is a node of its own install (PostgreSQL::Test::Cluster->new(..., install_path => ...)), as in
# t/210_pg_upgrade.pl: 13 is only ever a side, never the framework. Debian's 15 is
# /usr/lib/postgresql/15 (ULID_DEBIAN_PG15_BINDIR: another copy's bin directory). And in the pass of
# 19, inside the sid chroot (scripts/sid-chroot): 18 -> 19 in text and in binary mode between
# Debian's packages of both there, and 15 -> 19 in text and in binary mode from Debian 12's 15 on
# the host: a 19 server runs only inside the chroot and the host's 15 only outside it, and the user
# postgres this file runs as can neither reach the host's root directory nor chroot(2) back into
# it, so scripts/test starts the two publishers of 15 on the host as root before the suites
# (host15_up: their sockets and logs in a directory both sides see, ULID_HOST15) and stops them
# after; this file uses them as nodes it did not start (UlidServers::HostServer), and skips 15 ->
# 19, saying why, without them.
# This file runs as the user postgres and installs nothing: every server it uses must have this
# tree's extension installed (one check per server, and the reason when not). scripts/test sees to
# it: each major's pass installs this tree into its own server, the pass of 18 waits for every other
# pass on the host (Debian's 15's included), and in the sid chroot the pass of 19 installs it into
# Debian's 18 there too.
# Waiting for replication is bounded (ULID_REPL_WAIT seconds, default 120): a limit, not an assertion.
# About 3.5 minutes on the host (six upgrades).

use strict;
use warnings;

use Digest::MD5 qw(md5_hex);
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use IPC::Run;
use POSIX ();
use Time::HiRes qw(sleep);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;
use UlidServers;

my $started = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my ($this) = pg_config_value('--version', $pg_config) =~ /^PostgreSQL (\d+)/;
$this //= 'unknown';
my $in_chroot = ($ENV{ULID_IN_CHROOT} // '') eq '1';
my $WAIT = $ENV{ULID_REPL_WAIT} || 120;
my $ROWS = 25000;

# %prefix: the install of each major (bin/ under it); 15 is Debian's
my (%prefix, $host15_why, @missing_14_16, %host15);
if ($in_chroot)
{
	# the pass of 19, in the sid chroot (scripts/sid-chroot): Debian's 18 and 19 packages there
	%prefix = %{ chroot_servers($this, 'pg_config') };
	# Debian 12's 15 runs on the host only: scripts/test starts two of its servers there as root
	# (host15_up), and this file reaches them from the chroot
	my $servers;
	($servers, $host15_why) = host15_servers();
	%host15 = %$servers;
}
else
{
	my ($host, $missing) = host_servers();
	%prefix        = %$host;
	@missing_14_16 = @$missing;
	my $bin15 = $ENV{ULID_DEBIAN_PG15_BINDIR} || '/usr/lib/postgresql/15/bin';
	plan skip_all =>
	  "Debian's PostgreSQL 15 is not installed (no $bin15/pg_config)"
	  unless -x "$bin15/pg_config";
	$prefix{15} = dirname($bin15);
	plan skip_all =>
	  "runs once, in the PostgreSQL 18 pass (this pass: $this; ULID_LOGICAL_UPGRADE_ANY_PASS=1 runs it anyway)"
	  if $this ne '18' && ($ENV{ULID_LOGICAL_UPGRADE_ANY_PASS} // '') ne '1';
	plan skip_all =>
	  "the framework of PostgreSQL $this has no install_path (a node of another major's server)"
	  unless PostgreSQL::Test::Cluster->can('install_path');
}
my @majors = sort { $a <=> $b } keys %prefix;
my $RECIPES = abs_path('test/suites/recipes');
my $work = PostgreSQL::Test::Utils::tempdir;

# ---------------------------------------------------------------------------------------------
# every server used has this tree's extension (what the bash suite built and installed itself)
my %tree_file = extension_files($work);
check_installed(\%tree_file, \%prefix, $in_chroot);

my $SCHEMA_SQL = "
SET client_min_messages = warning;
CREATE EXTENSION ulid;
CREATE TABLE items (
    id   ulid PRIMARY KEY DEFAULT gen_ulid(),
    refs ulid[],
    n    int NOT NULL,
    note text NOT NULL
);
INSERT INTO items (refs, n, note)
SELECT CASE g % 4 WHEN 0 THEN NULL WHEN 1 THEN '{}'
                  WHEN 2 THEN ARRAY[gen_random_ulid(), NULL, gen_ulid()] ELSE ARRAY[gen_random_ulid()] END,
       g, 'initial ' || g
FROM generate_series(1, $ROWS) g;";
# one batch of the application's writes on the old server: 20 inserts, an update and a delete by key
my $WRITE_SQL = "
INSERT INTO items (refs, n, note)
SELECT ARRAY[gen_random_ulid(), NULL], -g, 'written during the upgrade' FROM generate_series(1, 20) g;
UPDATE items SET note = 'updated during the upgrade', refs = ARRAY[gen_ulid()]
 WHERE id = (SELECT id FROM items WHERE n > 0 ORDER BY id OFFSET (random() * 1000)::int LIMIT 1);
DELETE FROM items WHERE id = (SELECT id FROM items WHERE n > 0 ORDER BY id DESC OFFSET (random() * 1000)::int LIMIT 1);";
# digest: row count, md5 of the text COPY in key order, md5 of the 16 bytes of every ulid (arrays'
# elements included, in order), the same on every major
my $DIGEST_SQL = q{
SELECT count(*) FROM items;
COPY (SELECT * FROM items ORDER BY id) TO STDOUT;
SELECT md5(string_agg(ulid_send(id) || coalesce((SELECT string_agg(coalesce(ulid_send(e), '\x00'), '' ORDER BY o)
                                                 FROM unnest(refs) WITH ORDINALITY u(e, o)), '\x01'), '' ORDER BY id))
  FROM items;};
my $COUNTS_SQL =
  "SELECT count(*) || ' rows, ' || count(*) FILTER (WHERE n < 0) || ' written during the upgrade, ' ||
          count(*) FILTER (WHERE note LIKE 'updated%') || ' updated' FROM items";

my (%node, %major_of);

# query(NAME, SQL): rows of database app (one session, every result); on an error, the error as a
# diagnostic and '' as the output, so the check that reads it fails
sub query
{
	my ($name, $sql) = @_;
	my ($rc, $out, $err) = $node{$name}->psql('app', $sql);
	if ($rc != 0)
	{
		diag("$name: query failed: $err");
		return '';
	}
	return $out;
}

# q_ok(NAME, SQL): true when SQL ran in app without an error (the error as a diagnostic otherwise)
sub q_ok
{
	my ($name, $sql) = @_;
	my ($rc, $out, $err) = $node{$name}->psql('app', $sql);
	diag("$name: query failed: $err") if $rc != 0;
	return $rc == 0;
}

# psql_file(NAME, FILE, VAR => VALUE...): psql -f FILE in app (NOTICEs off, ON_ERROR_STOP), with the
# psql variables given; its exit status, output and error text
sub psql_file
{
	my ($name, $file, %var) = @_;
	local $ENV{PGOPTIONS} = '-c client_min_messages=warning';
	return $node{$name}->psql(
		'app', '',
		extra_params =>
		  [ (map { ('-v', "$_=$var{$_}") } sort keys %var), '-f', $file ]);
}

# start_server(NAME, MAJOR, CONF...): a node of MAJOR's server, the postgresql.conf lines, started,
# with database app; true when it worked
sub start_server
{
	my ($name, $major, @conf) = @_;
	$major_of{$name} = $major;
	my $node = $node{$name} =
	  PostgreSQL::Test::Cluster->new($name, install_path => $prefix{$major});
	$node->init(extra => [ '--locale=C.UTF-8', '--encoding=UTF8' ]);
	$node->append_conf('postgresql.conf', join("\n", @conf, ''));
	return $node->start(fail_ok => 1)
	  && $node->psql('postgres', 'CREATE DATABASE app') == 0;
}

# host_server(NAME, MODE): the host's 15 server for MODE that scripts/test started (%host15), as a
# node reached with the chroot's 19 client programs, with database app; true when it worked
sub host_server
{
	my ($name, $mode) = @_;
	my $h = $host15{$mode};
	$major_of{$name} = 15;
	$node{$name} = UlidServers::HostServer->new($name, $prefix{$this}, $h->{port}, $h->{sock}, $h->{log});
	return $node{$name}->psql('postgres', 'CREATE DATABASE app') == 0;
}

# digest(NAME): md5 of DIGEST_SQL's output ('' when it failed)
sub digest
{
	my ($name) = @_;
	my $out = query($name, $DIGEST_SQL);
	return $out eq '' ? '' : md5_hex($out);
}

# wait_for(NAME, SQL): until SQL returns t in app (at most WAIT seconds); true when it did
sub wait_for
{
	my ($name, $sql) = @_;
	my $t0 = time;
	while (1)
	{
		my ($rc, $out) = $node{$name}->psql('app', $sql);
		return 1 if $rc == 0 && $out eq 't';
		return 0 if time - $t0 >= $WAIT;
		sleep 0.2;
	}
}

# the writer's process, while one runs: stopped on every way out (a BAIL_OUT too), before the
# framework's END block stops the nodes
my $writer_pid;

END
{
	if ($writer_pid)
	{
		kill 'TERM', $writer_pid;
		waitpid $writer_pid, 0;
	}
}

# The application: a child process writing batches to NAME until $work/stop exists; the number of
# batches done so far is in $work/batches, failures in $work/writer.err.
sub start_writer
{
	my ($name) = @_;
	my $pid = fork;
	BAIL_OUT("fork: $!") unless defined $pid;
	if ($pid)
	{
		$writer_pid = $pid;
		return $pid;
	}
	my $i = 0;
	while (!-e "$work/stop")
	{
		my ($rc, $out, $err) = $node{$name}->psql('app', $WRITE_SQL);
		if ($rc != 0 || $err ne '')
		{
			open my $fh, '>>', "$work/writer.err";
			print $fh "$err\n" if $err ne '';
			print $fh "batch $i failed\n" if $rc != 0;
			close $fh;
		}
		$i++;
		open my $fh, '>', "$work/batches.new";
		print $fh "$i\n";
		close $fh;
		rename "$work/batches.new", "$work/batches";    # (read while written)
	}
	POSIX::_exit(0);    # (not the parent's END blocks: they stop the nodes)
}

sub batches
{
	return 0 unless -f "$work/batches";
	my $n = slurp_file("$work/batches");
	chomp $n;
	return $n || 0;
}

sub wait_batches
{
	my ($want) = @_;
	sleep 0.1 until batches() >= $want;
	return;
}

# upgrade(OLD, NEW, MODE): the whole procedure from an OLD major server to a NEW one, MODE text|binary
sub upgrade
{
	my ($old, $new, $mode) = @_;
	my $label = "$old -> $new, $mode";
	my $t0 = time;
	my ($o, $n) = ("old${old}_${new}_$mode", "new${new}_${old}_$mode");
	note "==== $label ====";
	unlink "$work/stop", "$work/batches", "$work/writer.err";
	must(
		$in_chroot && $old == 15
		? host_server($o, $mode)
		: start_server(
			$o, $old,
			'wal_level = logical',
			'max_wal_senders = 10',
			'max_replication_slots = 10',
			'log_replication_commands = on',
			'log_statement = all'),
		"$label: old server ($old, wal_level = logical) with database app");
	must(q_ok($o, $SCHEMA_SQL),
		"$label: old: CREATE EXTENSION ulid, items with $ROWS rows (ulid key DEFAULT gen_ulid(), ulid[])"
	);
	my ($rc, $out, $err) = psql_file($o, "$RECIPES/upgrade_publish.sql");
	diag($err) if $rc != 0;
	must($rc == 0, "$label: old: upgrade_publish.sql");
	must(start_server($n, $new, 'wal_retrieve_retry_interval = 200ms'),
		"$label: new server ($new) with database app");
	must(
		q_ok(
			$n,
			'CREATE TABLE other_app_table (k int); CREATE TYPE other_app_type AS (a int, b text)'),
		"$label: new: other objects first (so that the ulid type's OID differs)");

	# Debian's 15 (15.20-0+deb12u1) stores a pg_attver option on every column (what also stops
	# pg_upgrade from it): an upstream pg_dump writes it out and an upstream server refuses it
	my $raw = "$work/raw-$o.sql";
	my ($drc, $dout) = run_cmd(
		"$prefix{$new}/bin/pg_dump", '--schema-only',
		'--no-publications', '--no-subscriptions',
		"--file=$raw", $node{$o}->connstr('app'));
	diag($dout) if $drc != 0;
	my $dump = -f $raw ? slurp_file($raw) : '';
	my @attver =
	  $dump =~ /^ALTER TABLE ONLY .* ALTER COLUMN .* SET \(pg_attver=[0-9]*\);$/mg;
	if ($old == 15)
	{
		# Debian's 15; version-gates: not a gate
		cmp_num(scalar(@attver), '==', 4,
			"$label: pg_dump $new of Debian's 15: columns with a pg_attver option");
		note "$label: e.g. " . (($dump =~ /^(.*pg_attver.*)$/m)[0] // '(none)');
		$node{$n}->psql('postgres', 'CREATE DATABASE scratch');
		my (undef, undef, $serr) = $node{$n}->psql(
			'scratch', '',
			on_error_stop => 0,
			extra_params => [ '-f', $raw ]);
		like(
			$serr,
			qr/\Qunrecognized parameter "pg_attver"\E/,
			"$label: ... which the new server refuses as it is (tried in a scratch database)");
		$node{$n}->psql('postgres', 'DROP DATABASE scratch');
	}
	else
	{
		cmp_num(scalar(@attver), '==', 0,
			"$label: pg_dump $new of upstream $old: pg_attver options");
	}
	# the recipe, in a directory of its own, with the new major's programs first on PATH
	my $dir = "$work/schema-$o";
	mkdir $dir;
	my $sout = '';
	{
		local $ENV{OLD_DB} = $node{$o}->connstr('app');
		local $ENV{NEW_DB} = $node{$n}->connstr('app');
		local $ENV{PATH}   = "$prefix{$new}/bin:$ENV{PATH}";
		IPC::Run::run([ 'bash', '-euo', 'pipefail', "$RECIPES/upgrade_schema.sh" ],
			'<', \undef, '>&', \$sout, init => sub { chdir $dir or die "chdir $dir: $!" });
	}
	my $src = $? >> 8;
	cmp_num($src, '==', 0,
		"$label: upgrade_schema.sh (pg_dump $new, pg_attver lines out, psql): exit status");
	is($sout, '', "$label: ... its output (no error, no warning)");
	my $schema = -f "$dir/schema.sql" ? slurp_file("$dir/schema.sql") : 'pg_attver (no schema.sql)';
	cmp_num(scalar(() = $schema =~ /pg_attver/g),
		'==', 0, "$label: ... pg_attver lines left in its schema.sql");
	note "$label: ulid type OID on the old server "
	  . query($o, "SELECT 'ulid'::regtype::oid")
	  . ', on the new one '
	  . query($n, "SELECT 'ulid'::regtype::oid");
	is( query($n,
			"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'items'::regclass"
		),
		'gen_ulid()',
		"$label: new: items' id default");

	my $wpid = start_writer($o);
	wait_batches(3);
	my $before = batches();
	my $binary = $mode eq 'binary' ? 'true' : 'false';
	($rc, $out, $err) = psql_file(
		$n, "$RECIPES/upgrade_subscribe.sql",
		old => $node{$o}->connstr('app'),
		binary => $binary);
	diag($err) if $rc != 0;
	must($rc == 0,
		"$label: new: upgrade_subscribe.sql with binary=$binary, while the old one takes writes");
	ok( wait_for(
			$n,
			"SELECT count(*) = 1 AND bool_and(srsubstate = 'r') FROM pg_subscription_rel"),
		"$label: the initial copy is done (table state ready)"
	) or diag("within ${WAIT}s: " . query($n, 'SELECT srsubstate FROM pg_subscription_rel'));
	note "$label: initial copy done after " . (time - $t0) . ' s';
	my $ready = batches();
	wait_batches($ready + 10);    # writes after the initial copy too
	open my $stop, '>', "$work/stop";
	close $stop;
	waitpid $wpid, 0;
	undef $writer_pid;
	my $after = batches();
	note "$label: write batches (20 inserts, 1 update, 1 delete each): $before before CREATE SUBSCRIPTION, "
	  . ($ready - $before)
	  . ' until the initial copy was done, '
	  . ($after - $ready)
	  . ' after it';
	cmp_num($after - $ready, '>=', 10, "$label: write batches after the initial copy");
	my $werr = -f "$work/writer.err" ? slurp_file("$work/writer.err") : '';
	cmp_num(scalar(() = $werr =~ /failed/g), '==', 0, "$label: failed write batches");
	diag(join("\n", map { "    writer: $_" } (split /\n/, $werr)[ 0 .. 9 ])) if $werr ne '';

	# cut-over: the old server refuses writes; the new one catches up to its last WAL position
	($rc, $out, $err) = $node{$o}->psql('app', '', extra_params => [ '-f', "$RECIPES/upgrade_cutover.sql" ]);
	my $lsn = (split /\n/, $out)[-1] // '';
	like($lsn, qr{^[0-9A-F]+/[0-9A-F]+$},
		"$label: old: upgrade_cutover.sql (read-only from now on; the WAL position: $lsn)");
	sleep 0.5;
	(undef, undef, $err) = $node{$o}->psql('app',
		"\\set VERBOSITY verbose\nINSERT INTO items (n, note) VALUES (0, 'late')");
	like($err, qr/25006/, "$label: old: a write after the cut-over is refused (25006)");
	ok( wait_for(
			$o,
			"SELECT confirmed_flush_lsn >= '$lsn' FROM pg_replication_slots WHERE slot_name = 'upgrade'"
		),
		"$label: the new server confirmed the old one's last WAL position ($lsn, within ${WAIT}s)");
	my $want = query($o, $COUNTS_SQL);
	is(query($n, $COUNTS_SQL), $want, "$label: new: rows ($want)");
	my ($dwant, $dgot) = (digest($o), digest($n));
	ok($dwant ne '' && $dwant eq $dgot,
		"$label: new: rows identical to the old server's (COPY text, and the 16 bytes of every ulid and ulid[] element)"
	) or diag("new $dgot, old $dwant");
	is( query($n,
			"SELECT sum(e.value::bigint) FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e
              WHERE e.key LIKE '%error_count' AND s.subname = 'upgrade'"
		),
		'0',
		"$label: new: apply and sync errors (pg_stat_subscription_stats)");    # 19: two sync counts

	# what the old server's log shows of the replication
	my $log = slurp_file($node{$o}->logfile);
	my ($slot_cmd) = $log =~ /(START_REPLICATION SLOT "upgrade".*)/;
	my ($copy_cmd) = $log =~ /(statement: COPY .*items.* TO STDOUT.*)/;
	$_ //= '' for $slot_cmd, $copy_cmd;
	note "$label: old server's log: $slot_cmd";
	note "$label: old server's log: $copy_cmd";
	if ($mode eq 'binary' && $old >= 14)
	{
		like($slot_cmd, qr/\Qbinary 'true'\E/,
			"$label: the changes stream in binary (START_REPLICATION with binary 'true')");
	}
	else
	{
		unlike($slot_cmd, qr/binary/,
			"$label: the changes stream in text (START_REPLICATION without binary"
			  . ($mode eq 'binary' ? '; the subscriber sends it only to a 14+ publisher' : '')
			  . ')');
		like($slot_cmd, qr/START_REPLICATION/,
			"$label: ... (the START_REPLICATION command was logged)");
	}
	if ($mode eq 'binary' && $old >= 16)
	{
		like($copy_cmd, qr/FORMAT binary/, "$label: the initial copy is binary (a 16+ publisher)");
	}
	else
	{
		unlike($copy_cmd, qr/binary/,
			"$label: the initial copy is text"
			  . ($mode eq 'binary' ? ' (binary only from a 16+ publisher)' : ''));
		like($copy_cmd, qr/TO STDOUT/, "$label: ... (the COPY command was logged)");
	}

	# the application moves: the subscription goes, with its slot on the old server
	my $top = query($n, 'SELECT max(id) FROM items');
	($rc, $out, $err) = psql_file($n, "$RECIPES/upgrade_finish.sql");
	diag($err) if $rc != 0;
	must($rc == 0, "$label: new: upgrade_finish.sql (DROP SUBSCRIPTION)");
	cmp_num(query($o, 'SELECT count(*) FROM pg_replication_slots'),
		'==', 0, "$label: old: replication slots left");
	must(
		q_ok(
			$n,
			"INSERT INTO items (n, note) SELECT g, 'after the cut-over' FROM generate_series(1, 1000) g"
		),
		"$label: new: 1000 rows with DEFAULT gen_ulid() after the cut-over");
	cmp_num(
		query($n,
			"SELECT count(*) FROM items WHERE note = 'after the cut-over' AND id <= '$top'"),
		'==', 0,
		"$label: new: keys made after the cut-over not above every replicated key ($top)");
	cmp_num(
		query($n,
			"SELECT count(*) FROM items WHERE note <> 'after the cut-over'
                 AND id >= (SELECT min(id) FROM items WHERE note = 'after the cut-over')"),
		'==', 0,
		"$label: new: replicated keys at or above the first key made after it");
	$node{$o}->stop;
	$node{$n}->stop;
	note "$label: took " . (time - $t0) . ' s';
	return;
}

if ($in_chroot)
{
	upgrade(18, 19, 'text');
	upgrade(18, 19, 'binary');
	if ($host15_why ne '')
	{
	  SKIP:
		{
			# (30 checks in text mode and 29 in binary mode, and the host's 15's install)
			skip "15 -> 19 (text and binary): $host15_why", 61;
		}
	}
	else
	{
		# the host's 15 has this tree's extension (its pass installed it): the control file and
		# every script, read by its server from its own extension directory
		my @files = sort keys %tree_file;
		my $want = join("\n", map { "$_|" . md5_hex($tree_file{$_}) } @files);
		my $values = join(', ', map { "('$_')" } @files);
		for my $mode ('text', 'binary')
		{
			my $probe = "probe15_$mode";
			$node{$probe} = UlidServers::HostServer->new($probe, $prefix{$this}, $host15{$mode}{port},
				$host15{$mode}{sock}, $host15{$mode}{log});
			my ($rc, $out, $err) = $node{$probe}->psql('postgres',
				"SELECT f, md5(pg_catalog.pg_read_file(d || '/extension/' || f))
				   FROM (VALUES $values) v(f),
				        (SELECT setting FROM pg_catalog.pg_config WHERE name = 'SHAREDIR') s(d)
				  ORDER BY f COLLATE \"C\"");
			diag("the host's 15 ($mode): $err") if $rc != 0;
			is($out, $want,
				"the host's PostgreSQL 15 ($mode) has this tree's extension (" . scalar(@files) . ' files, read by its server)');
		}
		upgrade(15, 19, 'text');
		upgrade(15, 19, 'binary');
	}
	note 'logical upgrade took ' . (time - $started) . ' s';
	done_testing();
	exit 0;
}

upgrade(15, 18, 'text');
upgrade(15, 18, 'binary');
upgrade(13, 17, 'text');
upgrade(13, 17, 'binary');
if (@missing_14_16)
{
	note '14 -> 16 and 16 -> 18 (binary) not run: ' . join('; ', @missing_14_16);
}
else
{
	upgrade(14, 16, 'binary');
	upgrade(16, 18, 'binary');
}

note 'logical upgrade took ' . (time - $started) . ' s';
done_testing();
