'use strict';
// protocol/record.md: a record file read and written, every reveal checked against the
// contributors' chains (draws.md) with the tiles the record itself has not revealed yet.
const mp = require('./msgpack');
const M = require('./moves');
const S = require('./state');
const W = require('./wire');
const St = require('./statements');
const { guess } = require('./guesses');

const unhex = (s) => Buffer.from(s, 'hex');

/** Read a record: {header (Map), entries: [raw arrays], torn}. */
function readRecord(buf) {
  let [header, off] = mp.decodeOne(buf, 0, { readMaps: true });
  if (!(header instanceof Map) || header.get('magic') !== 'tongiaki-lan record') throw new Error('not a record');
  const entries = [];
  let torn = false;
  while (off < buf.length) {
    let entry, next;
    try {
      [entry, next] = mp.decodeOne(buf, off);
    } catch (e) {
      if (e instanceof mp.MsgpackError && e.message === 'truncated') { torn = true; break; }
      throw new Error(`move ${entries.length}: not msgpack (${e.message})`);
    }
    checkEntry(entry, entries.length, header);
    entries.push(entry);
    off = next;
  }
  return { header, entries, torn };
}

function checkEntry(e, i, header) {
  const n = header.get('seats').length;
  if (!Array.isArray(e) || e.length < 3 || e.length > 7) throw new Error(`move ${i}: an entry is [index, move, digest…]`);
  if (e[0] !== BigInt(i)) throw new Error(`move ${i}: numbered ${e[0]}`);
  M.moveFromWire(e[1]);
  if (!Buffer.isBuffer(e[2]) || e[2].length !== 32) throw new Error(`move ${i}: digest`);
  if (e.length >= 4 && e[3] !== null) {
    if (!Array.isArray(e[3]) || e[3].length > 12) throw new Error(`move ${i}: values`);
    for (const x of e[3]) {
      if (!Array.isArray(x) || (x.length !== 2 && x.length !== 3) || typeof x[0] !== 'bigint' || !x.slice(1).every((b) => Buffer.isBuffer(b) && b.length === 32)) throw new Error(`move ${i}: values`);
    }
  }
  if (e.length >= 5) {
    if (!Array.isArray(e[4]) || e[4].length !== n || !e[4].every((s) => typeof s === 'string' && [...s].length >= 1 && [...s].length <= 64)) throw new Error(`move ${i}: names`);
  }
  if (e.length >= 6) {
    if (!Array.isArray(e[5]) || e[5].length !== n || !e[5].every((s) => typeof s === 'string' && [...s].length <= 64)) throw new Error(`move ${i}: bots`);
  }
  // conformance.md, Records: [[name str, seats [uint], game id bin 8, proof bin ≤ 2048]]
  if (e.length === 7) {
    const ok = Array.isArray(e[6]) && e[6].every((x) => Array.isArray(x) && x.length === 4 && typeof x[0] === 'string'
      && Array.isArray(x[1]) && x[1].every((s) => typeof s === 'bigint') && Buffer.isBuffer(x[2]) && x[2].length === 8
      && Buffer.isBuffer(x[3]) && x[3].length <= 2048);
    if (!ok) throw new Error(`move ${i}: an expulsion is [name, [seats], game id, proof]`);
  }
}

/** Every expulsion's proof checked as verify does (conformance.md, Records): with the
 * accused's key and the record's own game for a kind 2 proof — the digest before a move is
 * the entry before's, and a move the record plays at that index the rules accept, giving
 * the entry's digest. Returns null or why not. */
function checkExpulsions(entries) {
  for (const e of entries) {
    if (e.length < 7) continue;
    for (const [name, , game, raw] of e[6]) {
      const p = W.parseMessage(mp.decode(raw));
      if (p.type !== 45) return `move ${e[0]}: ${name}'s proof is no PROOF`;
      const own = {
        digest: (i) => (i >= 1 && i <= entries.length ? entries[i - 1][2] : null),
        rules: (st) => {
          const played = entries[Number(st[1])];
          if (!played || Buffer.compare(mp.encode(played[1]), mp.encode(st[3])) !== 0) {
            guess('record.expelled.rules', 'a kind 2 proof whose move is not the one the record plays there: only a rules engine says whether it is legal');
            return { legal: false, after: null };
          }
          return { legal: true, after: played[2] };
        },
      };
      const why = St.checkProof(p, game, own);
      if (why !== null) return `move ${e[0]}: the proof of ${name}'s expulsion does not hold: ${why}`;
    }
  }
  return null;
}

/** draws.md and record.md: every reveal's values hash back to their chains and pick its
 * tile from the tiles not revealed before it. Returns null or why not. */
function checkReveals(header, entries) {
  const seed = header.get('seed');
  const heads = [...(header.get('draws') || [])];
  const last = heads.map((h) => ({ value: h, draw: -1 }));
  const unrevealed = new Set(Array.from({ length: 31 }, (_, i) => i + 1));
  let k = 0;
  for (const e of entries) {
    if (e[1][0] !== 10n) continue;
    const values = e[3];
    if (!values || !values.length) return `reveal ${k} without values`;
    let prev = -1;
    for (const x of values) {
      const c = Number(x[0]);
      if (c <= prev) return `draw ${k}: contributors out of order`;
      prev = c;
      if (x.length === 3) { // a chain taken mid-game: the next contributor, its head beside
        if (c !== heads.length) return `draw ${k}: a new chain must be contributor ${heads.length}`;
        heads.push(x[2]); last.push({ value: x[2], draw: k - 1 });
      }
      if (!last[c]) return `draw ${k}: no chain ${c}`;
      let v = x[1];
      for (let s = 0; s < k - last[c].draw; s++) v = S.H(v);
      if (!v.equals(last[c].value)) return `draw ${k}: contributor ${c}'s value does not hash back`;
      last[c] = { value: x[1], draw: k };
    }
    const tile = S.drawTile(seed, k, values.map((x) => x[1]), [...unrevealed]);
    if (BigInt(tile) !== e[1][1]) return `draw ${k}: the values pick tile ${tile}, the record ${e[1][1]}`;
    unrevealed.delete(tile);
    k += 1;
  }
  return null;
}

function recordVectors({ check, expect, optional, fromJson, same }) {
  optional('record.json', (V) => {
    const file = unhex(V.file);
    let rec;
    check('record', 'header', () => {
      rec = readRecord(file);
      const want = new Map(V.header.map(([key, v]) => [key, fromJson(v)]));
      expect(same([...rec.header.keys()], [...want.keys()]), 'header keys');
      for (const [key, v] of want) expect(same(rec.header.get(key), v), `header ${key}`);
      expect(mp.encode(want).equals(unhex(V.header_bytes)), 'header does not encode to its bytes');
      expect(!rec.torn && rec.entries.length === V.entries.length, 'entry count');
    });
    V.entries.forEach((ve, i) => check('record', `entry ${i}`, () => {
      const e = rec.entries[i];
      const values = ve.values === null ? null : fromJson(ve.values);
      const want = [BigInt(ve.index), fromJson(ve.move), unhex(ve.digest)];
      if (ve.expelled) want.push(values, ve.names, ve.bots, fromJson(ve.expelled));
      else if (ve.bots) want.push(values, ve.names, ve.bots);
      else if (ve.names) want.push(values, ve.names);
      else if (values) want.push(values);
      expect(same(e, want), 'entry differs');
      expect(mp.encode(want).equals(unhex(ve.bytes)), 'entry does not encode to its bytes');
    }));
    check('record', 'reveals', () => {
      const why = checkReveals(rec.header, rec.entries);
      expect(why === null, why);
    });
    check('record', 'expulsions', () => {
      expect(rec.entries.some((e) => e.length === 7), 'the vector names no expulsion');
      const why = checkExpulsions(rec.entries);
      expect(why === null, why);
    });
    check('record', 'torn', () => {
      const t = readRecord(unhex(V.torn.file));
      expect(t.torn && t.entries.length === V.torn.entries, `torn: ${t.entries.length} entries, torn ${t.torn}`);
    });
  });
}

module.exports = { recordVectors, readRecord, checkReveals, checkExpulsions };
