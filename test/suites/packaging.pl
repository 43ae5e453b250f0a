# Packaging: META.json for PGXN, one version everywhere, `make dist`, and a build from the archive.
#
#   - META.json is valid against the PGXN Meta Spec v1.0.0 (test/lib/pgxn_meta.py, Python stdlib:
#     required keys and types, semantic versions, licenses, prereqs, ...), and that checker rejects
#     every one of a set of broken copies of it;
#   - one version: META.json's version, provides.ulid.version and default_version in ulid.control
#     agree, provides.ulid.file is ulid--<version>.sql and exists, the docfile exists, the name is
#     the extension's, the abstract is the control file's comment, PostgreSQL >= 13 is required;
#     CHANGELOG.md has a dated section for that version;
#   - the scripts' lists: no ulid--*.sql is both made (src/sql/assemble.sh --list, the Makefile's
#     BUILT_SCRIPTS) and committed, .gitignore ignores every made one and no committed one, and the
#     list holds this version's install script and its refresh round trip both ways;
#   - the releases: scripts/pins/releases names each release's commit, a commit of this branch with
#     that default_version, in order and agreeing with its tag, and every release tag is listed; a
#     clone without tags gets exactly those tags from scripts/lib/common.sh, which refuses to move a
#     tag that names another commit;
#   - `make dist` on a snapshot of the working tree (its tracked and not-ignored files committed in a
#     throwaway repository, so that this checks the tree as it is, also before a commit) writes
#     dist/ulid-<version>.zip with every path under ulid-<version>/, holding ulid.control, the
#     SQL script, every tracked file of src/, Makefile, META.json and README.md and no build output; it refuses a commit
#     whose META.json has another version;
#   - the archive builds with PGXS and `make install DESTDIR=...` stages the control file, the SQL
#     script and ulid.so where pg_config says;
#   - the recipes (test/suites/recipes/*.sql and *.sh: migration, partitioning, Citus, portable
#     edition) and the client recipes (clients/: all but the check* programs, package manifests and
#     tool-written migrations) are quoted verbatim in README.md or a page of docs/.
# Needs python3, and for make dist a git checkout, git, dpkg (version order) and the PostgreSQL
# server headers (outside a git checkout, e.g. in an unpacked release, those checks are skipped with
# a note). Starts no server and installs nothing: the build from the archive is staged with DESTDIR
# in the test's temporary directory. One build of the extension: about a minute.
# Tier: packaging (how the extension is built, packaged and installed (scripts/test --tier packaging))
#
# One check per rule, recipe and step; a failed set-up step (the snapshot, unpacking the archive,
# the clone without tags) ends the run.

use strict;
use warnings;

use Cwd qw(getcwd);
use File::Find;
use File::Path qw(make_path);
use IO::Uncompress::Unzip qw($UnzipError);
use IPC::Run;
use JSON::PP;
use Test::More;
use FindBin;
use lib "$FindBin::RealBin/../../t/lib";
use UlidTest;
use PostgreSQL::Test::Utils;

my $started = time;
chdir "$FindBin::RealBin/../.." or die "cannot enter the top of the tree: $!";
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';    # the major under test
my $work      = PostgreSQL::Test::Utils::tempdir;
# the make commands below are not sub-makes of make installcheck, whose command line (REGRESS=
# PROVE_TESTS=...) make exports
delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES REGRESS PROVE_TESTS PROVE_FLAGS)};
$ENV{TAP_TESTS} = '';

my $control = slurp_file('ulid.control');
my ($version) = $control =~ /^default_version = '(.*)'$/m;
my ($comment) = $control =~ /^comment = '(.*)'$/m;
$version //= '';
note "ulid.control: default_version $version";

# capture COMMAND...: its exit status, stdout and stderr (stdin empty)
sub capture
{
	my (@cmd) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run(\@cmd, '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# stdout COMMAND...: its standard output, trailing newlines removed (as $(...) in a shell)
sub stdout
{
	my (undef, $out) = capture(@_);
	$out =~ s/\n+\z//;
	return $out;
}

# tail N, TEXT: TEXT's last N lines
sub tail
{
	my ($n, $text) = @_;
	my @l = split /\n/, $text // '';
	return join("\n", @l > $n ? @l[ -$n .. -1 ] : @l);
}

note 'META.json against the PGXN Meta Spec v1.0.0';
{
	my ($rc, $out) = run_cmd('python3', 'test/lib/pgxn_meta.py', 'META.json');
	ok($rc == 0, 'META.json is valid (test/lib/pgxn_meta.py)') or diag($out);
	($rc, $out) = run_cmd('python3', 'test/lib/pgxn_meta.py', '--self-test', 'META.json');
	my $last = (split /\n/, $out)[-1] // '';
	ok($rc == 0, "the checker rejects broken copies of META.json: $last") or diag($out);
}
# META.json as read by JSON::PP (strings as the bytes of the file, like the control file's); undef
# when it cannot be read, so that every check of its values fails
my $meta = eval { JSON::PP->new->decode(slurp_file('META.json')) };
diag("META.json: $@") unless defined $meta;

# meta KEY...: a value from META.json (a path of keys): a string, or the JSON text of anything else;
# undef when there is no such key
sub meta
{
	my $v = $meta;
	for my $k (@_)
	{
		return undef unless ref $v eq 'HASH' && exists $v->{$k};
		$v = $v->{$k};
	}
	return ref $v ? JSON::PP->new->canonical->encode($v) : $v;
}
is(meta('name'),    'ulid',   "META.json name is the extension's");
is(meta('version'), $version, "META.json version = ulid.control default_version ($version)");
is(meta(qw(provides ulid version)),
	$version, 'META.json provides.ulid.version = ulid.control default_version');
is(meta(qw(provides ulid file)),
	"ulid--$version.sql", 'META.json provides.ulid.file is the install script of that version');
ok(-f "ulid--$version.sql", "ulid--$version.sql exists");
{
	my $docfile = meta(qw(provides ulid docfile)) // '';
	ok($docfile ne '' && -f $docfile, "provides.ulid.docfile $docfile exists");
}
is(meta('abstract'), $comment, "META.json abstract = the control file's comment");
is(meta(qw(provides ulid abstract)),
	$comment, "META.json provides.ulid.abstract = the control file's comment");
is(meta(qw(prereqs runtime requires PostgreSQL)),
	'13.0.0', 'META.json requires PostgreSQL >= 13 at run time');
is(meta(qw(meta-spec version)), '1.0.0', 'META.json meta-spec version');
{
	my $sections = () = slurp_file('CHANGELOG.md') =~ /^## \Q$version\E — \d{4}-\d{2}-\d{2}$/mg;
	is($sections, 1, "CHANGELOG.md has a section for default_version ($version)");
}

# the SQL scripts' lists: the Makefile's BUILT_SCRIPTS is derived from the bodies in src/sql
# (assemble.sh --list), .gitignore ignores every ulid--*.sql but the committed ones
note 'made and committed scripts';
my @built;
{
	my ($rc, $list, $err) = capture('sh', 'src/sql/assemble.sh', '--list', '.');
	diag("src/sql/assemble.sh --list: $err") if $rc != 0;
	@built = sort map { "ulid--$_.sql" } split /\n/, $list;
}
my @committed = sort split /\n/, stdout('git', 'ls-files', 'ulid--*.sql');
# ignored FILE: true when .gitignore ignores FILE (tracked or not)
sub ignored { return system('git', 'check-ignore', '-q', '--no-index', $_[0]) == 0; }
if (@committed)
{
	my %made = map { ($_ => 1) } @built;
	is(join(' ', grep { $made{$_} } @committed),
		'', 'scripts both made (assemble.sh --list) and committed');
	is(join(' ', grep { !ignored($_) } @built), '', 'made scripts that .gitignore does not ignore');
	is(join(' ', grep { ignored($_) } @committed), '', 'committed scripts that .gitignore ignores');
}
else
{
	note 'not a git checkout: the committed scripts are not known here';
}
for my $f ("ulid--$version.sql", "ulid--$version--$version+refresh.sql",
	"ulid--$version+refresh--$version.sql")
{
	is(scalar(grep { $_ eq $f } @built), 1, "made for this release ($version): $f");
}

note 'documentation quotes every recipe (migration, partitioning, Citus, portable edition) and '
  . 'the client recipes verbatim';
# The texts a recipe may be quoted in: README.md and each page of docs/ whole, and each fenced
# block indented under a list item with the fence's indentation taken off its lines.
my @doc_texts;
for my $doc ('README.md', glob('docs/*.md'))
{
	next unless -f $doc;
	my $text = slurp_file($doc);
	push @doc_texts, $text;
	while ($text =~ /^( +)```[^\n]*\n(.*?)^ *```/msg)
	{
		my ($indent, $body) = ($1, $2);
		push @doc_texts,
		  join('', map { index($_, $indent) == 0 ? substr($_, length $indent) : $_ }
			  split /(?<=\n)/, $body);
	}
}

# quoted FILE: true when FILE's whole text (leading and trailing white space trimmed) appears
# verbatim in one of the texts above
sub quoted
{
	my $recipe = slurp_file($_[0]) =~ s/\A\s+|\s+\z//gr;
	return scalar grep { index($_, $recipe) >= 0 } @doc_texts;
}

# client recipes: every file in clients/ but the checks (check*, Check*, check/), package manifests,
# package markers and the migrations that the ORM tools write (t/350_clients.pl checks those against
# the tools), and what the tools leave there (node_modules/, target/, generated/, .pyc)
my @client_recipes;
find(
	{
		no_chdir => 1,
		wanted   => sub {
			my $name = $File::Find::name;
			my $base = $_ =~ s{.*/}{}r;
			if (-d $name && $name ne 'clients')
			{
				$File::Find::prune = 1
				  if $base =~ /^(check|migrations|node_modules|generated|target)$/;
				return;
			}
			return unless -f $name && !-l $name;
			return
			  if $base =~ /^check/i
			  || $base eq '__init__.py'
			  || $base =~ /^package.*\.json$/
			  || $base =~ /\.pyc$/
			  || $base eq 'Cargo.lock';
			push @client_recipes, $name;
		}
	},
	'clients') if -d 'clients';
@client_recipes = sort @client_recipes;
# written by hand (Prisma would write TEXT)
push @client_recipes, glob('clients/node/prisma/migrations/*/migration.sql');
ok(@client_recipes >= 10, scalar(@client_recipes) . ' client recipes in clients/')
  or diag("@client_recipes");
for my $f (glob('test/suites/recipes/*.sql'), glob('test/suites/recipes/*.sh'), @client_recipes)
{
	ok(quoted($f), "$f is quoted in README.md or docs/");
}

# make dist and the build from its archive need a git checkout (not, e.g., an unpacked release)
if (system('git rev-parse --is-inside-work-tree >/dev/null 2>&1') != 0)
{
	note 'not a git checkout: make dist and the build from its archive are not checked';
	note 'packaging took ' . (time - $started) . ' s';
	done_testing();
	exit;
}

note 'releases: scripts/pins/releases names each release\'s commit; a clone without tags gets them '
  . 'from it';
# ensure_tags ROOT: scripts/lib/common.sh's ulid_ensure_release_tags in the clone ROOT: its exit
# status and its output (stdout and stderr)
sub ensure_tags
{
	my ($root) = @_;
	local $ENV{ULID_ROOT} = $root;
	return run_cmd('bash', '-c',
		'source "$ULID_ROOT/scripts/lib/common.sh" && ulid_ensure_release_tags');
}

# dpkg_order A, OP, B: true when dpkg --compare-versions A OP B holds
sub dpkg_order { return system('dpkg', '--compare-versions', @_) == 0; }

# "version commit" per release, as scripts/lib/common.sh reads it
my $releases = do
{
	local $ENV{ULID_ROOT} = '.';
	stdout('bash', '-c', 'source scripts/lib/common.sh && ulid_release_list');
};
my @releases = map { [split / /] } split /\n/, $releases;
like(join(' ', map { $_->[0] } @releases[ 0 .. 2 ]),
	qr/^0\.1\.0 0\.2\.0 0\.2\.1$/,
	'scripts/pins/releases lists 0.1.0, 0.2.0 and 0.2.1 first (the releases before this list)');
{
	my @problems;
	my $prev;
	for (@releases)
	{
		my ($v, $c) = @$_;
		if (system('git', 'cat-file', '-e', "$c^{commit}") != 0)
		{
			push @problems, "$v:commit-missing";
			next;
		}
		push @problems, "$v:not-on-this-branch"
		  if system('git', 'merge-base', '--is-ancestor', $c, 'HEAD') != 0;
		my ($dv) = stdout('git', 'show', "$c:ulid.control") =~ /^default_version = '(.*)'$/m;
		push @problems, "$v:default_version" unless ($dv // '') eq $v;
		push @problems, "$v:order" if defined $prev && !dpkg_order($prev, 'lt', $v);
		push @problems, "$v:above-$version" unless dpkg_order($v, 'le', $version);
		my ($rc, $t) = capture('git', 'rev-parse', '-q', '--verify', "refs/tags/v$v^{commit}");
		chomp $t;
		push @problems, "$v:tag-is-$t" if $rc == 0 && $t ne $c;
		$prev = $v;
	}
	is(join(' ', @problems), '',
		'each release is a commit of this branch, with that default_version, in order, agreeing with its tag'
	);
	my %listed = map { ($_->[0] => 1) } @releases;
	my @unlisted = grep { my $v = substr($_, 1); dpkg_order($v, 'le', $version) && !$listed{$v} }
	  split /\n/, stdout('git', 'tag', '-l', 'v[0-9]*');
	is(join(' ', @unlisted), '',
		"every release tag up to $version is listed in scripts/pins/releases");
}
# a clone of this branch without its tags (as CI's clone is): scripts/lib/common.sh makes them
my $notags = "$work/notags";
must_run(
	'a clone without tags: ulid_ensure_release_tags succeeds',
	sub {
		my ($rc, $out) = run_cmd('git', 'clone', '-q', '--no-tags', "file://" . getcwd(), $notags);
		die "git clone: $out" if $rc != 0;
		system('cp', 'scripts/lib/common.sh', "$notags/scripts/lib/") == 0
		  && system('cp', 'scripts/pins/releases', "$notags/scripts/pins/") == 0
		  or die 'cannot copy common.sh and releases into the clone';
		($rc, $out) = ensure_tags($notags);
		die "ulid_ensure_release_tags: $out" if $rc != 0;
	});
is(stdout(
		'git', '-C', $notags, 'for-each-ref', 'refs/tags',
		'--format=%(refname:short) %(objectname)') =~ s/^v//mgr,
	$releases,
	'... and its tags are exactly the releases listed, at their commits');
{
	# the first release's tag moved to the clone's HEAD, a later commit
	my $head = stdout('git', '-C', $notags, 'rev-parse', 'HEAD');
	run_cmd('git', '-C', $notags, 'tag', '-f', "v$releases[0][0]", 'HEAD');
	my ($rc, $out) = ensure_tags($notags);
	is($rc, 1, '... a tag that names another commit: refused, not moved; exit status');
	like(
		$out,
		qr/\Qnames $head, scripts\/pins\/releases says $releases[0][1]\E/,
		'... naming both commits');
}

note 'make dist';
my $snap = "$work/snapshot";
must_run(
	'a snapshot of the working tree (tracked and not-ignored files) committed in a throwaway repository',
	sub {
		my ($rc, $list) =
		  capture('git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard');
		die 'git ls-files failed' if $rc != 0;
		my %seen;
		my $names = join("\0",
			sort grep { $_ ne '' && !$seen{$_}++ && (-e $_ || -l $_) } split /\0/, $list);
		make_path($snap);
		my $err = '';
		IPC::Run::run([ 'tar', '--null', '-T', '-', '-cf', '-' ],
			'<', \$names, '|', [ 'tar', '-xf', '-', '-C', $snap ], '2>', \$err)
		  or die "tar: $err";
		for my $git ([qw(init -q)], [qw(add -A)],
			[qw(-c user.name=packaging -c user.email=packaging@localhost commit -q -m snapshot)])
		{
			($rc, my $out) = run_cmd('git', '-C', $snap, @$git);
			die "git @$git: $out" if $rc != 0;
		}
	});
my $zip = "$snap/dist/ulid-$version.zip";
{
	my ($rc, $out) = run_cmd('make', '-C', $snap, '-s', 'dist', "PG_CONFIG=$pg_config");
	ok($rc == 0 && -f $zip,
		"make dist writes dist/ulid-$version.zip (" . (-s $zip // 0) . ' bytes)')
	  or diag($out);
}

# zip_entries ZIP: the archive's entries in order, each [name, contents]; dies when it cannot be read
sub zip_entries
{
	my ($path) = @_;
	my $u = IO::Uncompress::Unzip->new($path) or die "$path: $UnzipError";
	my @entries;
	my $status;
	for ($status = 1; $status > 0; $status = $u->nextStream)
	{
		my ($name, $data) = ($u->getHeaderInfo->{Name}, '');
		while (($status = $u->read(my $buf)) > 0) { $data .= $buf; }
		last if $status < 0;
		push @entries, [ $name, $data ];
	}
	die "$path: $UnzipError" if $status < 0;
	return @entries;
}

# zip_problems ENTRIES: the archive's problems (none when it is as it should be)
sub zip_problems
{
	my (@entries) = @_;
	my $prefix = "ulid-$version/";
	my %data = map { ($_->[0] => $_->[1]) } @entries;
	my @p;
	for my $n (map { $_->[0] } @entries)
	{
		push @p, "entry outside $prefix: $n" if index($n, $prefix) != 0;
		push @p, "build output or ignored file in the archive: $n"
		  if substr($n, length $prefix) =~ m{(\.o|\.bc|\.so)$|^dist/|^results/};
	}
	for my $want ('ulid.control', 'Makefile', 'META.json', 'README.md', 'test/suites/packaging.pl')
	{
		push @p, "missing: $prefix$want" unless exists $data{"$prefix$want"};
	}
	# the install script of the version: committed, or made by the Makefile from its body (src/sql)
	push @p, "missing: ${prefix}ulid--$version.sql or its body src/sql/update-to-$version.sql"
	  unless exists $data{"${prefix}ulid--$version.sql"}
	  || exists $data{"${prefix}src/sql/update-to-$version.sql"};
	# every tracked file of src/ (the Makefile finds the sources with wildcards: an archive without
	# src/pg/ would still build a library, without the glue)
	my ($rc, $src) = capture('git', 'ls-files', '-z', '--', 'src');
	my @src = $rc == 0 ? grep { $_ ne '' } split /\0/, $src : ();
	push @p, 'git ls-files -- src: nothing listed' unless @src;
	push @p, map { "missing: $prefix$_" } grep { !exists $data{"$prefix$_"} } @src;
	if (exists $data{"${prefix}META.json"})
	{
		my $v = eval { JSON::PP->new->decode($data{"${prefix}META.json"})->{version} } // '';
		push @p, 'the archived META.json has another version' if $v ne $version;
	}
	push @p, 'the archived ulid.control has another default_version'
	  if exists $data{"${prefix}ulid.control"}
	  && index($data{"${prefix}ulid.control"}, "default_version = '$version'") < 0;
	return @p;
}

my @entries;
SKIP:
{
	skip 'make dist wrote no archive', 1 unless -f $zip;
	@entries = eval { zip_entries($zip) };
	my @problems = $@ ? ("cannot read the archive: $@") : zip_problems(@entries);
	ok(!@problems,
		'the archive: '
		  . scalar(@entries)
		  . " entries, all under ulid-$version/, with ulid.control, ulid--$version.sql or its body, every tracked file of src/, Makefile, META.json, README.md and no build output"
	) or diag(join("\n", @problems));
}
{
	my $m = slurp_file("$snap/META.json");
	$m =~ s/"version": "\Q$version\E"/"version": "9.9.9"/;
	open(my $fh, '>', "$snap/META.json") or die "$snap/META.json: $!";
	print $fh $m;
	close $fh or die "$snap/META.json: $!";
	my ($rc) = run_cmd('git', '-C', $snap, '-c', 'user.name=packaging', '-c',
		'user.email=packaging@localhost', 'commit', '-q', '-am', 'mismatch');
	my ($make_rc) = run_cmd('make', '-C', $snap, '-s', 'dist', "PG_CONFIG=$pg_config",
		"DIST_DIR=$work/mismatch");
	ok($rc == 0 && $make_rc != 0 && !-e "$work/mismatch/ulid-$version.zip",
		"make dist refuses a commit whose META.json version is not ulid.control's");
}

note 'build and staged install from the archive';
my $build = "$work/unpacked/ulid-$version";
SKIP:
{
	skip 'make dist wrote no archive', 3 unless @entries;
	must_run(
		'unpack the archive',
		sub {
			for (@entries)
			{
				my ($name, $data) = @$_;
				my $path = "$work/unpacked/$name";
				if ($name =~ m{/$})
				{
					make_path($path);
					next;
				}
				make_path($path =~ s{/[^/]*$}{}r);
				open(my $fh, '>', $path) or die "$path: $!";
				print $fh $data;
				close $fh or die "$path: $!";
			}
		});
	my ($rc, $out) = run_cmd('make', '-C', $build, '-s', '-j2', "PG_CONFIG=$pg_config");
	ok($rc == 0 && -f "$build/ulid.so", 'the unpacked archive builds with PGXS (ulid.so)')
	  or diag(tail(20, $out));
	skip 'the archive did not build', 1 unless -f "$build/ulid.so";
	($rc, $out) = run_cmd('make', '-C', $build, '-s', 'install', "PG_CONFIG=$pg_config",
		"DESTDIR=$work/stage");
	my $share  = pg_config_value('--sharedir',  $pg_config);
	my $pkglib = pg_config_value('--pkglibdir', $pg_config);
	my @unstaged = grep { !-f "$work/stage$_" } "$share/extension/ulid.control",
	  "$share/extension/ulid--$version.sql", "$pkglib/ulid.so";
	ok($rc == 0 && !@unstaged,
		"make install DESTDIR=... stages ulid.control, ulid--$version.sql and ulid.so under $share and $pkglib"
	) or diag($rc == 0 ? "not staged: @unstaged" : tail(20, $out));
}

note 'packaging took ' . (time - $started) . ' s';
done_testing();
