//! tokio-postgres against the server (run by t/350_clients.pl): Ulid in binary both ways, the text
//! protocol, strings, ulid[], NULL, a foreign key, bulk loads (binary COPY, unnest), a time range, errors.
use std::{fmt::Debug, io::Read, time::{Duration, SystemTime}};

use futures_util::pin_mut;
use tokio_postgres::{binary_copy::BinaryCopyInWriter, error::SqlState, types::Type, Client, NoTls,
                     SimpleQueryMessage};
use ulid_tokio_postgres::{config_from_env, Ulid};

const KNOWN: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
const KNOWN_BYTES: [u8; 16] = [0x01, 0x56, 0x3e, 0x3a, 0xb5, 0xd3, 0xd6, 0x76, 0x4c, 0x61, 0xef, 0xb9, 0x93, 0x02, 0xbd, 0x5b];
const MAX: &str = "7ZZZZZZZZZZZZZZZZZZZZZZZZZ";
const BAD: &str = "01ARZ3NDEKTSV4RRFFQ69G5FAU"; // U is not Crockford Base32
const BULK_ROWS: usize = 2000;
const RANGE_ROWS_SQL: &str = "SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id \
                              FROM generate_series(0, 47) AS i";

struct Checks {
    count: usize,
    failed: usize,
}

impl Checks {
    fn ok(&mut self, what: &str) {
        self.count += 1;
        println!("ok   tokio-postgres: {what}");
    }
    fn bad(&mut self, what: &str) {
        self.count += 1;
        self.failed += 1;
        println!("FAIL tokio-postgres: {what}");
    }
    fn equal<T: PartialEq + Debug>(&mut self, what: &str, got: T, want: T) {
        if got == want {
            self.ok(what)
        } else {
            let (g, w) = (format!("{got:?}"), format!("{want:?}"));
            self.bad(&format!("{what}: got {}, expected {}", &g[..g.len().min(300)], &w[..w.len().min(300)]))
        }
    }
    fn is_ulid(&mut self, what: &str, s: &str) {
        let good = s.len() == 26 && s.bytes().all(|c| b"0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains(&c)) && s.as_bytes()[0] <= b'7';
        if good { self.ok(&format!("{what}: {s}")) } else { self.bad(&format!("{what}: not a 26-character ULID: {s:?}")) }
    }
    /// the result must be tokio_postgres::Error with SQLSTATE 22P02 and the server's message
    fn bad_string<T: Debug>(&mut self, what: &str, r: Result<T, tokio_postgres::Error>) {
        match r {
            Ok(v) => self.bad(&format!("{what}: no error ({v:?})")),
            Err(e) => self.equal(&format!("{what}: tokio_postgres::Error, code 22P02"),
                                 (e.code().cloned(), e.as_db_error().map(|d| d.message().to_owned())),
                                 (Some(SqlState::INVALID_TEXT_REPRESENTATION),
                                  Some(format!("invalid input syntax for type ulid: \"{BAD}\"")))),
        }
    }
}

fn random_ulids(n: usize) -> Vec<Ulid> {
    let mut raw = vec![0u8; 16 * n];
    std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut raw)).expect("/dev/urandom");
    raw.chunks(16).map(|c| Ulid(c.try_into().unwrap())).collect()
}

fn utc(secs_after_2024: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_704_067_200 + secs_after_2024)
}

async fn checks(c: &mut Checks, client: &Client) -> Result<(), Box<dyn std::error::Error>> {
    let known: Ulid = KNOWN.parse()?;
    let alias = KNOWN.to_lowercase().replace('1', "l");
    c.equal("Ulid: parse and Display round trip, 16 bytes", (known.to_string(), known.0), (KNOWN.to_owned(), KNOWN_BYTES));
    c.equal("Ulid: parse reads lower case and l as 1", alias.parse::<Ulid>(), Ok(known));
    c.equal("Ulid: parse refuses a bad string before it is sent", BAD.parse::<Ulid>().is_err(), true);

    // text protocol (simple_query): strings, as the server prints them
    let text = client.simple_query("SELECT gen_ulid(), NULL::ulid").await?;
    // (tokio-postgres 0.7.11 and later send the RowDescription first: the first Row is looked for)
    match text.iter().find(|m| matches!(m, SimpleQueryMessage::Row(_))) {
        Some(SimpleQueryMessage::Row(row)) => {
            c.is_ulid("text protocol (simple_query): gen_ulid() is a 26-character &str", row.get(0).unwrap_or(""));
            c.equal("text protocol: NULL::ulid is None", row.get(1), None);
        }
        _ => c.bad("text protocol: no row"),
    }
    // binary (query): Ulid
    let id: Ulid = client.query_one("SELECT gen_ulid()", &[]).await?.get(0);
    c.is_ulid("binary (query): gen_ulid() as Ulid, displayed", &id.to_string());
    let back: Ulid = client.query_one("SELECT $1::ulid", &[&known]).await?.get(0);
    c.equal("binary both ways: a Ulid parameter comes back as itself", back, known);
    let text_of: String = client.query_one("SELECT $1::ulid::text", &[&known]).await?.get(0);
    c.equal("a Ulid parameter is read by ulid_recv: its text on the server", text_of, KNOWN.to_owned());
    let null: Option<Ulid> = client.query_one("SELECT $1::ulid", &[&None::<Ulid>]).await?.get(0);
    c.equal("None as a ulid parameter and NULL read as None", null, None);

    // without the newtype: String and &str do not accept ulid (tokio-postgres checks types both ways)
    let row = client.query_one("SELECT gen_ulid()", &[]).await?;
    // (the error's source is postgres-types' WrongType; its wording differs between versions)
    let wrong_type = |e: &tokio_postgres::Error| {
        std::error::Error::source(e).map_or(false, |s| s.is::<postgres_types::WrongType>())
    };
    c.equal("without Ulid: a ulid column read as String is a WrongType error",
            row.try_get::<_, String>(0).map_err(|e| wrong_type(&e)), Err(true));
    let err = client.query_one("SELECT $1::ulid", &[&KNOWN]).await.err();
    c.equal("without Ulid: a &str for a ulid parameter is refused before it is sent (WrongType)",
            err.map(|e| wrong_type(&e)), Some(true));
    // strings through the server's text -> ulid cast
    let s: String = client.query_one("SELECT $1::text::ulid::text", &[&alias]).await?.get(0);
    c.equal("a &str as $1::text::ulid (lower case, l for 1), read back with ::text", s, KNOWN.to_owned());
    c.bad_string("bad string as $1::text::ulid", client.query_one("SELECT $1::text::ulid", &[&BAD]).await);
    c.bad_string("bad string in the text protocol", client.simple_query(&format!("SELECT '{BAD}'::ulid")).await.map(|m| m.len()));

    // tables: a foreign key, ulid[], NULL
    client.batch_execute("CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), tags ulid[], what text NOT NULL);
        CREATE TABLE tickets (id ulid PRIMARY KEY DEFAULT gen_ulid(), event_id ulid REFERENCES events, seat text)").await?;
    let max: Ulid = MAX.parse()?;
    let row = client.query_one("INSERT INTO events (tags, what) VALUES ($1, 'show') RETURNING id, tags",
                               &[&vec![Some(known), None, Some(max)]]).await?;
    let (event, tags): (Ulid, Vec<Option<Ulid>>) = (row.get(0), row.get(1));
    c.equal("ulid[] both ways as Vec<Option<Ulid>> (a NULL element as None)", tags, vec![Some(known), None, Some(max)]);
    let plain: Result<Vec<Ulid>, _> = client.query_one("SELECT tags FROM events", &[]).await?.try_get(0);
    c.equal("ulid[] with a NULL element read as Vec<Ulid> is an error (use Vec<Option<Ulid>>)", plain.is_err(), true);
    let ticket: Ulid = client.query_one("INSERT INTO tickets (event_id, seat) VALUES ($1, 'A1') RETURNING id", &[&event])
        .await?.get(0);
    let joined = client.query_one("SELECT e.id, e.what FROM tickets t JOIN events e ON e.id = t.event_id WHERE t.id = $1",
                                  &[&ticket]).await?;
    c.equal("a foreign key: the ticket's event by a join", (joined.get::<_, Ulid>(0), joined.get::<_, String>(1)),
            (event, "show".to_owned()));
    let fk = client.execute("INSERT INTO tickets (event_id) VALUES ($1)", &[&max]).await.err();
    c.equal("the foreign key holds (23503)", fk.and_then(|e| e.code().cloned()), Some(SqlState::FOREIGN_KEY_VIOLATION));

    // bulk: binary COPY, then unnest of a ulid[] parameter
    let ids = random_ulids(BULK_ROWS);
    let types = [client.prepare("SELECT NULL::ulid").await?.columns()[0].type_().clone(), Type::TEXT];
    let writer = BinaryCopyInWriter::new(client.copy_in("COPY events (id, what) FROM STDIN (FORMAT binary)").await?, &types);
    pin_mut!(writer);
    for id in &ids {
        writer.as_mut().write(&[id, &"copy"]).await?;
    }
    c.equal("binary COPY of Ulids: rows written", writer.finish().await?, BULK_ROWS as u64);
    let mut sorted = ids.clone();
    sorted.sort();
    let back: Vec<Ulid> = client.query("SELECT id FROM events WHERE what = 'copy' ORDER BY id", &[]).await?
        .iter().map(|r| r.get(0)).collect();
    c.equal("binary COPY: the same ids, in the server's order = Ulid's Ord", back, sorted);
    let more = random_ulids(BULK_ROWS);
    let n = client.execute("INSERT INTO events (id, what) SELECT unnest($1::ulid[]), 'unnest'", &[&more]).await?;
    c.equal("bulk insert of a Vec<Ulid> through unnest($1::ulid[])", n, BULK_ROWS as u64);

    // time range
    client.batch_execute(&format!("INSERT INTO events (id, what) SELECT id, 'range' FROM ({RANGE_ROWS_SQL}) r")).await?;
    let (lo, hi) = (utc(10 * 3600), utc(19 * 3600));
    let ts: Vec<SystemTime> = client.query("SELECT ulid_to_timestamp(id) FROM events WHERE what = 'range' \
                                            AND id BETWEEN ulid_min($1) AND ulid_max($2) ORDER BY id", &[&lo, &hi])
        .await?.iter().map(|r| r.get(0)).collect();
    c.equal("time range with ulid_min($1)/ulid_max($2) and SystemTime parameters", ts.len(), 10);
    c.equal("time range: first and last row on the bounds", (ts.first().copied(), ts.last().copied()), (Some(lo), Some(hi)));
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut c = Checks { count: 0, failed: 0 };
    match config_from_env().connect(NoTls).await {
        Ok((client, connection)) => {
            tokio::spawn(connection);
            if let Err(e) = checks(&mut c, &client).await {
                c.bad(&format!("unexpected error: {e}"));
            }
        }
        Err(e) => c.bad(&format!("connect: {e}")),
    }
    println!("# tokio-postgres: {} checks, {} failed", c.count, c.failed);
    std::process::exit(if c.failed == 0 && c.count > 0 { 0 } else { 1 });
}
