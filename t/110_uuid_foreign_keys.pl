# A uuid column referencing a ulid key (0.3.0): the statements PostgreSQL's referential triggers run,
# with the plans auto_explain reports for them (auto_explain.log_nested_statements, NOTICE level):
# inserting a child looks the parent up through the ulid primary key; deleting a parent (ON DELETE
# CASCADE and NO ACTION) and changing its key (ON UPDATE CASCADE) find the children through the
# child's uuid_ulid_ops index, which with only core's uuid_ops index on the child they cannot (a
# sequential scan); a ulid column cannot reference a uuid key.
#
# A server of its own (auto_explain from contrib, LOADed per session). Tables fk_parent (id ulid
# PRIMARY KEY, 2,000 rows) and fk_orders (parent_id uuid NOT NULL REFERENCES fk_parent ON DELETE
# CASCADE ON UPDATE CASCADE, 20 orders per parent, an index on parent_id in uuid_ulid_ops):
#   - inserting a child: the check scans fk_parent_pkey once (counted with
#     pg_stat_get_xact_numscans in the inserting transaction: 19 checks a new child's key without a
#     query, so there is no plan to show there); before 19, the plan of the check reads fk_parent
#     through fk_parent_pkey; an unknown parent is refused (23503);
#   - deleting a parent (ON DELETE CASCADE) and changing its key (ON UPDATE CASCADE): the plan of
#     the referential statement reads fk_orders through fk_orders_parent, and the rows are right
#     (the 20 orders gone; the orders follow the new key);
#   - with the constraint made NO ACTION: the check reads fk_orders through fk_orders_parent and the
#     delete is refused (23503);
#   - with only core's uuid_ops index on parent_id instead: the check scans fk_orders sequentially
#     (the ulid-typed lookup has no index, which is why uuid_ulid_ops exists).
# And the order docs/migrating.md gives: a ulid column cannot reference a uuid key (42804: core's
# uuid family does not know ulid, and the extension does not alter core's objects). About 5 s.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $t0 = time;

my $node = PostgreSQL::Test::Cluster->new('uuid_fk');
$node->init;
$node->start;

# query SQL: psql's output (-XAtq, ON_ERROR_STOP=1, client_min_messages = warning); on an error, the
# error as a diagnostic and '' as the output, so the check that reads it fails
sub query
{
	my ($sql) = @_;
	my ($rc, $out, $err) =
	  $node->psql('postgres', "SET client_min_messages = warning;\n$sql");
	if ($rc != 0)
	{
		diag("query failed: $err");
		return '';
	}
	return $out;
}

# must NAME SQL: a set-up step; nothing after it can be checked when it fails
sub must
{
	my ($name, $sql) = @_;
	my ($rc, $out, $err) =
	  $node->psql('postgres', "SET client_min_messages = warning;\n$sql");
	ok($rc == 0, $name) or BAIL_OUT("set-up step failed: $name: $err");
	return;
}

# plans SQL: run SQL with auto_explain on for nested statements (NOTICE level, ON_ERROR_STOP);
# returns psql's stderr: the plans, and the error if SQL failed
sub plans
{
	my ($sql) = @_;
	my ($rc, $out, $err) = $node->psql(
		'postgres', "SET client_min_messages = notice;
LOAD 'auto_explain';
SET auto_explain.log_min_duration = 0;
SET auto_explain.log_nested_statements = on;
SET auto_explain.log_level = notice;
$sql");
	return $err;
}

# scan_after_query TABLE, REGEX, PLANS: the first plan line matching REGEX in the plan of the
# statement whose query text names "TABLE" (the referential trigger's statement)
sub scan_after_query
{
	my ($table, $re, $plans) = @_;
	my $in = 0;
	foreach my $line (split /\n/, $plans)
	{
		if ($line =~ /Query Text: .*"\Q$table\E"/)
		{
			$in = 1;
			next;
		}
		$in = 0 if $line =~ /Query Text:/;
		return $line if $in && $line =~ $re;
	}
	return '';
}

# child_lookup PLANS: the plan line that reads the children in a referential statement (without
# its costs)
sub child_lookup
{
	my ($plans) = @_;
	my $line = scan_after_query('fk_orders',
		qr/(Index Scan using|Index Only Scan using|Bitmap Index Scan on|Seq Scan on)/,
		$plans);
	$line =~ s/  \(cost=.*//;
	$line =~ s/^\s*//;
	$line =~ s/^->\s*//;
	return $line;
}

must('extension', 'CREATE EXTENSION IF NOT EXISTS ulid');
must(
	'parents (ulid key) and orders (uuid reference, ON DELETE CASCADE ON UPDATE CASCADE) with a uuid_ulid_ops index',
	q{
    CREATE TABLE fk_parent (id ulid PRIMARY KEY);
    CREATE TABLE fk_orders (id ulid PRIMARY KEY DEFAULT gen_ulid(),
                            parent_id uuid NOT NULL REFERENCES fk_parent ON DELETE CASCADE ON UPDATE CASCADE);
    CREATE INDEX fk_orders_parent ON fk_orders (parent_id uuid_ulid_ops);
    INSERT INTO fk_parent SELECT md5(i::text)::uuid FROM generate_series(1, 2000) i;
    INSERT INTO fk_orders (parent_id) SELECT p.id FROM fk_parent p, generate_series(1, 20);
    VACUUM ANALYZE fk_parent, fk_orders;});

note 'inserting a child: the parent through its ulid key';
# 19 checks a new child's key without a query (no plan to show): the index's scan count in the
# inserting transaction tells on every major (the insert itself names the key by a constant)
is( query(
		q{BEGIN;
    INSERT INTO fk_orders (parent_id) VALUES (md5('1')::uuid);
    SELECT pg_stat_get_xact_numscans('fk_parent_pkey'::regclass);
    ROLLBACK;}),
	'1',
	'the check scans fk_parent_pkey once');
if (query('SHOW server_version_num') < 190000)
{
	my $out = plans(
		'INSERT INTO fk_orders (parent_id) SELECT id FROM fk_parent ORDER BY id LIMIT 1;');
	like(
		scan_after_query('fk_parent', qr/Scan (on|using)/, $out),
		qr/Index (Only )?Scan using fk_parent_pkey on fk_parent/,
		'the check reads fk_parent through fk_parent_pkey');
}
my ($rc, $out, $err) = $node->psql('postgres',
	"INSERT INTO fk_orders (parent_id) VALUES ('00000000-0000-0000-0000-000000000001')"
);
like(
	$err,
	qr/violates foreign key constraint "fk_orders_parent_id_fkey"/,
	'an unknown parent is refused (23503)');

note 'deleting a parent: the children through the uuid_ulid_ops index';
my $victim = query('SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 10');
$out = plans("DELETE FROM fk_parent WHERE id = '$victim';");
like(
	child_lookup($out),
	qr/(Bitmap Index Scan on|Index Scan using) fk_orders_parent/,
	'ON DELETE CASCADE reads fk_orders through fk_orders_parent');
is(query("SELECT count(*) FROM fk_orders WHERE parent_id = '$victim'::ulid"),
	'0', 'its 20 orders are gone');

note "changing a parent's key: ON UPDATE CASCADE, through the index";
my $old = query('SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 20');
$out = plans(
	"UPDATE fk_parent SET id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' WHERE id = '$old';");
like(
	child_lookup($out),
	qr/(Bitmap Index Scan on|Index Scan using) fk_orders_parent/,
	'ON UPDATE CASCADE reads fk_orders through fk_orders_parent');
is( query(
		"SELECT count(*) FILTER (WHERE parent_id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid) || '/' || count(*) FILTER (WHERE parent_id = '$old'::ulid) FROM fk_orders"
	),
	'20/0',
	'its orders follow the new key');

note 'NO ACTION: the check finds the children through the index and refuses';
must(
	'NO ACTION instead of CASCADE',
	q{ALTER TABLE fk_orders DROP CONSTRAINT fk_orders_parent_id_fkey,
    ADD CONSTRAINT fk_orders_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES fk_parent});
my $busy = query('SELECT id FROM fk_parent ORDER BY id LIMIT 1 OFFSET 30');
$out = plans("DELETE FROM fk_parent WHERE id = '$busy';");
like(
	child_lookup($out),
	qr/(Bitmap Index Scan on|Index Scan using) fk_orders_parent/,
	'the NO ACTION check reads fk_orders through fk_orders_parent');
like(
	$out,
	qr/is still referenced from table "fk_orders"/,
	'... and refuses (23503)');

note "with only core's uuid_ops index on the child: no index for the ulid-typed lookup";
must("the child's index in core's uuid_ops instead",
	'DROP INDEX fk_orders_parent; CREATE INDEX fk_orders_parent_core ON fk_orders (parent_id); ANALYZE fk_orders'
);
$out = plans("DELETE FROM fk_parent WHERE id = '$busy';");
like(
	child_lookup($out),
	qr/Seq Scan on fk_orders/,
	'the check then scans fk_orders sequentially');

note 'the other direction is refused: a ulid column cannot reference a uuid key';
($rc, $out, $err) = $node->psql('postgres',
	'CREATE TABLE fk_uuid_parent (id uuid PRIMARY KEY); CREATE TABLE fk_bad (p ulid REFERENCES fk_uuid_parent)'
);
like(
	$err,
	qr/foreign key constraint "fk_bad_p_fkey" cannot be implemented/,
	'ulid -> uuid key: 42804, incompatible types');

note 'took ' . (time - $t0) . ' s';
done_testing();
