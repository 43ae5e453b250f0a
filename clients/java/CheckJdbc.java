// pgjdbc against the server: text and binary transfer, parameters, ulid[], NULL, COPY, time range, errors.
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.util.PGobject;

public class CheckJdbc {
    static final String KNOWN = "01ARZ3NDEKTSV4RRFFQ69G5FAV", MAX = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";
    static final String BAD = "01ARZ3NDEKTSV4RRFFQ69G5FAU"; // U is not Crockford Base32
    static final UUID KNOWN_UUID = UUID.fromString("01563e3a-b5d3-d676-4c61-efb99302bd5b");
    static final String KNOWN_LOWER_ALIAS = KNOWN.toLowerCase().replace('1', 'l'); // reads as KNOWN
    static final int BULK_ROWS = 2000, RANGE_COUNT = 10;
    static final OffsetDateTime RANGE_LO = OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 0, ZoneOffset.UTC);
    static final OffsetDateTime RANGE_HI = RANGE_LO.plusHours(9);
    static final String ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    static int count, failed;

    static void ok(String what) {
        count++;
        System.out.println("ok   pgjdbc: " + what);
    }

    static void bad(String what) {
        count++;
        failed++;
        System.out.println("FAIL pgjdbc: " + what);
    }

    static void equal(String what, Object got, Object want) {
        if (Objects.deepEquals(got, want)) ok(what);
        else bad(what + ": got " + show(got) + ", expected " + show(want));
    }

    static String show(Object o) { // cut to 300 characters (a failed bulk comparison would print every id)
        String s = o instanceof Object[] ? Arrays.toString((Object[]) o)
                : o instanceof byte[] ? Arrays.toString((byte[]) o) : String.valueOf(o);
        return s.length() <= 300 ? s : s.substring(0, 300) + "... (" + s.length() + " characters)";
    }

    static void isUlid(String what, String v) {
        if (v != null && v.matches("[0-7][0-9A-HJKMNP-TV-Z]{25}")) ok(what + ": " + v);
        else bad(what + ": not a 26-character ULID string: " + v);
    }

    static String ulidOf(byte[] b) { // 16 bytes -> 26 characters
        java.math.BigInteger n = new java.math.BigInteger(1, b);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 26; i++, n = n.shiftRight(5)) s.insert(0, ALPHABET.charAt(n.intValue() & 31));
        return s.toString();
    }

    static byte[] bytesOf(UUID u) {
        return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
    }

    static List<String> elements(Array a) throws SQLException { // class and value of each element
        List<String> out = new ArrayList<>();
        for (Object e : (Object[]) a.getArray()) out.add(e == null ? null : e.getClass().getSimpleName() + " " + e);
        return out;
    }

    static Object one(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getObject(1);
            }
        }
    }

    static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) p.setProperty(kv[i], kv[i + 1]);
        return p;
    }

    static void reads(Connection c, String mode) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT gen_ulid(), ?::ulid, ARRAY[?::ulid, NULL, '" + MAX + "'], NULL::ulid")) {
            for (int round = 1; round <= 3; round++) { // prepareThreshold=1: server-prepared from round 2 on
                ps.setString(1, KNOWN);
                ps.setString(2, KNOWN);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    String tag = mode + ", execution " + round;
                    isUlid(tag + ": getString(gen_ulid())", rs.getString(1));
                    Object o = rs.getObject(2);
                    equal(tag + ": getObject is a PGobject of type ulid", o instanceof PGobject
                            ? ((PGobject) o).getType() + " " + ((PGobject) o).getValue() : o, "ulid " + KNOWN);
                    equal(tag + ": ulid[] getArray is Object[] of PGobject (NULL element too)",
                            elements(rs.getArray(3)), Arrays.asList("PGobject " + KNOWN, null, "PGobject " + MAX));
                    equal(tag + ": NULL::ulid", Arrays.asList(rs.getString(4), rs.wasNull()), Arrays.asList(null, true));
                }
            }
        }
    }

    static void check() throws Exception {
        try (Connection c = UlidJdbc.connect(props())) {
            reads(c, "text (default)");
        }
        try (Connection c = UlidJdbc.connect(props("prepareThreshold", "1"))) {
            reads(c, "prepareThreshold=1");
        }
        try (Connection c = UlidJdbc.connect(props())) {
            String oid = String.valueOf(one(c, "SELECT 'ulid'::regtype::oid"));
            try (Connection b = UlidJdbc.connect(props("prepareThreshold", "-1", "binaryTransferEnable", oid));
                 PreparedStatement ps = b.prepareStatement("SELECT ?::ulid")) {
                ps.setString(1, KNOWN);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    byte[] raw = rs.getBytes(1);
                    equal("binary transfer (binaryTransferEnable=ulid's oid): getBytes is the 16 bytes", raw, bytesOf(KNOWN_UUID));
                    equal("binary transfer: getString is null (so leave ulid out of binaryTransferEnable)", rs.getString(1), null);
                    equal("binary transfer: the 16 bytes as 26 characters", ulidOf(raw), KNOWN);
                }
            }
        }
        try (Connection c = UlidJdbc.connect(props()); Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE t (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref ulid, refs ulid[])");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (ref) VALUES (?::ulid) RETURNING ref")) {
                ps.setString(1, KNOWN_LOWER_ALIAS);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    equal("setString with ?::ulid (lower case, l for 1)", rs.getString(1), KNOWN);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM t WHERE ref = ?")) {
                ps.setString(1, KNOWN);
                ps.executeQuery();
                bad("setString with ref = ? (varchar): no error");
            } catch (SQLException e) {
                equal("setString with ref = ? fails: ulid = character varying (SQLSTATE 42883)", e.getSQLState(), "42883");
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM t WHERE ref = ?")) {
                ps.setObject(1, KNOWN, Types.OTHER);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    equal("setObject(s, Types.OTHER) with ref = ?", rs.getLong(1), 1L);
                }
            }
            equal("setObject(UUID) through the uuid -> ulid cast", one(c, "SELECT ?::ulid::text", KNOWN_UUID), KNOWN);
            equal("setBytes (16 bytes) through the bytea -> ulid cast", one(c, "SELECT ?::ulid::text", (Object) bytesOf(KNOWN_UUID)), KNOWN);
            equal("INSERT of a UUID into a ulid column (assignment cast)",
                    one(c, "INSERT INTO t (ref) VALUES (?) RETURNING ref::text", KNOWN_UUID), KNOWN);
            // ulid 0.3.0: setObject(java.util.UUID) is sent typed uuid; ulid = uuid uses the ulid index
            st.execute("CREATE TEMP TABLE native_uuid (id ulid PRIMARY KEY, n int)");
            st.execute("INSERT INTO native_uuid SELECT gen_ulid(), i FROM generate_series(1, 2000) AS i");
            st.execute("INSERT INTO native_uuid VALUES ('" + KNOWN + "', 0)");
            st.execute("ANALYZE native_uuid");
            equal("WHERE id = ? with setObject(UUID) on a ulid key (ulid = uuid)",
                    one(c, "SELECT n FROM native_uuid WHERE id = ?", KNOWN_UUID), 0);
            StringBuilder plan = new StringBuilder();
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN SELECT n FROM native_uuid WHERE id = ?")) {
                ps.setObject(1, KNOWN_UUID);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) plan.append(rs.getString(1)).append('\n');
                }
            }
            equal("... through the index (native_uuid_pkey)", plan.toString().contains("native_uuid_pkey"), true);
            equal("WHERE id = ANY(?) with createArrayOf(\"uuid\", UUID[])",
                    one(c, "SELECT count(*) FROM native_uuid WHERE id = ANY(?)",
                        c.createArrayOf("uuid", new UUID[] {KNOWN_UUID, UUID.randomUUID()})), 1L);
            Array arr = c.createArrayOf("ulid", new String[] {KNOWN, null, MAX});
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t (ref, refs) VALUES (?, ?) RETURNING ref, refs")) {
                ps.setNull(1, Types.OTHER);
                ps.setArray(2, arr);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    equal("setArray(createArrayOf(\"ulid\", String[])) and setNull", Arrays.asList(rs.getString(1),
                            elements(rs.getArray(2))), Arrays.asList(null, Arrays.asList("PGobject " + KNOWN, null, "PGobject " + MAX)));
                }
            }
        }
        try (Connection c = UlidJdbc.connect(props("stringtype", "unspecified"))) {
            equal("stringtype=unspecified: setString with ref = ?", one(c, "SELECT count(*) FROM (SELECT ?::text::ulid AS ref) s WHERE ref = ?",
                    KNOWN, KNOWN_LOWER_ALIAS), 1L);
        }
        try (Connection c = UlidJdbc.connect(props()); Statement st = c.createStatement()) {
            st.execute("CREATE TEMP TABLE t (id ulid)");
            org.postgresql.copy.CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            SecureRandom rnd = new SecureRandom();
            for (String fmt : new String[] {"text", "binary"}) {
                st.execute("TRUNCATE t");
                List<String> ids = new ArrayList<>();
                StringBuilder text = new StringBuilder();
                ByteArrayOutputStream bin = new ByteArrayOutputStream();
                bin.write("PGCOPY\n\377\r\n\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                bin.write(new byte[8]);
                for (int i = 0; i < BULK_ROWS; i++) {
                    byte[] b = new byte[16];
                    rnd.nextBytes(b);
                    ids.add(ulidOf(b));
                    text.append(ulidOf(b)).append('\n');
                    bin.write(new byte[] {0, 1, 0, 0, 0, 16});
                    bin.write(b);
                }
                bin.write(new byte[] {-1, -1});
                long n = fmt.equals("text") ? copy.copyIn("COPY t FROM STDIN", new StringReader(text.toString()))
                        : copy.copyIn("COPY t FROM STDIN (FORMAT binary)", new java.io.ByteArrayInputStream(bin.toByteArray()));
                Collections.sort(ids);
                equal("CopyManager.copyIn (" + fmt + "): " + BULK_ROWS + " rows, the same ids",
                        Arrays.asList(n, one(c, "SELECT string_agg(id::text, ',' ORDER BY id) FROM t")),
                        Arrays.asList((long) BULK_ROWS, String.join(",", ids)));
                if (fmt.equals("text")) {
                    StringWriter out = new StringWriter();
                    copy.copyOut("COPY (SELECT id FROM t ORDER BY id) TO STDOUT", out);
                    equal("CopyManager.copyOut (text): the same ids", Arrays.asList(out.toString().split("\n")), ids);
                }
            }
            st.execute("CREATE TEMP TABLE r AS SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id"
                    + " FROM generate_series(0, 47) AS i");
            try (PreparedStatement ps = c.prepareStatement("SELECT ulid_to_timestamp(id) FROM r"
                    + " WHERE id BETWEEN ulid_min(?) AND ulid_max(?) ORDER BY id")) {
                ps.setObject(1, RANGE_LO);
                ps.setObject(2, RANGE_HI);
                List<OffsetDateTime> ts = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) ts.add(rs.getObject(1, OffsetDateTime.class));
                }
                equal("time range with ulid_min(?)/ulid_max(?) and OffsetDateTime parameters", ts.size(), RANGE_COUNT);
                equal("time range: first and last row on the bounds", Arrays.asList(ts.get(0).toInstant(),
                        ts.get(ts.size() - 1).toInstant()), Arrays.asList(RANGE_LO.toInstant(), RANGE_HI.toInstant()));
            }
            // ulid 0.4.0: id compared with a time. setObject(OffsetDateTime) binds a timestamptz;
            // setTimestamp binds an untyped parameter, which the server takes as a ulid (22P02 with a
            // hint), unless the SQL says ?::timestamptz.
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM r WHERE id >= ? AND id <= ?")) {
                ps.setObject(1, RANGE_LO);
                ps.setObject(2, RANGE_HI);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    equal("time range as id >= ? AND id <= ? with OffsetDateTime parameters", rs.getInt(1), RANGE_COUNT);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM r WHERE id >= ?::timestamptz AND id <= ?::timestamptz")) {
                ps.setTimestamp(1, java.sql.Timestamp.from(RANGE_LO.toInstant()));
                ps.setTimestamp(2, java.sql.Timestamp.from(RANGE_HI.toInstant()));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    equal("time range as id >= ?::timestamptz with setTimestamp", rs.getInt(1), RANGE_COUNT);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM r WHERE id >= ?")) {
                ps.setTimestamp(1, java.sql.Timestamp.from(RANGE_LO.toInstant()));
                ps.executeQuery();
                bad("id >= ? with setTimestamp: no error");
            } catch (org.postgresql.util.PSQLException e) {
                String hint = e.getServerErrorMessage() == null ? null : e.getServerErrorMessage().getHint();
                equal("id >= ? with setTimestamp: 22P02, the hint names ::timestamptz", Arrays.asList(e.getSQLState(),
                        hint != null && hint.startsWith("To compare a ulid with a time, write the time as a timestamptz")),
                        Arrays.asList("22P02", true));
            }
            try {
                one(c, "SELECT ?::ulid", BAD);
                bad("bad string: no error");
            } catch (org.postgresql.util.PSQLException e) {
                equal("bad string: PSQLException with SQLSTATE 22P02", Arrays.asList(e.getSQLState(),
                        e.getServerErrorMessage().getMessage()), Arrays.asList("22P02", "invalid input syntax for type ulid: \"" + BAD + "\""));
            }
        }
        PrintStream stdout = System.out;
        ByteArrayOutputStream demo = new ByteArrayOutputStream();
        System.setOut(new PrintStream(demo, true, "UTF-8"));
        try {
            UlidJdbc.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        equal("the recipe (UlidJdbc) prints 26 signup", demo.toString("UTF-8"), "26 signup\n");
    }

    public static void main(String[] args) {
        try {
            check();
        } catch (Exception e) {
            bad("unexpected " + e);
            e.printStackTrace(System.out);
        }
        System.out.println("# pgjdbc: " + count + " checks, " + failed + " failed");
        System.exit(failed > 0 || count == 0 ? 1 : 0);
    }
}
