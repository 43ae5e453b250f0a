# Test-only builds never reach an installed library. `make ULID_TEST_THROW=1` (ulid_test_throw.so,
# with functions that throw and fork on demand), `make ULID_TEST_LAYOUT=N` (a shared-memory
# layout that is not ours) and `make ULID_TEST_NO_OPENSSL=1` (AES as on a server without OpenSSL)
# compile the same sources with other flags; the Makefile records what the
# objects in a tree were made for (.build-flavour) and compiles again when that changes. In a
# scratch copy of the tree, as a developer who ran a suite would:
#   make clean; make ULID_TEST_THROW=1 && make && make install DESTDIR=d1
#   make clean; make ULID_TEST_LAYOUT=99 && make && make install DESTDIR=d2
#   make clean; make ULID_TEST_NO_OPENSSL=1 && make && make install DESTDIR=d3
# then: no installed ulid.so exports a test function, no installed JIT bitcode file (.bc, where
# the server was built with LLVM) names one, d1, d2 and d3 install the same bytes (the layout and
# no-OpenSSL builds left nothing), and the test builds' own install is refused. With the Makefile before
# the flavour stamp, d1's ulid.so and 2 of its bitcode files held the test functions, d2's the layout
# of 99 (4 checks failed).
#
# Needs PG_CONFIG (or pg_config on PATH) of the server under test; installs nothing into it.
# Prints one line per check, exits non-zero on any violation.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))

use strict;
use warnings;

use File::Compare qw(compare);
use File::Find;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;

my $started   = time;
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $work      = PostgreSQL::Test::Utils::tempdir;
my $tree      = "$work/tree";

# The builds are a developer's at a prompt: no variable of the make that runs this suite
# (REGRESS=, PROVE_TESTS=, ...) reaches them.
delete @ENV{qw(MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL)};

# mk ARGS...: make ARGS in the scratch tree; true when it succeeded, and its output (also appended
# to $work/make.log)
sub mk
{
	my (@args) = @_;
	my ($rc, $out) = run_cmd('make', '-s', '-C', $tree, '-j2', "PG_CONFIG=$pg_config", @args);
	PostgreSQL::Test::Utils::append_to_file("$work/make.log", "\$ make @args\n$out");
	return ($rc == 0, $out);
}

# must_make NAME, ARGS...: must, for a make that the rest depends on (its output as the diagnostic)
sub must_make
{
	my ($name, @args) = @_;
	my ($good, $out) = mk(@args);
	diag($out) unless $good;
	must($good, $name);
	return;
}

scratch_tree($tree) or BAIL_OUT("cannot copy the tree into $tree");
# whether the server was built with LLVM (PGXS's with_llvm: make installs JIT bitcode then); the
# rule is a second makefile, so that the Makefile, first, is the one whose directory PGXS builds in
PostgreSQL::Test::Utils::append_to_file("$work/print-llvm.mk",
	"print-llvm:\n\t\@echo \$(with_llvm)\n");
my $llvm = '';
IPC::Run::run(
	[
		'make', '-s', '-C', $tree, "PG_CONFIG=$pg_config",
		'-f', 'Makefile', '-f', "$work/print-llvm.mk", 'print-llvm'
	],
	'<', \undef, '>', \$llvm, '2>', \my $ignored);
chomp $llvm;
note "server " . pg_config_value('--version', $pg_config) . '; with_llvm=' . ($llvm || '?');

# installed DESTDIR: what make install put there of ours (the library and its bitcode), sorted
sub installed
{
	my ($dest) = @_;
	my @found;
	find(sub { push @found, $File::Find::name if -f $_ && ($_ eq 'ulid.so' || /\.bc$/) }, $dest)
	  if -d $dest;
	return sort @found;
}

for my $variant ([ 'ULID_TEST_THROW=1', 'd1' ], [ 'ULID_TEST_LAYOUT=99', 'd2' ],
	[ 'ULID_TEST_NO_OPENSSL=1', 'd3' ])
{
	my ($flag, $dest) = @$variant;
	must_make('make clean', 'clean');
	must_make("make $flag", $flag);
	my ($installed_test_build) = mk($flag, 'install', "DESTDIR=$work/refused");
	ok(!$installed_test_build, "make $flag install is refused");
	must_make("make (after make $flag)");
	must_make("make install DESTDIR=$dest (after make $flag)", 'install', "DESTDIR=$work/$dest");
	my ($so) = grep { m{/ulid\.so$} } installed("$work/$dest");
	must(defined $so, "$dest: ulid.so installed");
	my ($rc, $symbols) = run_cmd('nm', '-D', '--defined-only', $so);
	diag("nm: $symbols") if $rc != 0;
	cmp_num($rc == 0 ? scalar(grep { /ulid_test_(throw|fork)/ } split /\n/, $symbols) : undef,
		'==', 0, "$dest ($flag first): test functions exported by the installed ulid.so");
	my ($nbc, $hits) = (0, 0);
	for my $f (grep { /\.bc$/ } installed("$work/$dest"))
	{
		$nbc++;
		open(my $fh, '<:raw', $f) or die "$f: $!";
		my $bytes = do { local $/; <$fh> };
		close $fh;
		$hits++ if $bytes =~ /ulid_test_(throw|fork)|ULID_TEST/;
	}
	note "$dest: $nbc bitcode file(s) installed";
	cmp_num($nbc, '>', 0, "$dest: bitcode files installed (the server has LLVM)") if $llvm eq 'yes';
	cmp_num($hits, '==', 0, "$dest ($flag first): installed bitcode files naming a test function");
}

# the layout and no-OpenSSL builds' objects left nothing: d2 and d3 hold the same files, byte for
# byte, as d1
for my $dest ('d2', 'd3')
{
	my $differ = 0;
	for my $f (installed("$work/d1"))
	{
		my $rel = substr($f, length("$work/d1"));
		next if compare($f, "$work/$dest$rel") == 0;
		$differ++;
		note "differs: $rel";
	}
	cmp_num($differ, '==', 0,
		"installed files that differ between d1 and $dest (ulid.so and bitcode)");
	same_lines(
		join("\n", map { substr($_, length("$work/$dest")) } installed("$work/$dest")),
		join("\n", map { substr($_, length("$work/d1")) } installed("$work/d1")),
		"the same set of files installed in d1 and $dest");
}
my ($flavour) = (-f "$tree/.build-flavour" ? slurp_file("$tree/.build-flavour") : '') =~ /^([^ \n]*)/;
is($flavour, 'normal', "the tree's flavour after the last make");

note 'test_builds took ' . (time - $started) . ' s';
done_testing();
