// tokio-postgres: a ulid key from the server's gen_ulid(), read and written as Ulid (binary), ulid[]
// as Vec<Ulid>, rows loaded with binary COPY, and a time range. `cargo run --example ulid_recipe`
use std::time::{Duration, SystemTime};

use futures_util::pin_mut;
use tokio_postgres::{binary_copy::BinaryCopyInWriter, NoTls};
use ulid_tokio_postgres::{config_from_env, Ulid};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (client, connection) = config_from_env().connect(NoTls).await?;
    tokio::spawn(connection);
    client.batch_execute("CREATE TEMP TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), tags ulid[])").await?;

    let tag: Ulid = "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse()?;
    let row = client.query_one("INSERT INTO events (tags) VALUES ($1) RETURNING id, tags", &[&vec![tag]]).await?;
    let (id, tags): (Ulid, Vec<Ulid>) = (row.get(0), row.get(1));

    // binary COPY: the column types come from the server (ulid's OID is the database's own)
    let ulid = client.prepare("SELECT NULL::ulid").await?.columns()[0].type_().clone();
    let sink = client.copy_in("COPY events (id) FROM STDIN (FORMAT binary)").await?;
    let writer = BinaryCopyInWriter::new(sink, &[ulid]);
    pin_mut!(writer);
    writer.as_mut().write(&[&"01BX5ZZKBKACTAV9WEVGEMMVRZ".parse::<Ulid>()?]).await?;
    let copied = writer.finish().await?;

    let now = SystemTime::now();
    let last_hour = client.query("SELECT id FROM events WHERE id BETWEEN ulid_min($1) AND ulid_max($2)",
                                 &[&(now - Duration::from_secs(3600)), &now]).await?;
    let found = last_hour.iter().any(|r| r.get::<_, Ulid>(0) == id);
    println!("{} {} {} {}", id.to_string().len(), tags == [tag], copied, found); // 26 true 1 true
    Ok(())
}
