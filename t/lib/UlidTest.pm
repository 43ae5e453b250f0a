# The helpers the TAP suites (t/*.pl) share, on top of PostgreSQL::Test::Cluster and Test::More;
# only what 13 to 19 have in common (on 13 and 14 the framework is the older PostgresNode).
# A suite loads it with: use FindBin; use lib "$FindBin::RealBin/lib"; use UlidTest;
package UlidTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT =
  qw(node_query node_sql_ok node_psql_as node_as node_as_ok cmp_num must must_run run_cmd pg_config_value
	  scratch_tree test_build extension_files same_lines);

# node_query NODE, SQL: psql's output (-XAtq, ON_ERROR_STOP=1, one session for all of SQL); on an
# error, the error as a diagnostic and '' as the output, so the check that reads it fails
sub node_query
{
	my ($node, $sql) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql);
	if ($rc != 0)
	{
		diag($node->name . ": query failed: $err");
		return '';
	}
	return $out;
}

# node_sql_ok NODE, SQL: true when psql ran SQL without an error (the error as a diagnostic
# otherwise)
sub node_sql_ok
{
	my ($node, $sql) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql);
	diag($node->name . ": query failed: $err") if $rc != 0;
	return $rc == 0;
}

# node_psql_as NODE, ROLE, DB, SQL [, FILE]: psql as ROLE in DB (NOTICEs off, VERBOSITY verbose),
# SQL on its standard input, then FILE with -f when given; its exit status, output and error text
sub node_psql_as
{
	my ($node, $role, $db, $sql, $file) = @_;
	local $ENV{PGOPTIONS} = '-c client_min_messages=warning';
	my @extra = ('-U', $role, '-v', 'VERBOSITY=verbose');
	push @extra, '-f', $file if defined $file;
	return $node->psql($db, $sql // '', extra_params => \@extra);
}

# node_as NODE, ROLE, DB, SQL: the output of SQL as ROLE in DB; '' and the error as a diagnostic
# on an error
sub node_as
{
	my ($node, $role, $db, $sql) = @_;
	my ($rc, $out, $err) = node_psql_as($node, $role, $db, $sql);
	if ($rc != 0)
	{
		diag("$role in $db: $err");
		return '';
	}
	return $out;
}

# node_as_ok NODE, ROLE, DB, SQL: true when SQL ran as ROLE in DB without an error (the error as a
# diagnostic otherwise)
sub node_as_ok
{
	my ($node, $role, $db, $sql) = @_;
	my ($rc, $out, $err) = node_psql_as($node, $role, $db, $sql);
	diag("$role in $db: $err") if $rc != 0;
	return $rc == 0;
}

# cmp_num GOT, OP, WANT, NAME: cmp_ok on numbers, failing (not warning) when GOT is not one
sub cmp_num
{
	my ($got, $op, $want, $name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return cmp_ok($got, $op, $want, $name) if defined $got && $got =~ /^-?\d+$/;
	fail($name);
	diag('not a number: ' . ($got // '<undef>'));
	return 0;
}

# must GOOD, NAME: a set-up step the rest depends on: a named check, and the end of the run (the
# rest cannot be checked) when it failed
sub must
{
	my ($good, $name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	ok($good, $name) or BAIL_OUT("set-up step failed: $name");
	return;
}

# must_run NAME, CODE: must, for a step written as code that dies when it fails (its message as a
# diagnostic)
sub must_run
{
	my ($name, $code) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $done = eval { $code->(); 1 };
	diag($@) unless $done;
	must($done, $name);
	return;
}

# run_cmd COMMAND...: its exit status, and its stdout and stderr together (stdin empty)
sub run_cmd
{
	my (@cmd) = @_;
	my $out = '';
	IPC::Run::run(\@cmd, '<', \undef, '>&', \$out);
	return ($? >> 8, $out);
}

# pg_config_value OPTION [, PG_CONFIG]: what pg_config prints for OPTION (e.g. '--sharedir'), its
# newline removed; PG_CONFIG defaults to the server under test's ($ENV{PG_CONFIG}, else the
# pg_config on PATH). The run ends (BAIL_OUT) when pg_config fails: nothing can be checked then.
sub pg_config_value
{
	my ($option, $pg_config) = @_;
	$pg_config //= $ENV{PG_CONFIG} // 'pg_config';
	my $out = '';
	IPC::Run::run([ $pg_config, $option ], '<', \undef, '>', \$out, '2>', \my $err);
	BAIL_OUT("$pg_config $option failed: $err") if $? != 0;
	chomp $out;
	return $out;
}

# scratch_tree DIR: a copy of what builds the library (Makefile, ulid.control, the committed
# scripts, src/) from the current directory, the top of the tree, in DIR, without any object,
# library, bitcode or .build-flavour: for test-only builds that reuse nothing. True when it was made.
sub scratch_tree
{
	my ($dir) = @_;
	mkdir $dir;
	system('cp', '-R', 'Makefile', 'ulid.control', glob('ulid--*.sql'), 'src', "$dir/") == 0
	  or return 0;
	system('find', $dir, '(', '-name', '*.o', '-o', '-name', '*.bc', '-o', '-name', '*.so', '-o',
		'-name', '.build-flavour', ')', '-delete') == 0
	  or return 0;
	return 1;
}

# test_build DIR, FLAG, PG_CONFIG: a test-only build (make FLAG=1, e.g. ULID_TEST_THROW) of the tree
# in the current directory, in the scratch copy DIR (what make needs, without the normal build's
# outputs), never installed; dies with make's output when it fails. Returns the make command (DIR,
# FLAG=1, PG_CONFIG), e.g. to check that make install of the build is refused.
sub test_build
{
	my ($dir, $flag, $pg_config) = @_;
	my @make = ('make', '-s', '-C', $dir, "$flag=1", 'with_llvm=no', "PG_CONFIG=$pg_config");
	scratch_tree($dir) or die 'cannot copy the tree';
	my ($rc, $out) = run_cmd(@make, '-j2');
	die $out if $rc != 0;
	return @make;
}


# extension_files WORKDIR: this tree's extension files by name, with their text: ulid.control, the
# committed ulid--*.sql and those src/sql/assemble.sh makes (the Makefile's BUILT_SCRIPTS), made in
# WORKDIR, so that a tree that was not built has them too. Run from the top of the tree; a named
# check that assemble.sh lists them, the end of the run when it cannot make one.
sub extension_files
{
	my ($work) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my %file = ('ulid.control' => PostgreSQL::Test::Utils::slurp_file('ulid.control'));
	my ($rc, $list) = run_cmd('sh', 'src/sql/assemble.sh', '--list', '.');
	must($rc == 0 && $list =~ /\S/,
		'src/sql/assemble.sh --list: the scripts this tree makes');
	my %built = map { ("ulid--$_.sql" => 1) } split /\n/, $list;
	for my $f (sort keys %built)
	{
		my ($rc2, $out) = run_cmd('sh', 'src/sql/assemble.sh', '.', "$work/$f");
		BAIL_OUT("src/sql/assemble.sh . $f: $out") if $rc2 != 0;
		$file{$f} = PostgreSQL::Test::Utils::slurp_file("$work/$f");
	}
	for my $path (glob 'ulid--*.sql')
	{
		$file{$path} = PostgreSQL::Test::Utils::slurp_file($path) unless $built{$path};
	}
	return %file;
}

# same_lines GOT, WANT, NAME [, SHOWN]: GOT eq WANT, two texts of lines; on a difference, the lines
# only in WANT (<) and only in GOT (>) as diagnostics, SHOWN of them at most (all by default)
sub same_lines
{
	my ($got, $want, $name, $shown) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return pass($name) if $got eq $want;
	fail($name);
	my (%g, %w);
	$g{$_}++ for split /\n/, $got;
	$w{$_}++ for split /\n/, $want;
	my @d = (
		(map { "<   $_" } grep { !$g{$_} } split /\n/, $want),
		(map { ">   $_" } grep { !$w{$_} } split /\n/, $got));
	@d = ('(the same lines in another order)') unless @d;
	@d = (@d[ 0 .. $shown - 1 ], '...') if defined $shown && @d > $shown;
	diag(join("\n", @d));
	return 0;
}

1;
