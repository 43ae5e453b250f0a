// pgx v4 against the server: default text, ulidpgx in binary, parameters, ulid[], NULL, COPY, time range, errors.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
	"ulidclients/ulidpgx"
)

const (
	known     = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
	max       = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
	bad       = "01ARZ3NDEKTSV4RRFFQ69G5FAU" // U is not Crockford Base32
	bulkRows  = 2000
	rangeRows = 10
)

var (
	ctx        = context.Background()
	knownBytes = [16]byte{0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76, 0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b}
	knownAlias = strings.ReplaceAll(strings.ToLower(known), "1", "l") // reads as known
	ulidRE     = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
	rangeLo    = time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	rangeHi    = time.Date(2024, 1, 1, 19, 0, 0, 0, time.UTC)
	checks     int
	failed     int
)

func ok(what string) { checks++; fmt.Println("ok   pgx: " + what) }
func fail(what string) {
	checks++
	failed++
	fmt.Println("FAIL pgx: " + what)
}

func equal(what string, got, want interface{}) {
	if reflect.DeepEqual(got, want) {
		ok(what)
	} else {
		fail(fmt.Sprintf("%s: got %s, expected %s", what, short(got), short(want)))
	}
}

// short: %#v of a value, cut to 300 characters (a failed bulk comparison would print every id)
func short(v interface{}) string {
	s := fmt.Sprintf("%#v", v)
	if len(s) > 300 {
		return fmt.Sprintf("%s... (%d characters)", s[:300], len(s))
	}
	return s
}

func isULID(what string, v string, err error) {
	if err == nil && ulidRE.MatchString(v) {
		ok(what + ": " + v)
	} else {
		fail(fmt.Sprintf("%s: %q, %v", what, v, err))
	}
}

func noErr(what string, err error) bool {
	if err != nil {
		fail(fmt.Sprintf("%s: %v", what, err))
	}
	return err == nil
}

func sqlstate(what string, err error) {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		equal(what+": *pgconn.PgError", []string{pgErr.Code, pgErr.Message},
			[]string{"22P02", `invalid input syntax for type ulid: "` + bad + `"`})
	} else {
		fail(fmt.Sprintf("%s: not a *pgconn.PgError: %v", what, err))
	}
}

func connect() *pgx.Conn {
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		fail("connect: " + err.Error())
		summary()
	}
	return conn
}

func summary() {
	fmt.Printf("# pgx: %d checks, %d failed\n", checks, failed)
	if failed > 0 || checks == 0 {
		os.Exit(1)
	}
	os.Exit(0)
}

func defaults() {
	conn := connect()
	defer conn.Close(ctx)
	var s string
	isULID("default (text for an unknown type): gen_ulid() scans into a string", s, conn.QueryRow(ctx, "SELECT gen_ulid()").Scan(&s))
	var raw []byte
	err := conn.QueryRow(ctx, "SELECT $1::ulid", pgx.QueryResultFormats{pgx.BinaryFormatCode}, known).Scan(&raw)
	if noErr("default, binary result format", err) {
		equal("default, binary result format: the 16 raw bytes", raw, knownBytes[:])
	}
	equal("default: string parameter (lower case, l for 1)", func() string {
		var v string
		noErr("scan", conn.QueryRow(ctx, "SELECT $1::ulid", knownAlias).Scan(&v))
		return v
	}(), known)
	sqlstate("default: bad string parameter", conn.QueryRow(ctx, "SELECT $1::ulid", bad).Scan(&s))

	// ulid 0.3.0: a pgtype.UUID parameter on a ulid key. pgx takes parameter types from the server,
	// which reads `id = $1` as ulid: pgx, not knowing ulid, sends the UUID's binary form, its 16
	// bytes, which ulid_recv takes. Typed uuid ($1::uuid) it compares through ulid = uuid.
	nativeUUIDTable(conn)
	u := pgtype.UUID{Bytes: knownBytes, Status: pgtype.Present}
	var n int32
	if noErr("default: WHERE id = $1 with a pgtype.UUID ($1 is ulid; pgx sends the 16 bytes)", conn.QueryRow(ctx, "SELECT n FROM native_uuid WHERE id = $1", u).Scan(&n)) {
		equal("default: WHERE id = $1 with a pgtype.UUID finds the row", n, int32(0))
	}
	planUsesIndex("default: ... through the index", conn, "EXPLAIN SELECT n FROM native_uuid WHERE id = $1", u)
	if noErr("default: WHERE id = $1::uuid with a pgtype.UUID (ulid = uuid)", conn.QueryRow(ctx, "SELECT n FROM native_uuid WHERE id = $1::uuid", u).Scan(&n)) {
		equal("default: WHERE id = $1::uuid with a pgtype.UUID finds the row", n, int32(0))
	}
	planUsesIndex("default: ... through the index", conn, "EXPLAIN SELECT n FROM native_uuid WHERE id = $1::uuid", u)
}

// nativeUUIDTable: a ulid primary key with the known value among 2000 others
func nativeUUIDTable(conn *pgx.Conn) {
	for _, sql := range []string{
		"CREATE TEMP TABLE native_uuid (id ulid PRIMARY KEY, n int)",
		"INSERT INTO native_uuid SELECT gen_ulid(), i FROM generate_series(1, 2000) AS i",
		"INSERT INTO native_uuid VALUES ('" + known + "', 0)",
		"ANALYZE native_uuid",
	} {
		_, err := conn.Exec(ctx, sql)
		noErr(sql, err)
	}
}

// planUsesIndex: EXPLAIN with the parameter names native_uuid_pkey
func planUsesIndex(what string, conn *pgx.Conn, sql string, arg interface{}) {
	rows, err := conn.Query(ctx, sql, arg)
	if !noErr(what, err) {
		return
	}
	var plan, line string
	for rows.Next() {
		if rows.Scan(&line) == nil {
			plan += line + "\n"
		}
	}
	rows.Close()
	if strings.Contains(plan, "native_uuid_pkey") {
		ok(what + " (native_uuid_pkey)")
	} else {
		fail(what + ": " + short(plan))
	}
}

func registered() {
	conn := connect()
	defer conn.Close(ctx)
	if !noErr("ulidpgx.Register", ulidpgx.Register(ctx, conn)) {
		return
	}
	var s string
	isULID("registered (binary): gen_ulid() scans into a string", s, conn.QueryRow(ctx, "SELECT gen_ulid()").Scan(&s))
	var u ulidpgx.ULID
	if noErr("scan into ulidpgx.ULID", conn.QueryRow(ctx, "SELECT $1::text::ulid", known).Scan(&u)) {
		equal("registered: a known value as ULID (16 bytes, String())", []interface{}{u.Bytes, u.String()}, []interface{}{knownBytes, known})
	}
	var b [16]byte
	if noErr("scan into [16]byte", conn.QueryRow(ctx, "SELECT $1::ulid", knownAlias).Scan(&b)) {
		equal("registered: string parameter (lower case, l for 1, sent as text), scanned into [16]byte", b, knownBytes)
	}
	noErr("[16]byte parameter", conn.QueryRow(ctx, "SELECT $1::ulid::text", knownBytes).Scan(&s))
	equal("[16]byte parameter", s, known)
	noErr("[]byte parameter through the bytea -> ulid cast", conn.QueryRow(ctx, "SELECT $1::bytea::ulid::text", knownBytes[:]).Scan(&s))
	equal("[]byte parameter through the bytea -> ulid cast", s, known)
	noErr("uuid parameter through the uuid -> ulid cast", conn.QueryRow(ctx, "SELECT $1::uuid::ulid::text", knownBytes).Scan(&s))
	equal("uuid parameter ([16]byte as uuid) through the uuid -> ulid cast", s, known)
	nativeUUIDTable(conn)
	pu := pgtype.UUID{Bytes: knownBytes, Status: pgtype.Present}
	var found int32
	if noErr("registered: WHERE id = $1 with a pgtype.UUID (ulidpgx takes its 16 bytes)", conn.QueryRow(ctx, "SELECT n FROM native_uuid WHERE id = $1", pu).Scan(&found)) {
		equal("registered: WHERE id = $1 with a pgtype.UUID finds the row", found, int32(0))
	}
	planUsesIndex("registered: ... through the index", conn, "EXPLAIN SELECT n FROM native_uuid WHERE id = $1", pu)

	var arr []*string
	if noErr("ulid[] scan", conn.QueryRow(ctx, "SELECT ARRAY[$1::ulid, NULL, '"+max+"']", known).Scan(&arr)) && len(arr) == 3 {
		equal("registered: ulid[] scans into []*string (NULL element too)", []interface{}{*arr[0], arr[1], *arr[2]},
			[]interface{}{known, (*string)(nil), max})
	} else {
		fail(fmt.Sprintf("ulid[]: %#v", arr))
	}
	var null *string
	noErr("NULL scan", conn.QueryRow(ctx, "SELECT NULL::ulid").Scan(&null))
	equal("NULL::ulid scans into a nil *string", null, (*string)(nil))

	_, err := conn.Exec(ctx, "CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])")
	noErr("create table", err)
	var ref *string
	var refs []string
	err = conn.QueryRow(ctx, "INSERT INTO t (ref, refs) VALUES ($1, $2) RETURNING ref, refs::text[]", nil, []string{known, max}).Scan(&ref, &refs)
	if noErr("insert", err) {
		equal("nil parameter as NULL and []string as ulid[]", []interface{}{ref, refs}, []interface{}{(*string)(nil), []string{known, max}})
	}
	var n int
	_, err = conn.Exec(ctx, "INSERT INTO t (ref) VALUES ($1)", known)
	noErr("insert", err)
	noErr("count", conn.QueryRow(ctx, "SELECT count(*) FROM t WHERE ref = $1", known).Scan(&n))
	equal("WHERE ref = $1 with a string", n, 1)

	// binary COPY writes a Go string's bytes as they are: the server refuses 26 bytes for a ulid
	_, err = conn.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"id"}, pgx.CopyFromRows([][]interface{}{{known}}))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "22P03" {
		ok("CopyFrom with a string value: the server refuses its 26 bytes (22P03): copy ulidpgx.ULID values")
	} else {
		fail(fmt.Sprintf("CopyFrom with a string value: %v", err))
	}
	for _, how := range []string{"CopyFrom (binary COPY) of ulidpgx.ULID values", "PgConn().CopyFrom (COPY text)"} {
		_, err = conn.Exec(ctx, "TRUNCATE t")
		noErr("truncate", err)
		ids := make([]string, bulkRows)
		rows := make([][]interface{}, bulkRows)
		var text strings.Builder
		for i := range ids {
			var r [16]byte
			_, _ = rand.Read(r[:])
			u := ulidpgx.ULID{Bytes: r, Status: pgtype.Present}
			ids[i] = u.String()
			rows[i] = []interface{}{u}
			text.WriteString(ids[i] + "\n")
		}
		if strings.HasPrefix(how, "CopyFrom") {
			_, err = conn.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"id"}, pgx.CopyFromRows(rows))
		} else {
			_, err = conn.PgConn().CopyFrom(ctx, strings.NewReader(text.String()), "COPY t (id) FROM STDIN")
		}
		var got string
		if noErr(how, err) && noErr("read back", conn.QueryRow(ctx, "SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t").Scan(&n, &got)) {
			sort.Strings(ids)
			equal(fmt.Sprintf("%s: %d rows, the same ids", how, bulkRows), []interface{}{n, got}, []interface{}{bulkRows, strings.Join(ids, ",")})
		}
	}

	_, err = conn.Exec(ctx, "CREATE TEMP TABLE r AS SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id FROM generate_series(0, 47) AS i")
	noErr("range table", err)
	rows, err := conn.Query(ctx, "SELECT ulid_to_timestamp(id) FROM r WHERE id BETWEEN ulid_min($1) AND ulid_max($2) ORDER BY id", rangeLo, rangeHi)
	var ts []time.Time
	for err == nil && rows.Next() {
		var t time.Time
		err = rows.Scan(&t)
		ts = append(ts, t.UTC())
	}
	if noErr("time range query", err) && noErr("time range rows", rows.Err()) && len(ts) > 0 {
		equal("time range with ulid_min($1)/ulid_max($2) and time.Time parameters", len(ts), rangeRows)
		equal("time range: first and last row on the bounds", []time.Time{ts[0], ts[len(ts)-1]}, []time.Time{rangeLo, rangeHi})
	}
	sqlstate("registered: bad string as text", conn.QueryRow(ctx, "SELECT $1::text::ulid", bad).Scan(&s))
	sqlstate("registered: bad string parameter (strings go as text)", conn.QueryRow(ctx, "SELECT $1::ulid", bad).Scan(&s))
}

func main() {
	defaults()
	registered()
	summary()
}
