'use strict';
// conformance.md, "Signed statements, proofs and expulsions" (security.md, "Proof of
// misbehaviour"): the bytes a move's and a lobby's signature cover, a lobby's body hash,
// and the check of a PROOF with its exact refusals.
const mp = require('./msgpack');
const k = require('./crypto');

const u64 = (x) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(x)); return b; };
const u32 = (x) => { const b = Buffer.alloc(4); b.writeUInt32BE(Number(x)); return b; };

/** tongiaki-move ‖ game ‖ signer ‖ u64(inc) ‖ u32(index) ‖ before ‖ after ‖ msgpack(move) */
function moveStatementBytes(game, signer, inc, index, before, after, move) {
  return Buffer.concat([Buffer.from('tongiaki-move'), game, signer, u64(inc), u32(index), before, after, mp.encode(move)]);
}

/** BLAKE2b-256, person tongiaki-lobby, over [11, the first 14 fields], members [peer, "", 0]. */
function lobbyBodyHash(rawLobby) {
  const body = rawLobby.slice(0, 15).map((x, i) => (i === 7 ? x.map((m) => [m[0], '', 0n]) : x));
  return k.blake2b(mp.encode(body), { size: 32, person: Buffer.from('tongiaki-lobby') });
}

/** tongiaki-lobby ‖ game ‖ author ‖ u64(inc) ‖ u64(version) ‖ body_hash */
function lobbyStatementBytes(game, author, inc, version, bodyHash) {
  return Buffer.concat([Buffer.from('tongiaki-lobby'), game, author, u64(inc), u64(version), bodyHash]);
}

const statementBytes = (kind, game, accused, st) => (kind === 3n
  ? lobbyStatementBytes(game, accused, st[0], st[1], st[2])
  : moveStatementBytes(game, accused, st[0], st[1], st[2], st[4], st[3]));

const same = (a, b) => Buffer.compare(mp.encode(a), mp.encode(b)) === 0;

/** Check a parsed PROOF (wire.js: kind, accused, public, first, second as arrays) in the
 * order of conformance.md; null when it holds, else the fixed refusal. `own.digest(i)`:
 * this checker's state digest after its first i moves (null: not reached); `own.rules(st)`:
 * {legal, after} of the statement's move there. */
function checkProof(p, game, own) {
  if (!k.peerId(p.public).equals(p.accused)) return 'proof: the key does not belong to the accused';
  const sts = p.second ? [['first', p.first], ['second', p.second]] : [['first', p.first]];
  for (const [which, st] of sts) {
    const sig = p.kind === 3n ? st[3] : st[5];
    if (!k.edVerify(p.public, sig, statementBytes(p.kind, game, p.accused, st))) return `proof: the ${which} statement's signature does not hold`;
  }
  const [a, b] = [p.first, p.second];
  if (p.kind !== 2n && a[0] !== b[0]) return 'proof: the statements come from two runs of the accused (a restart may decide anew), which proves nothing';
  if (p.kind === 1n) {
    if (a[1] === b[1]) {
      // one index: they must differ in before, move or after, never in the signature alone
      return same([a[2], a[3], a[4]], [b[2], b[3], b[4]]) ? 'proof: the two statements are the same' : null;
    }
    const [x, y] = a[1] < b[1] ? [a, b] : [b, a];
    if (y[1] !== x[1] + 1n) return `proof: statements of moves ${x[1]} and ${y[1]} neither share an index nor follow each other`;
    if (y[2].equals(x[4])) return `proof: the statements of moves ${x[1]} and ${y[1]} agree (the state after one is the state before the next)`;
    return null;
  }
  if (p.kind === 3n) {
    if (a[1] !== b[1]) return `proof: lobby versions ${a[1]} and ${b[1]} differ, which proves nothing`;
    return a[2].equals(b[2]) ? 'proof: the two statements are the same' : null;
  }
  const before = own.digest(Number(a[1]));
  if (!before || !before.equals(a[2])) return `proof: the state before move ${a[1]} is not this game's here (another game, or this node has not reached it): it cannot be checked`;
  const r = own.rules(a);
  if (!r.legal || !r.after.equals(a[4])) return null;
  return `proof: the rules accept move ${a[1]} and give the state it claims`;
}

module.exports = { moveStatementBytes, lobbyBodyHash, lobbyStatementBytes, statementBytes, checkProof };
