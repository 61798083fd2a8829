#!/usr/bin/env node
'use strict';
// The second client: reads every golden vector under protocol/vectors/ with code written
// from protocol/*.md alone (no Python, no npm package), and says where it agrees, where it
// does not, and where the text made it guess.
//
//   node tools/second-client/check.js [--verbose]
//
// Exit status 0 only when every vector agrees and no guess was needed.
const fs = require('fs');
const path = require('path');
const mp = require('./msgpack');
const W = require('./wire');
const S = require('./state');
const M = require('./moves');
const k = require('./crypto');
const St = require('./statements');
const { guess, seen: guesses } = require('./guesses');

const ROOT = path.resolve(__dirname, '..', '..', 'protocol', 'vectors');
const load = (p) => JSON.parse(fs.readFileSync(path.join(ROOT, p), 'utf8'));
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Buffer.from(s, 'hex');
const verbose = process.argv.includes('--verbose');

const results = []; // {group, name, ok, why}
function check(group, name, fn) {
  let why = null;
  try {
    const r = fn();
    if (r !== true && r !== undefined) why = String(r);
  } catch (e) {
    why = `${e.constructor.name}: ${e.message}`;
    if (!(e instanceof W.WireError || e instanceof M.MoveError || e instanceof mp.MsgpackError || e instanceof Disagree)) why += `\n${e.stack}`;
  }
  results.push({ group, name, ok: why === null, why });
}
class Disagree extends Error {}
const expect = (cond, msg) => { if (!cond) throw new Disagree(msg); };

// JSON vector values -> the values msgpack.js decodes to (BigInt, Buffer, arrays…)
function fromJson(x) {
  if (Array.isArray(x)) return x.map(fromJson);
  if (x && typeof x === 'object' && 'bin' in x) return unhex(x.bin);
  if (typeof x === 'number') {
    expect(Number.isSafeInteger(x), `JSON number ${x} cannot be read exactly`);
    return BigInt(x);
  }
  return x;
}
function same(a, b) {
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  return a === b;
}

// ------------------------------------------------------------------ wire.json
function wireVectors() {
  const V = load('net/wire.json');
  const version = V.protocol;
  const game = unhex(V.game_id);
  const seed = unhex(V.identity.seed);
  let key;
  check('wire', 'kdf', () => {
    key = W.passphraseKey(V.kdf.passphrase, unhex(V.kdf.game_id));
    expect(hex(key) === V.kdf.key, 'passphrase key differs');
  });
  check('wire', 'identity', () => {
    expect(hex(k.edPublic(seed)) === V.identity.public, 'public key differs');
    expect(hex(k.peerId(k.edPublic(seed))) === V.identity.peer, 'peer id differs');
  });
  check('wire', 'link_key', () => {
    const a = V.link_key.a, b = V.link_key.b;
    expect(hex(k.xPublic(unhex(a.x25519_private))) === a.x25519_public, 'a: X25519 public');
    expect(hex(k.xPublic(unhex(b.x25519_private))) === b.x25519_public, 'b: X25519 public');
    const ka = W.linkKey(unhex(a.peer), unhex(a.x25519_private), unhex(b.peer), unhex(b.x25519_public));
    const kb = W.linkKey(unhex(b.peer), unhex(b.x25519_private), unhex(a.peer), unhex(a.x25519_public));
    expect(ka && hex(ka) === V.link_key.key && hex(kb) === V.link_key.key, 'link key differs');
    for (const bad of V.link_key.no_key_for) expect(W.linkKey(unhex(a.peer), unhex(a.x25519_private), unhex(b.peer), unhex(bad)) === null, 'a key from a zero point');
  });
  const keys = {};
  const keyFor = (v) => (v.passphrase ? (keys[v.passphrase] ||= W.passphraseKey(v.passphrase, game)) : null);
  const sizes = {};
  for (const v of V.valid) {
    check('wire.valid', v.name, () => {
      const data = unhex(v.datagram);
      sizes[v.name] = data.length;
      const want = fromJson(v.envelope);
      const got = W.decodeDatagram(data, { version, key: keyFor(v), linkKey: () => null });
      expect(same(got.raw, want), 'decoded envelope differs from the vector\'s');
      const kx = unhex(v.kx || V.identity.kx);
      const again = W.encodeDatagram(want, { version, seed, kx, key: keyFor(v) });
      expect(again.equals(data), `encoding differs: ${hex(again)}`);
      // a move in MOVE, MOVE prev or LOG is a move of moves.md
      const msg = got.message;
      const moves = msg.type === 30 ? [msg.move, ...msg.prev.map((e) => e[0])] : msg.type === 32 ? msg.entries.map((e) => e[0]) : [];
      for (const m of moves) {
        try { M.moveFromWire(m); } catch (e) { throw new Disagree(`carries ${JSON.stringify(m, (_, x) => (typeof x === 'bigint' ? Number(x) : x))}, which moves.md refuses (${e.message})`); }
      }
      signedStatements(got, game);
    });
  }
  check('wire', 'probe answer at most 19 bytes longer than the probe', () => {
    const [a, p] = [sizes['probe-answer-frame'], sizes['probe-frame']];
    expect(a <= p + 19 && a <= 1.11 * p, `wire.md, Probe: ${a} bytes against ${p}`);
  });
  for (const v of V.refused) {
    check('wire.refused', v.name, () => {
      const opts = { version, key: keyFor(v), linkKey: () => (v.link_key ? unhex(v.link_key) : null) };
      const unknown = Object.keys(v).filter((key) => !['name', 'datagram', 'reason', 'passphrase', 'link_key'].includes(key));
      if (unknown.length) guess(`vector.${unknown[0]}`, `a refused vector sets "${unknown[0]}", which the text does not explain`);
      let reason = null;
      try { W.decodeDatagram(unhex(v.datagram), opts); } catch (e) { if (!(e instanceof W.WireError)) throw e; reason = e.message; }
      expect(reason !== null, 'accepted');
      expect(matches(reason, v.reason), `refused with "${reason}", the vector says "${v.reason}"`);
      const named = NAMED_FOR[v.name];
      if (named) expect(v.reason.startsWith(named), `named ${v.name} but refused for "${v.reason}"`);
    });
  }
  const sa = V.seed_agreement;
  const sgame = unhex(sa.game_id), nonce = unhex(sa.nonce);
  sa.participants.forEach((p, i) => check('wire.seed', `commitment ${i}`, () => expect(hex(S.commitment(sgame, nonce, unhex(p.peer), unhex(p.secret))) === p.commitment, 'commitment differs')));
  const seedv = S.seedOf(sgame, nonce, sa.participants.map((p) => unhex(p.secret)));
  check('wire.seed', 'seed', () => expect(hex(seedv) === sa.seed, 'seed differs'));
  check('wire.seed', 'seed_check', () => expect(hex(S.seedCheck(seedv, sa.participants.map((p) => unhex(p.chain)))) === sa.seed_check, 'check differs'));
  for (const b of sa.bot_seeds) {
    check('wire.seed', `bot_seed ${b.seat}/${b.index}`, () => {
      expect(typeof b.bot_seed === 'string', 'not a decimal string');
      expect(S.botSeed(seedv, b.seat, b.index) === BigInt(b.bot_seed), 'bot seed differs');
    });
  }
  check('wire.seed', 'participant_order', () => {
    const po = sa.participant_order;
    const order = [];
    for (const o of po.seat_owners_in_seat_order) if (!order.includes(o)) order.push(o);
    for (const m of po.members_in_join_order) if (!order.includes(m)) order.push(m);
    expect(same(order, po.participant_order), 'order differs');
  });
  check('wire', 'farewell signature', () => {
    const f = V.farewell;
    const signed = Buffer.concat([Buffer.from('tongiaki-bye'), game, unhex(f.leaver), Buffer.from([f.from_draw, f.for_good ? 1 : 0]), unhex(f.value)]);
    expect(hex(signed) === f.signed_bytes, 'signed bytes differ');
    expect(k.edVerify(k.edPublic(seed), unhex(f.signature), signed), 'signature does not verify');
    expect(hex(k.edSign(seed, signed)) === f.signature, 'signature differs');
  });
}

/** conformance.md, "Signed statements, proofs and expulsions": a valid MOVE's signature
 * holds for its sender's statement, a valid LOBBY is signed by its author, a valid PROOF's
 * statements hold under the accused's key (and kinds 1 and 3 prove what they say). */
function signedStatements(got, game) {
  const { env, message: msg } = got;
  if (msg.type === 30) {
    const bytes = St.moveStatementBytes(game, env.sender, env.incarnation, msg.index, msg.before, msg.digest, msg.move);
    expect(k.edVerify(env.signer, msg.signature, bytes), 'the MOVE\'s signature does not hold for its statement');
  } else if (msg.type === 11) {
    expect(msg.author.length === 32, 'an unsigned LOBBY, which a member refuses');
    const bytes = St.lobbyStatementBytes(game, k.peerId(msg.author), msg.incarnation, msg.version, St.lobbyBodyHash(got.raw[10]));
    expect(k.edVerify(msg.author, msg.signature, bytes), 'the LOBBY\'s signature does not hold');
  } else if (msg.type === 45) {
    const why = St.checkProof(msg, game, { digest: () => null, rules: () => null });
    expect(why === null || (msg.kind === 2n && why.startsWith('proof: the state before move')), `the PROOF does not hold: ${why}`);
  }
}

// ------------------------------------------------------------------ proofs.json
function proofVectors() {
  optional('net/proofs.json', (V) => {
    const game = unhex(V.game_id);
    const accused = unhex(V.accused.peer);
    check('proofs', 'accused', () => expect(k.peerId(unhex(V.accused.public)).equals(accused), 'the key does not hash to the accused'));
    const digests = V.game.digests.map(unhex);
    check('proofs', 'game', () => {
      expect(digests.length === V.game.moves.length + 1, 'a digest after each first k moves, k = 0 … moves');
      expect(hex(digests[digests.length - 1]) === V.game.digest_after_moves, 'the last digest');
      for (const w of V.game.moves) M.moveFromWire(fromJson(w));
    });
    for (const v of V.cases) {
      check('proofs', v.name, () => {
        const bytes = unhex(v.bytes);
        const raw = mp.decode(bytes);
        const msg = W.parseMessage(raw);
        expect(msg.type === 45, 'not a PROOF');
        expect(same(raw, fromJson(v.message)), 'bytes and fields differ');
        expect(mp.encode(fromJson(v.message)).equals(bytes), 'fields do not encode to the bytes');
        expect(hex(St.statementBytes(msg.kind, game, msg.accused, msg.first)) === v.first_signed_bytes, 'first statement\'s signed bytes');
        const own = {
          digest: (i) => digests[i] || null,
          rules: () => {
            if (!v.rules) guess('proofs.rules', 'a kind 2 case without what the rules make of its move');
            return { legal: v.rules.legal, after: v.rules.after ? unhex(v.rules.after) : null };
          },
        };
        const why = St.checkProof(msg, game, own);
        expect(why === v.reason, `checked: ${why}; the vector: ${v.reason}`);
        expect(v.holds === (v.reason === null), 'holds and reason disagree');
      });
    }
  });
}

// what each refusal vector is named for: its reason must be that refusal
const NAMED_FOR = {
  'empty': 'runt datagram', 'bad-magic': 'not a tongiaki datagram', 'bad-version': 'unsupported protocol version',
  'unknown-flags': 'unknown flags', 'truncated-msgpack': 'malformed msgpack', 'oversized': 'oversized datagram',
  'not-an-array': 'envelope: expected array', 'unsigned': 'unsigned datagram', 'bad-signature': 'bad signature',
  'bad-link-mac': 'bad link MAC', 'impersonation': 'sender id does not belong',
  'draw-beyond-chain': 'draw.draw: expected integer',
};

/** A refusal text compared with the vector's, as conformance.md says: the words are fixed
 * but for ERROR in "malformed msgpack (ERROR)" and a quoted value that is not an integer. */
function matches(mine, theirs) {
  if (theirs.startsWith('malformed msgpack (')) return mine.startsWith('malformed msgpack (') && mine.endsWith(')');
  for (const marker of [', got ', 'unknown type ', 'unexpected element ']) {
    const i = theirs.lastIndexOf(marker);
    if (i >= 0 && !/^-?\d+$/.test(theirs.slice(i + marker.length))) return mine.startsWith(theirs.slice(0, i + marker.length));
  }
  return mine === theirs;
}

// ------------------------------------------------------------------ engine vectors
function engineVectors() {
  for (const v of load('moves.json')) {
    check('moves', v.text, () => {
      const wire = mp.decode(unhex(v.msgpack));
      const m = M.moveFromWire(wire);
      expect(same(wire, fromJson(v.wire)), 'msgpack bytes and wire form differ');
      expect(M.moveToText(m) === v.text, `text: ${M.moveToText(m)}`);
      expect(mp.encode(M.moveToWire(M.moveFromText(v.text))).equals(unhex(v.msgpack)), 'text to bytes differs');
    });
  }
  for (const v of load('shuffle.json')) check('shuffle', v.seed.slice(0, 8), () => expect(same(S.shuffle(unhex(v.seed)), v.order), 'order differs'));
  const D = load('draws.json');
  const chains = D.secrets.map((s) => S.chain(unhex(s), D.chain_length));
  chains.forEach((c, i) => check('draws', `commitment ${i}`, () => expect(hex(c.commitment) === D.commitments[i], 'commitment differs')));
  for (const d of D.draws) {
    check('draws', `draw ${d.draw}`, () => {
      d.values.forEach((val, i) => expect(hex(chains[i].value(d.draw)) === val, `value ${i} differs`));
      expect(S.drawTile(unhex(D.seed), d.draw, d.values.map(unhex), d.unrevealed) === d.tile, 'tile differs');
    });
  }
  const St = load('state.json');
  for (const v of St.positions) {
    check('state', v.kind, () => {
      const bytes = unhex(v.state_msgpack);
      const st = mp.decode(bytes);
      expect(Array.isArray(st) && st.length === 13 && st[0] === 2n, 'not a 13-element state of format 2');
      expect(mp.encode(st).equals(bytes), 'not in the shortest msgpack forms');
      expect(hex(S.digest(bytes)) === v.digest, 'digest differs');
      expect(hex(S.positionKey(st)) === v.position_key, 'position key differs');
    });
  }
  for (const v of St.lan_bot_seeds) {
    check('state', `bot seed ${v.seat}/${v.index}`, () => {
      expect(S.botSeed(unhex(v.seed), v.seat, v.index) === BigInt(v.bot_seed), 'bot seed differs');
      expect(hex(mp.encode(BigInt(v.bot_seed))) === v.msgpack, 'msgpack differs');
      expect(mp.decode(unhex(v.msgpack)) === BigInt(v.bot_seed), 'decodes to another value');
    });
  }
  for (const [i, v] of load('games.json').entries()) {
    check('games', `game ${i}`, () => {
      const bytes = unhex(v.initial_state_msgpack);
      expect(hex(S.digest(bytes)) === v.initial_digest, 'initial digest differs');
      const st = mp.decode(bytes);
      expect(same(st[1], v.colours.map((c) => BigInt(M.COLOUR_NAMES.indexOf(c)))), 'seats are not the colours');
      for (const w of v.moves_wire) M.moveFromWire(fromJson(w));
    });
  }
  for (const [i, v] of load('variant.json').two_colours_games.entries()) {
    check('variant', `game ${i}`, () => {
      expect(v.variant === 'two-colours' && v.record_header_variant === 'two-colours', 'variant');
      expect(same(v.owners, v.colours.map((_, j) => j % 2)), 'owner of seat i is player i mod 2');
      expect(same(v.colours, M.COLOUR_NAMES.slice(0, 4)), 'copies take the first free colours');
      v.players.forEach((p, j) => {
        expect(same(p.colours, v.colours.filter((_, s) => s % 2 === j)), 'player colours');
        expect(p.score === p.colours.reduce((a, c) => a + v.scores_by_colour[c], 0), 'combined score');
      });
      for (const w of v.moves_wire) M.moveFromWire(fromJson(w));
    });
  }
}

// ------------------------------------------------------------------ record.json, discovery.json
function optional(file, fn) {
  if (!fs.existsSync(path.join(ROOT, file))) {
    results.push({ group: file, name: '(missing)', ok: false, why: `${file}: no vectors` });
    return;
  }
  fn(load(file));
}

let recordVectors = () => optional('record.json', () => {});
let discoveryVectors = () => optional('discovery.json', () => {});
try { ({ recordVectors } = require('./record')); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }
try { ({ discoveryVectors } = require('./discovery')); } catch (e) { if (e.code !== 'MODULE_NOT_FOUND') throw e; }

wireVectors();
proofVectors();
engineVectors();
recordVectors({ check, expect, load, optional, Disagree, fromJson, same });
discoveryVectors({ check, expect, load, optional, Disagree, fromJson, same });

const groups = {};
for (const r of results) {
  const g = groups[r.group] || (groups[r.group] = { ok: 0, n: 0 });
  g.n += 1; if (r.ok) g.ok += 1;
}
for (const [g, c] of Object.entries(groups)) console.log(`${g.padEnd(16)} ${c.ok}/${c.n}`);
const bad = results.filter((r) => !r.ok);
const okN = results.length - bad.length;
console.log(`\nagrees with ${okN} of ${results.length} vectors`);
for (const r of bad) console.log(`  DISAGREE ${r.group} ${r.name}: ${verbose ? r.why : r.why.split('\n')[0]}`);
console.log(`\n${guesses.size} guesses:`);
for (const [id, text] of guesses) console.log(`  GUESS ${id}: ${text}`);
process.exitCode = bad.length || guesses.size ? 1 : 0;
