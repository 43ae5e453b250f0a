# Clients: the real drivers and ORMs against a server of its own, each running the recipes in
# clients/ (docs/clients-*.md quote them; test/suites/packaging.pl checks the quotes).
#
# For each driver (psycopg 3, psycopg2, asyncpg, pgjdbc, pgx v4, ruby-pg, node-postgres, tokio-postgres):
# gen_ulid() as the 26-character string in text mode and, after the recipe's one-time registration, in the
# driver's binary mode (where it has one); ulid parameters as strings, and as 16 bytes or the
# driver's uuid type where it sends binary; ulid[] both ways; NULL both ways; COPY text and binary
# (where the driver offers it; asyncpg's copy_records_to_table through the docs' codec); a time
# range with ulid_min/ulid_max bounds as parameters; a bad string as the driver's error with SQLSTATE
# 22P02. For each ORM (SQLAlchemy, Django with its migration, ActiveRecord with its migration and the
# schema.rb round trip, Drizzle with drizzle-kit's migration, TypeORM and Sequelize with their schema
# sync, Kysely with its Migrator, Prisma Client with the pg driver adapter and the recipe's migration):
# the schema from the ORM with a ulid primary key defaulting to gen_ulid() on the server, inserts,
# reads, a foreign key or parent column, ulid[], a bulk insert, a time range and a bad string. Prisma's
# CLI downloads its schema engine first: the check shows where that stops it offline.
# Each program prints its own ok/FAIL lines: each is a test here (passing or failing as the line
# says), and each program is one test more, failing when the program exits non-zero, prints a FAIL
# or prints no ok at all.
#
# The server listens on 127.0.0.1 (pgjdbc connects by host and port); every program gets the PG*
# environment of it (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE) and PGOPTIONS with a
# search_path of a schema of its own (client_NAME, made fresh), and a time limit
# (ULID_CLIENT_TIMEOUT, 180 s: a bound, not an assertion). The whole file is skipped (plan
# skip_all, naming what is missing) without the Debian packages of ULID_CLIENT_PACKAGES
# (scripts/lib/common.sh; scripts/test installs them, as root, for the clients tier) or without npm
# on PATH. The npm registry's packages of clients/node/package-lock.json are installed once into a
# cache outside the checkout (ULID_CLIENTS_CACHE, default /var/cache/ulid-clients, which
# scripts/test, as root, hands to the user postgres the TAP suites run as; where the cache is not
# writable, ~/.cache/ulid-clients); Go's build cache and the Rust build live there too: built once,
# reused by every major. Any server major works; CI runs it on Debian's 15 alone (the clients tier
# runs on the host's servers only, not in 19's sid chroot: ULID_HOST_ONLY_TIERS, scripts/lib/common.sh).
# Tier: clients (drivers and ORMs (scripts/test --tier clients))

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Cwd qw(getcwd);
use Digest::SHA;
use Fcntl qw(:flock);
use File::Path qw(make_path remove_tree);
use File::Temp ();
use FindBin;
use lib "$FindBin::RealBin/lib";
use UlidTest;

my $started = time;

# What the programs need: the Debian packages of ULID_CLIENT_PACKAGES (dpkg's view, as
# scripts/lib/common.sh's ulid_missing_packages sees it) and npm on PATH (Debian's where no other)
my @missing;
{
	my ($rc, $out) = run_cmd('bash', '-c',
		'source scripts/lib/common.sh && ulid_missing_packages "${ULID_CLIENT_PACKAGES[@]}"');
	if ($rc != 0)
	{
		push @missing, "the package check (ulid_missing_packages of scripts/lib/common.sh: $out)";
	}
	else
	{
		push @missing, split /\n/, $out;
	}
	my ($npm_rc) = run_cmd('bash', '-c', 'command -v npm');
	push @missing, 'npm (no npm on PATH; Debian: npm)' if $npm_rc != 0;
}
plan skip_all => 'the clients\' toolchains are not all installed; missing: '
  . join(', ', @missing)
  . ' (ULID_CLIENT_PACKAGES in scripts/lib/common.sh; scripts/test --tier clients installs them as root)'
  if @missing;

my $root = getcwd();
my $work = PostgreSQL::Test::Utils::tempdir;
my $client_timeout = $ENV{ULID_CLIENT_TIMEOUT} // 180;  # seconds per program: a bound, not an assertion
my $py = '/usr/bin/python3';    # Debian's python3, which has Debian's python3-* modules
my $jdbc_jar = '/usr/share/java/postgresql.jar';

# the cache: ULID_CLIENTS_CACHE (default /var/cache/ulid-clients) where this user can write it and
# what it holds already, else ~/.cache/ulid-clients
sub cache_writable
{
	my ($dir) = @_;
	make_path($dir, { error => \my $err });
	return 0 unless -d $dir && -w $dir;
	for my $sub (grep { -d } map { "$dir/$_" } qw(npm npm-cache go-build rust rust/target rust/home))
	{
		return 0 unless -w $sub;
	}
	return 1;
}
my $cache = $ENV{ULID_CLIENTS_CACHE} // '/var/cache/ulid-clients';
if (!cache_writable($cache))
{
	my $home_cache = ($ENV{XDG_CACHE_HOME} // "$ENV{HOME}/.cache") . '/ulid-clients';
	note "cache $cache: not writable by this user; $home_cache instead";
	$cache = $home_cache;
	make_path($cache);
}
$ENV{PYTHONDONTWRITEBYTECODE} = 1;    # nothing written into the checkout

note 'setup: a server of its own on 127.0.0.1';
my $node = PostgreSQL::Test::Cluster->new('clients');
$node->init;
$node->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'");
$node->start;
must(node_sql_ok($node, 'CREATE EXTENSION IF NOT EXISTS ulid'),
	'extension ulid in database postgres');
note node_query($node, 'SELECT version()');
note 'ulid '
  . node_query($node, "SELECT extversion FROM pg_extension WHERE extname = 'ulid'")
  . ", cache $cache";

# the PG* environment of the node, as the programs get it
my %pg_env = (
	PGHOST     => '127.0.0.1',
	PGPORT     => $node->port,
	PGUSER     => node_query($node, 'SELECT current_user'),
	PGPASSWORD => 'unused',
	PGDATABASE => 'postgres');

# run_in DIR, TIMEOUT, ENV, COMMAND...: COMMAND in DIR under timeout(1) (stdin empty), with the
# variables of the hash ENV set: its exit status and its stdout and stderr together
sub run_in
{
	my ($dir, $timeout, $env, @cmd) = @_;
	my $out = '';
	local @ENV{ keys %$env } = values %$env;
	IPC::Run::run([ 'timeout', '-k', '30', $timeout, @cmd ],
		'<', \undef, '>&', \$out, init => sub { chdir $dir or die "chdir $dir: $!" });
	return ($? >> 8, $out);
}

# npm packages of clients/node/package-lock.json, once per lock file, into the cache; returns
# node_modules' path, dies when the install fails
sub npm_modules
{
	my $sha = Digest::SHA->new(256);
	$sha->addfile('clients/node/package-lock.json');
	my $dir = "$cache/npm/" . substr($sha->hexdigest, 0, 16);
	return "$dir/node_modules" if -f "$dir/.complete";
	make_path("$cache/npm");
	my $tmp = File::Temp::tempdir("$cache/npm/.install.XXXXXX");
	my $done = eval {
		system('cp', 'clients/node/package.json', 'clients/node/package-lock.json', "$tmp/") == 0
		  or die "cannot copy package.json and package-lock.json to $tmp\n";
		my ($rc, $out) = run_in($tmp, 600, {}, 'npm', 'ci', '--ignore-scripts', '--no-audit',
			'--no-fund', '--loglevel=error', '--cache', "$cache/npm-cache");
		die "npm ci: exit $rc\n$out" if $rc != 0;
		open my $fh, '>', "$tmp/.complete" or die "$tmp/.complete: $!\n";
		close $fh;
		remove_tree($dir);
		rename $tmp, $dir or die "rename $tmp $dir: $!\n";
		1;
	};
	if (!$done)
	{
		my $why = $@;
		remove_tree($tmp);
		die $why;
	}
	return "$dir/node_modules";
}
my $npm_started = time;
my $node_modules;
must_run('npm ci of clients/node/package-lock.json (cached)', sub { $node_modules = npm_modules() });
note "node_modules: $node_modules (" . (time - $npm_started) . ' s)';

# run_client NAME, DIR, COMMAND...: COMMAND in DIR with search_path client_NAME,public (a schema of
# its own, made fresh); each of its ok/FAIL lines a test (other output as notes), then the program
# as one test: exit 0, no FAIL, at least one ok
sub run_client
{
	my ($name, $dir, @cmd) = @_;
	note '';
	note $name;
	if (!node_sql_ok($node, "DROP SCHEMA IF EXISTS client_$name CASCADE; CREATE SCHEMA client_$name"))
	{
		fail("$name: could not make schema client_$name");
		return;
	}
	my $t0 = time;
	my ($rc, $out) = run_in($dir, $client_timeout,
		{ %pg_env, PGOPTIONS => "-c search_path=client_$name,public" }, @cmd);
	my ($oks, $fails) = (0, 0);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok   (.*)$/)
		{
			$oks++;
			pass($1);
		}
		elsif ($line =~ /^FAIL (.*)$/)
		{
			$fails++;
			fail($1);
		}
		else
		{
			note $line =~ /^#/ ? substr($line, 1) : "  $line";
		}
	}
	my $secs = time - $t0;
	ok($rc == 0 && $fails == 0 && $oks > 0,
		"$name: exit 0, no FAIL, at least one ok (exit $rc, $oks ok, $fails FAIL, $secs s)");
	return;
}

# the Go programs, built offline from Debian's Go sources (GOPATH mode; ulidclients -> clients/go)
sub go_build
{
	make_path("$work/gopath/src", "$work/bin");
	symlink("$root/clients/go", "$work/gopath/src/ulidclients") or die "symlink: $!\n";
	my %env = (
		GO111MODULE => 'off',
		GOPATH      => "$work/gopath:/usr/share/gocode",
		GOPROXY     => 'off',
		GOFLAGS     => '',
		GOCACHE     => "$cache/go-build");
	my ($rc, $out) = run_in("$work/gopath/src/ulidclients", 1200, \%env,
		'go', 'build', '-o', "$work/bin/", './check', './example');
	die "go build: exit $rc\n$out" if $rc != 0;
	return;
}

# the Rust programs, built offline by Debian's cargo and rustc against Debian's crate registry
# (crates-io replaced by /usr/share/cargo/registry) in the cache: a copy of clients/rust at a fixed
# path (cargo writes Cargo.lock beside Cargo.toml; the path keeps the build reusable), one target
# directory for every major and run, no debug info (a third less to compile); a lock keeps
# concurrent runs apart. Returns the directory of the programs.
sub cargo_build
{
	my $dir = "$cache/rust";
	make_path("$dir/home");
	open my $lock, '>', "$dir/.lock" or die "$dir/.lock: $!\n";
	flock($lock, LOCK_EX) or die "flock $dir/.lock: $!\n";
	open my $cfg, '>', "$dir/home/config.toml" or die "$dir/home/config.toml: $!\n";
	print $cfg join("\n",
		'[source.crates-io]', 'replace-with = "debian"',
		'[source.debian]',    'directory = "/usr/share/cargo/registry"',
		'[net]',              'offline = true'),
	  "\n";
	close $cfg;
	remove_tree("$dir/src");
	system('cp', '-rp', 'clients/rust', "$dir/src") == 0 or die "cannot copy clients/rust\n";
	my %env = (
		CARGO_HOME              => "$dir/home",
		CARGO_TARGET_DIR        => "$dir/target",
		CARGO_PROFILE_DEV_DEBUG => '0',
		RUSTC                   => '/usr/bin/rustc',
		RUSTDOC                 => '/usr/bin/rustdoc');
	my ($rc, $out) = run_in("$dir/src", 1200, \%env,
		'/usr/bin/cargo', 'build', '--offline', '-q', '-j2', '--bins', '--examples');
	close $lock;
	die "cargo build: exit $rc\n$out" if $rc != 0;
	return "$dir/target/debug";
}

# step NAME, CODE: a build step as a test (its message as a diagnostic when it dies)
sub step
{
	my ($name, $code) = @_;
	my $t0 = time;
	my $done = eval { $code->(); 1 };
	diag($@) unless $done;
	ok($done, "$name (" . (time - $t0) . ' s)');
	return $done;
}

run_client('psycopg',    'clients/python', $py, 'check_psycopg.py');
run_client('psycopg2',   'clients/python', $py, 'check_psycopg2.py');
run_client('asyncpg',    'clients/python', $py, 'check_asyncpg.py');
run_client('sqlalchemy', 'clients/python', $py, 'check_sqlalchemy.py');
run_client('django',     'clients/python', $py, 'check_django.py');

if (step('javac UlidJdbc.java CheckJdbc.java',
	sub {
		my ($rc, $out) = run_cmd('javac', '-d', "$work/java", '-cp', $jdbc_jar,
			'clients/java/UlidJdbc.java', 'clients/java/CheckJdbc.java');
		die "javac: exit $rc\n$out" if $rc != 0;
	}))
{
	run_client('pgjdbc', 'clients/java', 'java', '-cp', "$jdbc_jar:$work/java", 'CheckJdbc');
}

if (step('go build (GOPATH mode, GOPROXY=off) of clients/go/check and clients/go/example', \&go_build))
{
	run_client('pgx', 'clients/go', "$work/bin/check");
	run_client(
		'pgx_example', 'clients/go', 'bash', '-c',
		'out="$("$1")"; [[ $out == "26 1" ]] &&
        echo "ok   pgx: the example prints 26 1" || { echo "FAIL pgx: the example printed [$out]"; exit 1; }',
		'example', "$work/bin/example");
}

run_client('ruby_pg',      'clients/ruby', 'ruby', 'check_ruby_pg.rb');
run_client('activerecord', 'clients/ruby', 'ruby', 'check_activerecord.rb');

# the node programs beside the cached node_modules (ES modules resolve from their own path)
must_run(
	'the node programs beside node_modules',
	sub {
		make_path("$work/node");
		system('cp', '-r', 'clients/node/.', "$work/node/") == 0 or die "cannot copy clients/node\n";
		unlink "$work/node/node_modules";
		symlink($node_modules, "$work/node/node_modules") or die "symlink: $!\n";
	});
run_client('node_postgres', "$work/node", 'node', 'check_pg.js');
run_client('drizzle',       "$work/node", 'node', 'check_drizzle.js');
run_client('typeorm',       "$work/node", 'node', 'check_typeorm.js');
run_client('sequelize',     "$work/node", 'node', 'check_sequelize.js');
run_client('kysely',        "$work/node", 'node', 'check_kysely.js');
run_client('prisma',        "$work/node", 'node', 'check_prisma.js');

my $rust_bin;
if (step("cargo build (Debian's cargo and crates, offline) of clients/rust",
	sub { $rust_bin = cargo_build() }))
{
	run_client('tokio_postgres', 'clients/rust', "$rust_bin/check");
	run_client(
		'tokio_postgres_example', 'clients/rust', 'bash', '-c',
		'out="$("$1")"; [[ $out == "26 true 1 true" ]] &&
        echo "ok   tokio-postgres: the example prints 26 true 1 true" ||
        { echo "FAIL tokio-postgres: the example printed [$out]"; exit 1; }',
		'example', "$rust_bin/examples/ulid_recipe");
}

note 'clients took ' . (time - $started) . ' s';
$node->stop;

done_testing();
