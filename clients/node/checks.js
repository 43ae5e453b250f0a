// Check counting and test data shared by the Node.js client checks (prints ok/FAIL lines).
import { isDeepStrictEqual } from 'node:util';
import { randomBytes } from 'node:crypto';

// 16 bytes -> 26 characters (Crockford Base32), for test data
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulidToString(buf) {
  if (buf.length !== 16) throw new RangeError(`a ULID is 16 bytes, not ${buf.length}`);
  let n = BigInt('0x' + buf.toString('hex'));
  let s = '';
  for (let i = 0; i < 26; i++, n >>= 5n) s = ALPHABET[Number(n & 31n)] + s;
  return s;
}

export const KNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV'; // a fixed ULID and its 16 bytes
export const KNOWN_HEX = '01563e3ab5d3d6764c61efb99302bd5b';
export const KNOWN_LOWER_ALIAS = KNOWN.toLowerCase().replaceAll('1', 'l'); // reads as KNOWN
export const BAD = '01ARZ3NDEKTSV4RRFFQ69G5FAU'; // U is not Crockford Base32
export const MAX = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
// time-range data: one row per hour from T0 for 48 hours; [T0+10h, T0+19h] holds 10 of them
export const RANGE_ROWS_SQL =
  "SELECT gen_ulid(TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL '1 hour') AS id FROM generate_series(0, 47) AS i";
export const RANGE_LO = new Date(Date.UTC(2024, 0, 1, 10));
export const RANGE_HI = new Date(Date.UTC(2024, 0, 1, 19));
export const RANGE_COUNT = 10;
export const BULK_ROWS = 2000;

export const bulkIds = (n = BULK_ROWS) => Array.from({ length: n }, () => ulidToString(randomBytes(16)));

// JSON of a value, cut to limit characters (a failed bulk comparison would print every id)
const short = (value, limit = 300) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= limit ? text : `${text.slice(0, limit)}... (${text.length} characters)`;
};

export class Checks {
  constructor(driver) {
    this.driver = driver;
    this.count = 0;
    this.failed = 0;
  }
  ok(what) {
    this.count++;
    console.log(`ok   ${this.driver}: ${what}`);
  }
  bad(what) {
    this.count++;
    this.failed++;
    console.log(`FAIL ${this.driver}: ${what}`);
  }
  note(what) {
    console.log(`# ${this.driver}: ${what}`);
  }
  equal(what, got, want) {
    if (isDeepStrictEqual(got, want)) this.ok(what);
    else this.bad(`${what}: got ${short(got)}, expected ${short(want)}`);
  }
  isUlid(what, v) {
    if (typeof v === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(v)) this.ok(`${what}: ${v}`);
    else this.bad(`${what}: not a 26-character ULID string: ${String(v)}`);
  }
  // fn() must reject with the driver's error carrying SQLSTATE 22P02 and the server's message
  async badString(what, fn) {
    try {
      await fn();
      this.bad(`${what}: no error`);
    } catch (e) {
      this.equal(`${what}: ${e.constructor.name} code ${e.code}`, [e.code, e.message],
        ['22P02', `invalid input syntax for type ulid: "${BAD}"`]);
    }
  }
  // the same, for a library that wraps node-postgres's error: it throws an error named wrapper whose
  // code(e) is 22P02, and unwrap(e) is node-postgres's error
  async badStringWrapped(what, wrapper, code, unwrap, fn) {
    await this.badString(what, async () => {
      try {
        await fn();
      } catch (e) {
        this.equal(`${what}: ${wrapper} wraps node-postgres's error`, [e.name, code(e)], [wrapper, '22P02']);
        throw unwrap(e);
      }
    });
  }
  // a step that must not throw (its checks inside); a throw is one failure
  async run(what, fn) {
    try {
      await fn();
    } catch (e) {
      this.bad(`${what}: ${e.stack || e}`);
    }
  }
  exit() {
    console.log(`# ${this.driver}: ${this.count} checks, ${this.failed} failed`);
    process.exit(this.failed || this.count === 0 ? 1 : 0);
  }
}
