// pgjdbc: ulid reads as a String with getString (also after prepareThreshold's switch to binary
// transfer); bind a String with ?::ulid, because setString sends varchar; compare the key with a
// time by binding an OffsetDateTime (a timestamptz), never setTimestamp (untyped: read as a ulid).
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.Properties;

public class UlidJdbc {
    static Connection connect(Properties props) throws SQLException { // from the PG* environment
        props.setProperty("user", System.getenv("PGUSER"));
        props.setProperty("password", System.getenv("PGPASSWORD"));
        return DriverManager.getConnection("jdbc:postgresql://" + System.getenv("PGHOST") + ":"
                + System.getenv("PGPORT") + "/" + System.getenv("PGDATABASE"), props);
    }

    public static void main(String[] args) throws SQLException {
        try (Connection conn = connect(new Properties()); Statement st = conn.createStatement()) {
            st.execute("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), what text)");
            String id;
            try (PreparedStatement ins = conn.prepareStatement("INSERT INTO events (what) VALUES (?) RETURNING id")) {
                ins.setString(1, "signup");
                try (ResultSet rs = ins.executeQuery()) {
                    rs.next();
                    id = rs.getString("id"); // 26 characters
                }
            }
            try (PreparedStatement q = conn.prepareStatement(
                    "SELECT what FROM events WHERE id = ?::ulid AND id BETWEEN ? AND ?")) {
                q.setString(1, id);
                q.setObject(2, OffsetDateTime.now().minusHours(1));
                q.setObject(3, OffsetDateTime.now());
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    System.out.println(id.length() + " " + rs.getString("what")); // 26 signup
                }
            }
        }
    }
}
