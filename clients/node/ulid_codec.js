// ULID text <-> 16 bytes (Crockford Base32), for the checks' test data.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulidToString(buf) {
  if (buf.length !== 16) throw new RangeError(`a ULID is 16 bytes, not ${buf.length}`);
  let n = BigInt('0x' + buf.toString('hex'));
  let s = '';
  for (let i = 0; i < 26; i++, n >>= 5n) s = ALPHABET[Number(n & 31n)] + s;
  return s;
}
