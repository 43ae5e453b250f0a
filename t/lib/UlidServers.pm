# The servers of other majors that the suites across majors use (t/210_pg_upgrade.pl,
# t/320_logical_upgrade.pl): the pinned builds of scripts/build/pg-build, and whether one has this
# tree's extension installed (such a suite runs as the user postgres and installs nothing:
# scripts/test installs this tree into each server in that server's own pass).
# A suite loads it with: use FindBin; use lib "$FindBin::RealBin/lib"; use UlidServers;
package UlidServers;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Utils;
use Test::More;
use UlidTest;

our @EXPORT = qw(pinned_server host_servers chroot_servers not_installed check_installed host15_servers);

# pinned_server(MAJOR): the prefix of MAJOR's server built by scripts/build/pg-build (in ULID_PG_CACHE,
# default /var/cache/ulid-pg), or undef and why not
sub pinned_server
{
	my ($major) = @_;
	my $cache = $ENV{ULID_PG_CACHE} || '/var/cache/ulid-pg';
	my $version;
	open my $fh, '<', 'scripts/pins/pg-versions'
	  or BAIL_OUT("scripts/pins/pg-versions: $!");
	while (<$fh>)
	{
		my @f = split;
		$version = $f[1] if @f >= 2 && $f[0] eq $major;
	}
	close $fh;
	return (undef, "scripts/pins/pg-versions pins no PostgreSQL $major")
	  unless defined $version;
	return (undef,
		"PostgreSQL $version is not built in $cache (scripts/build/pg-build $major)")
	  unless -x "$cache/$version/bin/pg_config";
	return ("$cache/$version", '');
}

# host_servers(): the pinned servers of 13, 14, 16, 17 and 18 (major => prefix, a hash reference),
# and why 14 or 16 is missing (an array reference; they are optional: they need ULID_PG_SRC_DIR);
# the whole file is skipped (plan skip_all, with the reason) when 13, 17 or 18 is not built
sub host_servers
{
	my (%prefix, @missing_14_16);
	for my $major (13, 14, 16, 17, 18)
	{
		my ($p, $why) = pinned_server($major);
		if (!defined $p)
		{
			plan skip_all => $why unless $major == 14 || $major == 16;
			push @missing_14_16, $why;
			next;
		}
		$prefix{$major} = $p;
	}
	return (\%prefix, \@missing_14_16);
}

# chroot_servers(THIS, PROGRAM): in the sid chroot (scripts/sid-chroot), Debian's 18 and 19 packages
# there (major => prefix, a hash reference), each with bin/PROGRAM; the whole file is skipped (plan
# skip_all, with the reason) in another pass than 19's (THIS: the major of the pass) or when one
# is missing
sub chroot_servers
{
	my ($this, $program) = @_;
	plan skip_all =>
	  "in the sid chroot this suite runs in the pass of 19 (this pass: $this)"
	  unless $this eq '19';
	my %prefix;
	for my $major (18, 19)
	{
		plan skip_all =>
		  "no postgresql-$major in the chroot (scripts/pins/sid-packages)"
		  unless -x "/usr/lib/postgresql/$major/bin/$program";
		$prefix{$major} = "/usr/lib/postgresql/$major";
	}
	return \%prefix;
}

# not_installed(PG_CONFIG, TREE_FILES): what of this tree's extension (UlidTest::extension_files, a hash
# reference) the server of PG_CONFIG lacks ('' when it has it all)
sub not_installed
{
	my ($pgc, $tree_file) = @_;
	my $share  = pg_config_value('--sharedir', $pgc);
	my $pkglib = pg_config_value('--pkglibdir', $pgc);
	my @missing;
	for my $f (sort keys %$tree_file)
	{
		my $at = "$share/extension/$f";
		if (!-f $at)
		{
			push @missing, "$f (missing)";
		}
		elsif (slurp_file($at) ne $tree_file->{$f})
		{
			push @missing, "$f (differs)";
		}
	}
	push @missing, "$pkglib/ulid.so (missing)" unless -f "$pkglib/ulid.so";
	return '' unless @missing;
	my $shown = join(', ', @missing[ 0 .. ($#missing < 5 ? $#missing : 4) ]);
	$shown .= ', ... (' . scalar(@missing) . ' in all)' if @missing > 5;
	return "$share/extension: $shown";
}

# check_installed(TREE_FILES, PREFIX, IN_CHROOT): one check per server of PREFIX (a hash reference,
# major => prefix) that it has this tree's extension (UlidTest::extension_files, a hash reference), what
# it lacks and who installs it when not; the end of the run (BAIL_OUT) when one lacks it
sub check_installed
{
	my ($tree_file, $prefix, $in_chroot) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my @majors = sort { $a <=> $b } keys %$prefix;
	my $all_installed = 1;
	for my $major (@majors)
	{
		my $missing = not_installed("$prefix->{$major}/bin/pg_config", $tree_file);
		$all_installed &&= $missing eq '';
		ok($missing eq '',
			"PostgreSQL $major ($prefix->{$major}) has this tree's extension installed");
		next if $missing eq '';
		diag("    not installed: $missing");
		diag(
			$in_chroot
			? '    scripts/test installs this tree into Debian\'s 18 and 19 in the pass of 19 in the chroot'
			: "    each major's pass of scripts/test installs this tree into its server (scripts/test --pg "
			  . join(',', @majors)
			  . '; the pass of 18 runs after the others); this file runs as postgres and installs nothing'
		);
	}
	BAIL_OUT("a server lacks this tree's extension (above)") unless $all_installed;
	return;
}

# host15_servers(): the servers of Debian 12's PostgreSQL 15 on the host that scripts/test starts,
# as root, for the pass of 19 in the sid chroot (its host15_up; ULID_HOST15 names their
# directories): mode (text, binary) => { port, sock (the socket directory), log (the server's log) },
# a hash reference, and '' or why there are none
sub host15_servers
{
	my $dir = $ENV{ULID_HOST15} // '';
	return ({},
		"ULID_HOST15 is not set: scripts/test starts the host's PostgreSQL 15 as root before the"
		  . ' TAP suites of the pass of 19 in the sid chroot (the user postgres can neither reach'
		  . " the host's root directory nor chroot(2) back into it), and none when the host has no 15"
	) if $dir eq '';
	my %server;
	for my $mode ('text', 'binary')
	{
		my $port = -f "$dir/$mode/port" ? slurp_file("$dir/$mode/port") : '';
		chomp $port;
		return ({}, "no port in $dir/$mode/port (scripts/test's host15_up)") unless $port =~ /^\d+$/;
		$server{$mode} =
		  { port => $port, sock => "$dir/$mode/sock", log => "$dir/$mode/log/server.log" };
	}
	return (\%server, '');
}

# A server this file did not start, as a node of the framework: Debian 12's 15 on the host, which
# scripts/test runs for the pass of 19 in the sid chroot. It is reached through its own socket
# directory with the client programs of INSTALL (the chroot's 19), and its log is the server's own;
# stop() and the framework's clean-up leave it alone (the node never started it: no pid), and
# scripts/test stops it after the suites.
package UlidServers::HostServer;

use parent -norequire, 'PostgreSQL::Test::Cluster';

# new(NAME, INSTALL, PORT, SOCKET_DIRECTORY, LOG)
sub new
{
	my ($class, $name, $install, $port, $sock, $log) = @_;
	my $self = PostgreSQL::Test::Cluster::new($class, $name,
		install_path => $install, port => $port);
	$self->{_ulid_sock} = $sock;
	$self->{_ulid_log}  = $log;
	return $self;
}

# (the framework's own until new() has set them: its constructor prints the node's connection string)
sub host    { return $_[0]->{_ulid_sock} // $_[0]->SUPER::host(); }
sub logfile { return $_[0]->{_ulid_log}  // $_[0]->SUPER::logfile(); }

package UlidServers;

1;
