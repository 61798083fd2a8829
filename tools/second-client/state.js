'use strict';
// protocol/state.md (digest and X2d position key), shuffle.md (the stack), draws.md
// (chains and the draw function), seed-agreement.md (commitments, seed, check, bot seeds).
const mp = require('./msgpack');
const { blake2b } = require('./crypto');

const digest = (stateBytes) => blake2b(stateBytes, { size: 32 });

/** state.md, "The X2d position key", from the decoded 13-element state. */
function positionKey(state) {
  const tiles = state[4].map((t) => t.slice(0, 4));
  return blake2b(mp.encode([tiles, state[5], state[6], state[3]]), { size: 8 });
}

/** shuffle.md, "Random stream" and `below`. */
class Stream {
  constructor(seed) { this.seed = seed; this.block = 0; this.buf = Buffer.alloc(0); this.off = 0; }
  word() {
    if (this.off >= this.buf.length) {
      const k = Buffer.alloc(8); k.writeBigUInt64BE(BigInt(this.block++));
      this.buf = blake2b(Buffer.concat([this.seed, k]), { size: 64, person: Buffer.from('tongiaki-shuffle') });
      this.off = 0;
    }
    const w = this.buf.readBigUInt64BE(this.off); this.off += 8; return w;
  }
  below(n) {
    const N = BigInt(n);
    const limit = (1n << 64n) - ((1n << 64n) % N);
    for (;;) { const x = this.word(); if (x < limit) return Number(x % N); }
  }
}

function shuffle(seed) {
  const s = new Stream(seed);
  const l = Array.from({ length: 31 }, (_, i) => i + 1);
  for (let i = 30; i >= 1; i--) { const j = s.below(i + 1); [l[i], l[j]] = [l[j], l[i]]; }
  return l;
}

const H = (v) => blake2b(v, { size: 32, person: Buffer.from('tongiaki-chain') });
/** draws.md: h_0 = x, h_{j+1} = H(h_j), commitment h_L, value for draw k = h_{L-1-k}. */
function chain(secret, L = 32) {
  const h = [secret];
  for (let j = 0; j < L; j++) h.push(H(h[j]));
  return { commitment: h[L], value: (k) => h[L - 1 - k] };
}
function drawTile(seed, k, values, unrevealed) {
  const kb = Buffer.alloc(4); kb.writeUInt32BE(k);
  const mix = blake2b(Buffer.concat([seed, kb, ...values]), { size: 32, person: Buffer.from('tongiaki-draw') });
  const u = [...unrevealed].sort((a, b) => a - b);
  return u[new Stream(mix).below(u.length)];
}

const L = (x) => { const b = Buffer.alloc(2); b.writeUInt16BE(x.length); return Buffer.concat([b, x]); };
const commitment = (game, nonce, peer, secret) => blake2b(Buffer.concat([L(Buffer.from('tongiaki-lan/v1/commit')), L(game), L(nonce), L(peer), L(secret)]), { size: 32 });
const seedOf = (game, nonce, secrets) => blake2b(Buffer.concat([L(Buffer.from('tongiaki-lan/v1/seed')), L(game), L(nonce), ...secrets.map(L)]), { size: 32 });
const seedCheck = (seed, heads) => blake2b(Buffer.concat([Buffer.from('tongiaki-lan/v1/seed-check'), seed, ...heads]), { size: 32 });
function botSeed(seed, seat, index) {
  const b = Buffer.alloc(5); b[0] = seat; b.writeUInt32BE(index, 1);
  return blake2b(Buffer.concat([seed, b]), { size: 8 }).readBigUInt64BE(0);
}

module.exports = { digest, positionKey, shuffle, chain, drawTile, commitment, seedOf, seedCheck, botSeed, H };
