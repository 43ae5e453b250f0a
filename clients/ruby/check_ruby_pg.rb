# ruby-pg against the server: text and binary results, parameters, ulid[], NULL, COPY, time range, errors.
require "pg"
require "securerandom"
require "time"
require_relative "ulid_pg"

KNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV"
KNOWN_BYTES = ["01563e3ab5d3d6764c61efb99302bd5b"].pack("H*")
KNOWN_LOWER_ALIAS = KNOWN.downcase.tr("1", "l") # reads as KNOWN
MAX = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"
BAD = "01ARZ3NDEKTSV4RRFFQ69G5FAU" # U is not Crockford Base32
BULK_ROWS = 2000
RANGE_LO = Time.utc(2024, 1, 1, 10)
RANGE_HI = Time.utc(2024, 1, 1, 19)
$checks = 0
$failed = 0

def ok(what) = ($checks += 1) && puts("ok   ruby-pg: #{what}")

def bad(what)
  $checks += 1
  $failed += 1
  puts "FAIL ruby-pg: #{what}"
end

# inspect, cut to 300 characters (a failed bulk comparison would print every id)
def short(value) = (s = value.inspect).size <= 300 ? s : "#{s[0, 300]}... (#{s.size} characters)"

def equal(what, got, want) = got == want ? ok(what) : bad("#{what}: got #{short(got)}, expected #{short(want)}")

def ulid?(what, v) = v.is_a?(String) && v.match?(/\A[0-7][0-9A-HJKMNP-TV-Z]{25}\z/) ? ok("#{what}: #{v}") : bad("#{what}: #{v.inspect}")

def bad_string(what)
  yield
  bad("#{what}: no error")
rescue PG::InvalidTextRepresentation => e
  equal("#{what}: PG::InvalidTextRepresentation", [e.result.error_field(PG::PG_DIAG_SQLSTATE),
        e.result.error_field(PG::PG_DIAG_MESSAGE_PRIMARY)], ["22P02", "invalid input syntax for type ulid: \"#{BAD}\""])
end

def ulid_of(bytes) = UlidPG::BinaryDecoder.new.decode(bytes)

begin
  conn = PG.connect
  ulid?("text results, default: gen_ulid() is a String", conn.exec("SELECT gen_ulid()").getvalue(0, 0))
  equal("binary results, default: the 16 raw bytes", conn.exec_params("SELECT $1::ulid", [KNOWN], 1).getvalue(0, 0), KNOWN_BYTES)
  equal("text results, default: ulid[] is one unparsed String",
        conn.exec_params("SELECT ARRAY[$1::ulid, NULL, '#{MAX}']", [KNOWN]).getvalue(0, 0), "{#{KNOWN},NULL,#{MAX}}")
  bad_string("default: bad string parameter") { conn.exec_params("SELECT $1::ulid", [BAD]) }
  equal("default, binary parameter: 16 bytes read by ulid_recv",
        conn.exec_params("SELECT $1::ulid::text", [{ value: KNOWN_BYTES, format: 1 }]).getvalue(0, 0), KNOWN)
  equal("default, binary parameter: 16 bytes as uuid through the uuid -> ulid cast",
        conn.exec_params("SELECT $1::uuid::ulid::text", [{ value: KNOWN_BYTES, format: 1 }]).getvalue(0, 0), KNOWN)
  # ulid 0.3.0: a parameter typed uuid (ruby-pg's way to send a UUID: the type's OID, 2950) on a
  # ulid key compares through ulid = uuid and uses the index; untyped it would be read as ulid.
  ["CREATE TEMP TABLE native_uuid (id ulid PRIMARY KEY, n int)",
   "INSERT INTO native_uuid SELECT gen_ulid(), i FROM generate_series(1, 2000) AS i",
   "INSERT INTO native_uuid VALUES ('#{KNOWN}', 0)", "ANALYZE native_uuid"].each { |sql| conn.exec(sql) }
  known_uuid = KNOWN_BYTES.unpack1("H*").sub(/\A(.{8})(.{4})(.{4})(.{4})/, '\1-\2-\3-\4-')
  [[{ value: known_uuid, type: 2950 }, "text"], [{ value: KNOWN_BYTES, type: 2950, format: 1 }, "binary"]].each do |param, fmt|
    equal("WHERE id = $1 with a uuid-typed parameter (#{fmt}) on a ulid key (ulid = uuid)",
          conn.exec_params("SELECT n FROM native_uuid WHERE id = $1", [param]).getvalue(0, 0), "0")
    plan = conn.exec_params("EXPLAIN SELECT n FROM native_uuid WHERE id = $1", [param]).column_values(0).join("\n")
    plan.include?("native_uuid_pkey") ? ok("... through the index (native_uuid_pkey)") : bad("... through the index: #{short(plan)}")
  end

  UlidPG.register(conn)
  ulid?("registered, binary results: gen_ulid()", conn.exec_params("SELECT gen_ulid()", [], 1).getvalue(0, 0))
  equal("registered, binary results: a known value", conn.exec_params("SELECT $1::ulid", [KNOWN_LOWER_ALIAS], 1).getvalue(0, 0), KNOWN)
  equal("registered, text results: ulid[] is an Array (NULL element too)",
        conn.exec_params("SELECT ARRAY[$1::ulid, NULL, '#{MAX}']", [KNOWN]).getvalue(0, 0), [KNOWN, nil, MAX])
  equal("text and binary results: NULL::ulid is nil", [0, 1].map { |f| conn.exec_params("SELECT NULL::ulid", [], f).getvalue(0, 0) }, [nil, nil])

  conn.exec("CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])")
  equal("String parameter (lower case, l for 1) into a ulid column",
        conn.exec_params("INSERT INTO t (ref) VALUES ($1) RETURNING ref", [KNOWN_LOWER_ALIAS]).getvalue(0, 0), KNOWN)
  equal("WHERE ref = $1 with a String", conn.exec_params("SELECT count(*) FROM t WHERE ref = $1", [KNOWN]).getvalue(0, 0), 1)
  row = conn.exec_params("INSERT INTO t (ref, refs) VALUES ($1, $2::ulid[]) RETURNING ref, refs", [nil, [KNOWN, nil, MAX]]).first
  equal("nil parameter as NULL and an Array as ulid[]", [row["ref"], row["refs"]], [nil, [KNOWN, nil, MAX]])

  %w[text binary].each do |fmt|
    conn.exec("TRUNCATE t")
    raw = Array.new(BULK_ROWS) { SecureRandom.random_bytes(16) }
    ids = raw.map { |b| ulid_of(b) }
    conn.copy_data("COPY t (id) FROM STDIN (FORMAT #{fmt})") do
      if fmt == "text"
        ids.each { |i| conn.put_copy_data("#{i}\n") }
      else
        conn.put_copy_data("PGCOPY\n\xFF\r\n\0".b + "\0" * 8)
        raw.each { |b| conn.put_copy_data([1, 16].pack("s>l>") + b) }
        conn.put_copy_data([-1].pack("s>"))
      end
    end
    equal("COPY FROM STDIN (FORMAT #{fmt}): #{BULK_ROWS} rows, the same ids",
          conn.exec("SELECT count(*), string_agg(id::text, ',' ORDER BY id) FROM t").values.first, [BULK_ROWS, ids.sort.join(",")])
  end
  out = +""
  conn.copy_data("COPY (SELECT id FROM t ORDER BY id) TO STDOUT") { while (line = conn.get_copy_data) do out << line end }
  equal("COPY TO STDOUT (text): the same ids", out.split("\n"), conn.exec("SELECT id::text FROM t ORDER BY id").column_values(0))

  conn.exec("CREATE TEMP TABLE r AS SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id FROM generate_series(0, 47) AS i")
  ts = conn.exec_params("SELECT ulid_to_timestamp(id) FROM r WHERE id BETWEEN ulid_min($1) AND ulid_max($2) ORDER BY id",
                        [RANGE_LO, RANGE_HI]).column_values(0)
  equal("time range with ulid_min($1)/ulid_max($2) and Time parameters", ts.size, 10)
  equal("time range: first and last row on the bounds", [ts.first, ts.last].map(&:utc), [RANGE_LO, RANGE_HI])
  bad_string("registered: bad string parameter") { conn.exec_params("SELECT $1::ulid", [BAD]) }

  demo = IO.popen([RbConfig.ruby, File.join(__dir__, "ulid_pg.rb")], &:read)
  equal("the recipe runs", [$?.success?, demo], [true, "[26, [\"#{KNOWN}\"], true]\n"])
rescue StandardError => e
  bad("unexpected #{e.class}: #{e.message}")
end
puts "# ruby-pg: #{$checks} checks, #{$failed} failed"
exit($failed.zero? && $checks.positive? ? 0 : 1)
