//! tokio-postgres: `Ulid`, the ulid type in Rust, sent and read in PostgreSQL's binary format (its 16
//! bytes), shown and parsed as the 26-character string. `Option<Ulid>` is a nullable ulid,
//! `Vec<Ulid>` (or `Vec<Option<Ulid>>`) a ulid[], and binary COPY takes it too.
use std::{error::Error, fmt, str::FromStr};

use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, ToSql, Type};

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ulid(pub [u8; 16]);

impl fmt::Display for Ulid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = u128::from_be_bytes(self.0);
        let s: String = (0..26).map(|i| ALPHABET[((n >> (125 - 5 * i)) & 31) as usize] as char).collect();
        f.write_str(&s)
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct ParseUlidError(String);

impl fmt::Display for ParseUlidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid ULID: {:?}", self.0)
    }
}

impl Error for ParseUlidError {}

impl FromStr for Ulid {
    type Err = ParseUlidError;

    /// Like the server's ulid_in: 26 characters, any case, I and L read as 1, O as 0.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseUlidError(s.to_owned());
        if s.len() != 26 || s.as_bytes()[0] > b'7' {
            return Err(bad());
        }
        let mut n: u128 = 0;
        for c in s.bytes().map(|c| c.to_ascii_uppercase()) {
            let c = match c {
                b'I' | b'L' => b'1',
                b'O' => b'0',
                c => c,
            };
            let v = ALPHABET.iter().position(|&a| a == c).ok_or_else(bad)?;
            n = (n << 5) | v as u128;
        }
        Ok(Ulid(n.to_be_bytes()))
    }
}

impl ToSql for Ulid {
    fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        out.extend_from_slice(&self.0); // ulid_recv reads the 16 bytes
        Ok(IsNull::No)
    }

    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid" // the extension's type: its OID differs per database, its name does not
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Ulid {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
        let bytes: [u8; 16] = raw.try_into().map_err(|_| format!("a binary ulid is 16 bytes, not {}", raw.len()))?;
        Ok(Ulid(bytes))
    }

    fn accepts(ty: &Type) -> bool {
        ty.name() == "ulid"
    }
}

/// A tokio-postgres configuration from libpq's PG* environment variables (tokio-postgres reads none).
pub fn config_from_env() -> tokio_postgres::Config {
    let mut config = tokio_postgres::Config::new();
    let var = |name| std::env::var(name).ok();
    config.host(&var("PGHOST").unwrap_or_else(|| "/var/run/postgresql".into()));
    config.port(var("PGPORT").and_then(|p| p.parse().ok()).unwrap_or(5432));
    config.user(&var("PGUSER").or_else(|| var("USER")).unwrap_or_default());
    config.dbname(&var("PGDATABASE").or_else(|| var("PGUSER")).unwrap_or_default());
    if let Some(password) = var("PGPASSWORD") {
        config.password(password);
    }
    if let Some(options) = var("PGOPTIONS") {
        config.options(&options);
    }
    config
}
