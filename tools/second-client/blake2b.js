'use strict';
// BLAKE2b (RFC 7693) with digest size, key and personalisation, which node's crypto does
// not offer (its 'blake2b512' has none of the three). Written from the RFC for this
// checker only: it hashes a few thousand short inputs, so plain BigInt arithmetic is
// fast enough. The product uses Python's hashlib, never this.

const MASK = (1n << 64n) - 1n;
const IV = [
  0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
  0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n,
];
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & MASK;

function word(buf, off) {
  let w = 0n;
  for (let i = 7; i >= 0; i--) w = (w << 8n) | BigInt(buf[off + i] || 0);
  return w;
}

function compress(h, block, t, last) {
  const m = [];
  for (let i = 0; i < 16; i++) m.push(word(block, 8 * i));
  const v = [...h, ...IV];
  v[12] ^= t & MASK;
  v[13] ^= (t >> 64n) & MASK;
  if (last) v[14] ^= MASK;
  const G = (a, b, c, d, x, y) => {
    v[a] = (v[a] + v[b] + x) & MASK; v[d] = rotr(v[d] ^ v[a], 32n);
    v[c] = (v[c] + v[d]) & MASK; v[b] = rotr(v[b] ^ v[c], 24n);
    v[a] = (v[a] + v[b] + y) & MASK; v[d] = rotr(v[d] ^ v[a], 16n);
    v[c] = (v[c] + v[d]) & MASK; v[b] = rotr(v[b] ^ v[c], 63n);
  };
  for (let r = 0; r < 12; r++) {
    const s = SIGMA[r % 10];
    G(0, 4, 8, 12, m[s[0]], m[s[1]]); G(1, 5, 9, 13, m[s[2]], m[s[3]]);
    G(2, 6, 10, 14, m[s[4]], m[s[5]]); G(3, 7, 11, 15, m[s[6]], m[s[7]]);
    G(0, 5, 10, 15, m[s[8]], m[s[9]]); G(1, 6, 11, 12, m[s[10]], m[s[11]]);
    G(2, 7, 8, 13, m[s[12]], m[s[13]]); G(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (let i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/** BLAKE2b(data, {size = 64, key, person}) -> Buffer. `person`: up to 16 bytes, padded
 * with zero bytes (the parameter block's personalisation field). */
function blake2b(data, { size = 64, key = Buffer.alloc(0), person = Buffer.alloc(0) } = {}) {
  data = Buffer.from(data);
  key = Buffer.from(key);
  person = Buffer.from(person);
  if (size < 1 || size > 64 || key.length > 64 || person.length > 16) throw new Error('blake2b parameters');
  const p = Buffer.alloc(64);
  p[0] = size; p[1] = key.length; p[2] = 1; p[3] = 1;
  person.copy(p, 48);
  const h = IV.map((x, i) => x ^ word(p, 8 * i));
  let input = data;
  if (key.length) input = Buffer.concat([Buffer.concat([key, Buffer.alloc(128 - key.length)]), data]);
  let t = 0n;
  let off = 0;
  if (input.length === 0) {
    compress(h, Buffer.alloc(128), 0n, true);
  } else {
    while (off < input.length) {
      const n = Math.min(128, input.length - off);
      const block = Buffer.alloc(128);
      input.copy(block, 0, off, off + n);
      t += BigInt(n);
      off += n;
      compress(h, block, t, off >= input.length);
    }
  }
  const out = Buffer.alloc(64);
  for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) out[8 * i + j] = Number((h[i] >> BigInt(8 * j)) & 0xffn);
  return out.subarray(0, size);
}

module.exports = { blake2b };
