'use strict';
// protocol/wire.md and conformance.md: the datagram, the envelope and every message, read
// as the text says (the schemas below are conformance.md's "Messages" table). Where the
// text left a choice open, `guess` (guesses.js) recorded what this reader chose; none is
// left.
const mp = require('./msgpack');
const k = require('./crypto');

const U64 = (1n << 64n) - 1n;

class WireError extends Error {}
const fail = (msg) => { throw new WireError(msg); };

// ------------------------------------------------------------------ showing a value
// "F: expected integer 0..B, got X": X is how the refused value is written
function show(v) {
  // conformance.md: an integer is written in decimal; any other value as this reader likes
  if (typeof v === 'bigint') return v.toString();
  if (v === null) return 'nil';
  if (Buffer.isBuffer(v)) return `bin(${v.length})`;
  if (Array.isArray(v)) return `array(${v.length})`;
  return JSON.stringify(v);
}

// ------------------------------------------------------------------ field types
const T = {
  // conformance.md, "Which words of a refusal are fixed"
  uint: (max = U64, min = 0n, low = null) => (v, f) => {
    if (typeof v !== 'bigint' || v < 0n || v > BigInt(max)) fail(`${f}: expected integer 0..${BigInt(max)}, got ${show(v)}`);
    if (v < BigInt(min)) fail(low(v));
    return v;
  },
  bool: () => (v, f) => (typeof v === 'boolean' ? v : fail(`${f}: expected true/false, got ${show(v)}`)),
  bin: (n) => (v, f) => {
    if (!Buffer.isBuffer(v)) fail(`${f}: expected bytes, got ${show(v)}`);
    if (v.length !== n) fail(`${f}: expected ${n} bytes, got ${v.length}`);
    return v;
  },
  binMax: (n) => (v, f) => {
    if (!Buffer.isBuffer(v)) fail(`${f}: expected bytes, got ${show(v)}`);
    if (v.length > n) fail(`${f}: longer than ${n} bytes`);
    return v;
  },
  // bin 0/N: read as bin ≤ N first, then 0 or N; heartbeat.digest and heartbeat.lobby_hash
  // say "expected 0 or N bytes", farewell.value adds ", got M"
  bin0orN: (n, withGot) => (v, f) => {
    T.binMax(n)(v, f);
    if (v.length !== 0 && v.length !== n) fail(`${f}: expected 0 or ${n} bytes${withGot ? `, got ${v.length}` : ''}`);
    return v;
  },
  // wire.md, Text: N code points and 2N bytes of UTF-8 (a `kind`: N bytes, conformance.md);
  // 1–N: not empty; no C0/DEL/C1
  str: (max, { empty = true, bytes = 2 * max } = {}) => (v, f) => {
    if (typeof v !== 'string') fail(`${f}: expected text, got ${show(v)}`);
    if ([...v].length > max || Buffer.byteLength(v, 'utf8') > bytes) fail(`${f}: longer than ${max} characters`);
    if (!empty && !v) fail(`${f}: must not be empty`);
    for (const ch of v) {
      const c = ch.codePointAt(0);
      if (c < 32 || (c >= 0x7f && c < 0xa0)) fail(`${f}: contains control characters`);
    }
    return v;
  },
  choice: (opts) => (v, f) => {
    if (typeof v !== 'string' || !opts.includes(v)) fail(`${f}: expected one of ${opts.join(', ')}, got ${show(v)}`);
    return v;
  },
  list: (item, max) => (v, f) => {
    if (!Array.isArray(v)) fail(`${f}: expected array, got ${show(v)}`);
    if (v.length > max) fail(`${f}: more than ${max} elements`);
    return v.map((x) => item(x, f));
  },
  // an array of a fixed length: longer is "more than N elements", shorter "expected N fields"
  tuple: (name, fields) => (v) => {
    if (!Array.isArray(v)) fail(`${name}: expected array, got ${show(v)}`);
    if (v.length > fields.length) fail(`${name}: more than ${fields.length} elements`);
    if (v.length < fields.length) fail(`${name}: expected ${fields.length} fields, got ${v.length}`);
    return fields.map(([fname, t], i) => t(v[i], fname));
  },
  move: () => (v, f) => checkMoveShape(v, f),
};

// wire.md: integers −2³¹ ≤ x < 2³¹ only, at most 200 elements counting every array and
// integer (the move's own array too), at most 6 levels below the move's own array
function checkMoveShape(v, f) {
  let count = 0;
  const walk = (x, depth) => {
    count += 1;
    if (count > 200) fail(`${f}: more than 200 elements`);
    if (depth > 6) fail(`${f}: nested deeper than 6`);
    if (Array.isArray(x)) x.forEach((y) => walk(y, depth + 1));
    else if (typeof x === 'bigint') { if (x < -(1n << 31n) || x >= (1n << 31n)) fail(`${f}: integer out of range`); }
    else fail(`${f}: unexpected element ${show(x)}`);
  };
  if (!Array.isArray(v)) fail(`${f}: expected array, got ${show(v)}`);
  walk(v, 0);
  return v;
}

// ------------------------------------------------------------------ messages
const PHASES = ['lobby', 'starting', 'playing', 'over'];
const COLOURS = ['blue', 'red', 'green', 'yellow', 'orange', 'purple'];
const NAME = () => T.str(24, { empty: false });
const MOVES = 1n << 20n; // conformance.md, `moves`
const NONCE = () => T.binMax(16);
const PEER = () => T.bin(8);
const KIND = ({ empty = true } = {}) => T.str(16, { empty, bytes: 16 }); // conformance.md, `kind`

// values: [[contributor uint ≤ 11, value bin 32]], contributors strictly increasing
function values(what, { atLeastOne = false } = {}) {
  return (v) => {
    const out = T.list((e) => T.tuple(what, [[`${what} contributor`, T.uint(11)], [`${what} value`, T.bin(32)]])(e), 12)(v, what);
    for (let i = 1; i < out.length; i++) if (out[i - 1][0] >= out[i][0]) fail(`${what}: contributors must be listed once each, in order`);
    if (atLeastOne && !out.length) fail(`${what}: no value`);
    return out;
  };
}

// entry: [move, digest bin 32], [move, digest bin 32, values ≤ 12] or [move, digest bin 32,
// signer peer, incarnation uint, signature bin 64] (conformance.md, Notation and "an entry")
function entries(what, max) {
  return (v) => T.list((e) => {
    if (!Array.isArray(e)) fail(`${what} entry: expected array, got ${show(e)}`);
    if (e.length > 5) fail(`${what} entry: more than 5 elements`);
    if (![2, 3, 5].includes(e.length)) fail(`${what} entry: expected 2, 3 or 5 fields, got ${e.length}`);
    const out = [checkMoveShape(e[0], what), T.bin(32)(e[1], `${what} digest`)];
    if (e.length === 3) out.push(values(`${what} values`)(e[2]));
    if (e.length === 5) out.push(PEER()(e[2], `${what} signer`), T.uint()(e[3], `${what} incarnation`), T.bin(64)(e[4], `${what} signature`));
    return out;
  }, max)(v, what);
}

// conformance.md, Notation: a move statement and a lobby statement (PROOF's first, second)
const moveStatement = (what) => T.tuple(what, [[`${what}.incarnation`, T.uint()], [`${what}.index`, T.uint(MOVES)],
  [`${what}.before`, T.bin(32)], [`${what}.move`, T.move()], [`${what}.after`, T.bin(32)], [`${what}.signature`, T.bin(64)]]);
const lobbyStatement = (what) => T.tuple(what, [[`${what}.incarnation`, T.uint()], [`${what}.version`, T.uint(4294967295)],
  [`${what}.body_hash`, T.bin(32)], [`${what}.signature`, T.bin(64)]]);
const PROOF_KINDS = [1n, 2n, 3n];

const seat = T.tuple('seat', [['seat.kind', T.choice(['human', 'bot'])], ['seat.name', NAME()], ['seat.colour', T.choice(COLOURS)],
  ['seat.owner', PEER()], ['seat.ready', T.bool()], ['seat.bot', KIND()], ['seat.plays', KIND()]]);
const member = T.tuple('member', [['member.peer', PEER()], ['member.host', T.str(15, { empty: false })], ['member.port', T.uint(65535)]]);
const atLeast2s = (f) => (v) => `${f}: at least 2 s, got ${v}`;

const MESSAGES = {
  1: { name: 'heartbeat', r: false, fields: [['phase', T.choice(PHASES)], ['lobby_version', T.uint()], ['n_moves', T.uint(MOVES)], ['digest', T.bin0orN(32, false)], ['lobby_hash', T.bin0orN(8, false)]] },
  2: { name: 'ack', r: false, fields: [] },
  10: { name: 'join', fields: [['name', NAME()], ['colour', T.str(12)], ['plays', KIND()]] },
  11: {
    name: 'lobby', fields: [['version', T.uint(4294967295)], ['phase', T.choice(PHASES)], ['name', NAME()], ['total', T.uint(6, 2, () => 'lobby.total: a game has 2 to 6 seats')],
      ['passphrase', T.bool()], ['seats', T.list(seat, 6)], ['members', T.list(member, 6)], ['start_nonce', NONCE()],
      ['dropped', T.list((e) => T.tuple('lobby.dropped entry', [['lobby.dropped contributor', T.uint(11)], ['lobby.dropped draw', T.uint(31)]])(e), 12)],
      ['variant', T.choice(['standard', 'two-colours'])], ['draw_wait', T.uint(600, 2, atLeast2s('lobby.draw_wait'))], ['guests', T.uint(7)],
      ['chains', T.list((e) => T.tuple('lobby.chains entry', [['lobby.chains peer', PEER()], ['lobby.chains head', T.bin(32)], ['lobby.chains first draw', T.uint(30)]])(e), 6)],
      ['expelled', T.list((e) => T.tuple('lobby.expelled entry', [['lobby.expelled peer', PEER()], ['lobby.expelled from move', T.uint(MOVES)]])(e), 5)],
      ['author', T.binMax(32)], ['incarnation', T.uint()], ['signature', T.binMax(64)]],
    check: (f) => {
      if (f.seats.length > Number(f.total)) fail('lobby.seats: more seats than the game has');
      const dropped = f.dropped.map((d) => d[0]);
      if (new Set(dropped).size !== dropped.length) fail('lobby.dropped: a contributor is listed twice');
      const heads = f.chains.map((c) => c[1].toString('hex'));
      if (new Set(heads).size !== heads.length) fail('lobby.chains: a chain head is listed twice');
      const expelled = f.expelled.map((e) => e[0].toString('hex'));
      if (new Set(expelled).size !== expelled.length) fail('lobby.expelled: a member is listed twice');
      const signed = f.author.length === 32 && f.signature.length === 64;
      if (!signed && (f.author.length || f.signature.length)) fail('lobby.author: a 32-byte key and a 64-byte signature, or neither');
    },
  },
  12: { name: 'set', fields: [['name', NAME()], ['colour', T.str(12)]] },
  13: { name: 'ready', fields: [['ready', T.bool()]] },
  14: { name: 'add_bot', fields: [['bot', KIND({ empty: false })], ['colour', T.str(12)]] },
  15: { name: 'remove_bot', fields: [['colour', T.str(12, { empty: false })]] },
  16: { name: 'leave', fields: [] },
  17: { name: 'start', fields: [] },
  18: { name: 'refuse', fields: [['reason', T.str(300)]] },
  20: { name: 'commit', fields: [['nonce', NONCE()], ['commitment', T.bin(32)], ['chain', T.bin(32)]] },
  21: { name: 'reveal', fields: [['nonce', NONCE()], ['secret', T.bin(32)]] },
  22: { name: 'abort', fields: [['nonce', NONCE()], ['reason', T.str(300)]] },
  23: { name: 'seed_ok', fields: [['nonce', NONCE()], ['check', T.bin(32)]] },
  30: {
    name: 'move', fields: [['index', T.uint(MOVES)], ['move', T.move()], ['digest', T.bin(32)], ['prev', entries('move.prev', 4)],
      ['before', T.bin(32)], ['signature', T.bin(64)]],
    check: (f) => { if (BigInt(f.prev.length) > f.index) fail('move.prev: more moves than came before'); },
  },
  31: { name: 'fetch', fields: [['start', T.uint(MOVES)]] },
  32: {
    name: 'log', fields: [['start', T.uint(MOVES)], ['total', T.uint(MOVES)], ['entries', entries('log', 64)]],
    check: (f) => { if (f.start + BigInt(f.entries.length) > f.total) fail('log: entries run past total'); },
  },
  33: { name: 'draw', fields: [['draw', T.uint(31)], ['values', values('draw.values', { atLeastOne: true })]] },
  34: {
    name: 'farewell', fields: [['leaver', PEER()], ['from_draw', T.uint(32)], ['for_good', T.bool()], ['value', T.bin0orN(32, true)],
      ['public', T.bin(32)], ['signature', T.bin(64)]],
    check: (f) => { if (f.value.length && f.from_draw === 0n) fail('farewell.value: a value needs from_draw of at least 1'); },
  },
  35: { name: 'set_wait', fields: [['seconds', T.uint(600, 2, atLeast2s('set_wait.seconds'))]] },
  36: { name: 'watch', fields: [['name', NAME()]] },
  37: {
    name: 'watch_state', fields: [['seed', T.bin(32)], ['contributors', T.list((x, f) => PEER()(x, f), 6)], ['heads', T.list((x, f) => T.bin(32)(x, f), 6)]],
    check: (f) => { if (f.heads.length !== f.contributors.length || !f.contributors.length) fail('watch_state: one chain head per contributor, at least one'); },
  },
  38: { name: 'watchers', fields: [['list', T.list((e) => T.tuple('watchers.list', [['watchers.peer', PEER()], ['watchers.name', NAME()]])(e), 16)]] },
  39: { name: 'take_seat', fields: [['seat', T.uint(5)], ['name', NAME()], ['plays', KIND()]] },
  40: { name: 'chat', fields: [['text', T.str(400, { empty: false })]] },
  41: { name: 'chat_from', fields: [['speaker', PEER()], ['name', NAME()], ['text', T.str(400, { empty: false })], ['watcher', T.bool()]] },
  42: { name: 'set_guests', fields: [['guests', T.uint(7)]] },
  43: {
    name: 'away_list', fields: [['list', T.list((x) => PEER()(x, 'away_list.peer'), 6)]],
    check: (f) => {
      for (let i = 1; i < f.list.length; i++) if (Buffer.compare(f.list[i - 1], f.list[i]) >= 0) fail('away_list.list: peer ids must be in byte order, each once');
    },
  },
  44: { name: 'new_chain', fields: [['head', T.bin(32)]] },
  // conformance.md: kind uint ≤ 255, then one of 1, 2, 3; first a lobby statement for kind 3,
  // else a move statement; second the same for kinds 1 and 3, [] for kind 2
  45: {
    name: 'proof', fields: [['kind', T.uint(255)], ['accused', PEER()], ['public', T.bin(32)], ['first', (v) => v], ['second', (v) => v]],
    check: (f) => {
      if (!PROOF_KINDS.includes(f.kind)) fail(`proof.kind: unknown kind ${f.kind}`);
      const statement = f.kind === 3n ? lobbyStatement : moveStatement;
      f.first = statement('proof.first')(f.first);
      if (f.kind === 2n) {
        T.list((x) => x, 6)(f.second, 'proof.second');
        if (f.second.length) fail('proof.second: a refused move is proven by one statement');
        f.second = null;
      } else f.second = statement('proof.second')(f.second);
    },
  },
  50: { name: 'probe', r: false, fields: [['nonce', T.bin(16)]] },
  51: { name: 'probe_answer', r: false, fields: [['nonce', T.bin(16)], ['wall_us', T.uint()], ['game', T.bin(8)]] },
};

function parseMessage(v) {
  if (!Array.isArray(v)) fail(`message: expected array, got ${show(v)}`);
  if (v.length > 20) fail('message: more than 20 elements');
  if (!v.length) fail('message: empty array');
  const t = v[0];
  const spec = typeof t === 'bigint' ? MESSAGES[Number(t)] : undefined;
  if (!spec || t > 255n) fail(`message: unknown type ${show(t)}`);
  const items = v.slice(1);
  if (items.length !== spec.fields.length) fail(`${spec.name}: expected ${spec.fields.length} fields, got ${items.length}`);
  const out = { type: Number(t) };
  spec.fields.forEach(([fname, ty], i) => { out[fname] = ty(items[i], `${spec.name}.${fname}`); });
  if (spec.check) spec.check(out);
  return out;
}

// ------------------------------------------------------------------ datagrams
const MAGIC = Buffer.from('TK');
const FLAG_MAC = 1, FLAG_SIGNED = 2, FLAG_LINK = 4;

/** Check and parse a datagram in the order of conformance.md, "Reading a datagram". opts: {version, key (passphrase key), linkKey(sender, inc)}. Returns {env, message}. */
function decodeDatagram(data, opts) {
  const { version, key = null, linkKey = () => null } = opts;
  if (data.length > 1200) fail(`oversized datagram (${data.length} bytes, limit 1200)`);
  if (data.length < 5) fail(`runt datagram (${data.length} bytes)`);
  if (!data.subarray(0, 2).equals(MAGIC)) fail('not a tongiaki datagram (bad magic)');
  if (data[2] !== version) fail(`unsupported protocol version ${data[2]}`);
  const flags = data[3];
  if ((flags & ~7) || ((flags & FLAG_SIGNED) && (flags & FLAG_LINK))) fail(`unknown flags 0x${flags.toString(16).padStart(2, '0')}`);
  let end = data.length;
  if (flags & FLAG_MAC) {
    if (data.length < 5 + 32) fail('datagram too short for its MAC');
    end -= 32;
    if (key) {
      if (!k.hmac(key, data.subarray(0, end)).equals(data.subarray(end))) fail('bad MAC (wrong or missing passphrase)');
    } // (without a passphrase key the MAC is dropped unchecked: conformance.md, check 7)
  } else if (key) fail('unauthenticated datagram in a game that needs a passphrase');
  const authEnd = end;
  if (flags & FLAG_SIGNED) {
    if (end < 5 + 128) fail('datagram too short for its signature');
    end -= 128;
  } else if (flags & FLAG_LINK) {
    if (end < 5 + 32) fail('datagram too short for its link MAC');
    end -= 32;
  } else fail('unsigned datagram'); // wire.md: no exception
  let obj;
  try {
    obj = mp.decode(data.subarray(4, end), { maxArray: 256 });
  } catch (e) {
    if (!(e instanceof mp.MsgpackError)) throw e;
    fail(`malformed msgpack (${e.message})`);
  }
  if (!Array.isArray(obj)) fail(`envelope: expected array, got ${show(obj)}`);
  if (obj.length > 11) fail('envelope: more than 11 elements');
  if (obj.length < 11) fail(`envelope: expected 11 fields, got ${obj.length}`);
  const env = {
    game: T.bin(8)(obj[0], 'envelope.game'),
    sender: T.bin(8)(obj[1], 'envelope.sender'),
    incarnation: T.uint()(obj[2], 'envelope.incarnation'),
    dest: T.bin(8)(obj[3], 'envelope.dest'),
    dest_inc: T.uint()(obj[4], 'envelope.dest_inc'),
    pkt: T.uint()(obj[5], 'envelope.pkt'),
    echo: T.uint()(obj[6], 'envelope.echo'),
    seq: T.uint()(obj[7], 'envelope.seq'),
    ack: T.uint()(obj[8], 'envelope.ack'),
    sack: T.uint()(obj[9], 'envelope.sack'),
  };
  const message = parseMessage(obj[10]);
  if (flags & FLAG_SIGNED) {
    const pub = data.subarray(end, end + 32);
    if (!k.peerId(pub).equals(env.sender)) fail('sender id does not belong to the signing key (impersonation?)');
    if (!k.edVerify(pub, data.subarray(end + 64, authEnd), data.subarray(0, end + 64))) fail('bad signature');
    env.signer = pub; env.kx = data.subarray(end + 32, end + 64);
  } else if (flags & FLAG_LINK) {
    const lk = linkKey(env.sender, env.incarnation);
    if (!lk) fail('link-MACed datagram from a sender without a link key');
    if (!k.hmac(lk, data.subarray(0, end)).equals(data.subarray(end, authEnd))) fail('bad link MAC');
  }
  return { env, message, raw: obj };
}

/** Frame a datagram: envelope fields (values as decoded: BigInt, Buffer…), signed with
 * an Ed25519 seed and an X25519 public key, then the passphrase MAC. */
function encodeDatagram(envArray, { version, seed, kx, key = null }) {
  let data = Buffer.concat([MAGIC, Buffer.from([version, (key ? FLAG_MAC : 0) | FLAG_SIGNED]), mp.encode(envArray)]);
  data = Buffer.concat([data, k.edPublic(seed), kx]);
  data = Buffer.concat([data, k.edSign(seed, data)]);
  if (key) data = Buffer.concat([data, k.hmac(key, data)]);
  return data;
}

/** security.md, "Key": PBKDF2-HMAC-SHA256(passphrase, "tongiaki-lan/v1/key/" ‖ game id, 100 000, 32). */
const passphraseKey = (pass, game) => k.pbkdf2(pass, Buffer.concat([Buffer.from('tongiaki-lan/v1/key/'), game]), 100000, 32);

/** security.md, "Link keys". */
function linkKey(myPeer, myPriv, theirPeer, theirPub) {
  const s = k.xShared(myPriv, theirPub);
  if (!s) return null;
  const a = Buffer.concat([myPeer, k.xPublic(myPriv)]);
  const b = Buffer.concat([theirPeer, theirPub]);
  const [lo, hi] = Buffer.compare(a, b) <= 0 ? [a, b] : [b, a];
  return k.blake2b(Buffer.concat([lo, hi]), { size: 32, key: s, person: Buffer.from('tongiaki-link') });
}

module.exports = { decodeDatagram, encodeDatagram, parseMessage, passphraseKey, linkKey, WireError, MESSAGES, show };
