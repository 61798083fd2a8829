'use strict';
// protocol/wire.md: the datagram, the envelope and every message, read as the text says.
// Each schema line cites what the text gives; where it gives nothing, `guess` says what
// this reader chose.
const mp = require('./msgpack');
const k = require('./crypto');
const { guess } = require('./guesses');

const U64 = (1n << 64n) - 1n;

class WireError extends Error {}
const fail = (msg) => { throw new WireError(msg); };

// ------------------------------------------------------------------ showing a value
// "F: expected integer 0..B, got X": X is how the refused value is written
function show(v) {
  if (typeof v === 'bigint') return v.toString();
  guess('text.got-value', 'how a refusal writes a value that is not an integer ("got X")');
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return `'${v}'`;
  if (Buffer.isBuffer(v)) return `b'...'`;
  if (Array.isArray(v)) return '[...]';
  return String(v);
}

// ------------------------------------------------------------------ field types
const T = {
  uint: (max = U64, min = 0n) => (v, f) => {
    if (typeof v !== 'bigint' || v < 0n || v > BigInt(max)) fail(`${f}: expected integer 0..${BigInt(max)}, got ${show(v)}`);
    if (v < BigInt(min)) fail(`${f}: expected integer ${min}..${max}, got ${v}`);
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
  binOf: (ns) => (v, f) => {
    if (!Buffer.isBuffer(v)) fail(`${f}: expected bytes, got ${show(v)}`);
    if (!ns.includes(v.length)) fail(`${f}: expected ${ns.join(' or ')} bytes, got ${v.length}`);
    return v;
  },
  str: (max, { empty = true } = {}) => (v, f) => {
    if (typeof v !== 'string') fail(`${f}: expected text, got ${show(v)}`);
    const chars = [...v].length;
    guess('text.length-unit', 'str ≤ N: N counts characters (code points? UTF-16 units? bytes?)');
    if (chars > max) fail(`${f}: longer than ${max} characters`);
    if (!empty && !v) { guess('text.empty', 'which text fields may be empty'); fail(`${f}: must not be empty`); }
    guess('text.control', 'which characters are "control characters" (C0 only? DEL? C1?)');
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
  list: (item, max, { min = 0 } = {}) => (v, f) => {
    if (!Array.isArray(v)) fail(`${f}: expected array, got ${show(v)}`);
    if (v.length > max) fail(`${f}: more than ${max} elements`);
    if (v.length < min) fail(`${f}: fewer than ${min} elements`);
    return v.map((x) => item(x, f));
  },
  tuple: (name, fields) => (v) => {
    if (!Array.isArray(v)) fail(`${name}: expected array, got ${show(v)}`);
    if (v.length !== fields.length) fail(`${name}: expected ${fields.length} fields, got ${v.length}`);
    return fields.map(([fname, t], i) => t(v[i], fname));
  },
  move: () => (v, f) => checkMoveShape(v, f),
};

// wire.md: "nested arrays of integers (|x| < 2³¹) only, at most 200 elements and 6
// levels deep"
function checkMoveShape(v, f) {
  guess('move.shape-count', 'whether "200 elements" counts the arrays too, and whether the outer array is level 0 or 1');
  let count = 0;
  const walk = (x, depth) => {
    count += 1;
    if (count > 200) fail(`${f}: more than 200 elements`);
    if (depth > 6) fail(`${f}: nested deeper than 6`);
    if (Array.isArray(x)) x.forEach((y) => walk(y, depth + 1));
    else if (typeof x === 'bigint') { if (x <= -(1n << 31n) || x >= (1n << 31n)) fail(`${f}: integer out of range`); }
    else fail(`${f}: unexpected element ${show(x)}`);
  };
  if (!Array.isArray(v)) fail(`${f}: expected array, got ${show(v)}`);
  walk(v, 0);
  return v;
}

// ------------------------------------------------------------------ messages
const PHASES = ['lobby', 'starting', 'playing', 'over'];
const NAME = () => { guess('len.names', 'LOBBY name, seat name, SET name: their length limit (24 is said for JOIN only)'); return T.str(24, { empty: false }); };
const COLOUR = (empty = true) => {
  guess('colour.strings', 'which colour strings a JOIN/SET/ADD_BOT/seat may carry, and their length limit');
  return T.str(12, { empty });
};
const BOTKIND = () => T.str(16);
const NONCE = () => T.binMax(16);

// values of a draw: [[contributor (0–11), value (bin 32)], …] (1–12, contributors increasing)
function values(what, { min = 1 } = {}) {
  return (v) => {
    const out = T.list((e) => T.tuple(what, [[`${what} contributor`, T.uint(11)], [`${what} value`, T.bin(32)]])(e), 12, { min })(v, what);
    for (let i = 1; i < out.length; i++) if (out[i - 1][0] >= out[i][0]) fail(`${what}: contributors must be listed once each, in order`);
    return out;
  };
}

// [move, digest] or [move, digest, values]
function entries(what, max) {
  return (v) => T.list((e) => {
    if (!Array.isArray(e)) fail(`${what} entry: expected array, got ${show(e)}`);
    if (e.length !== 2 && e.length !== 3) fail(`${what} entry: expected 2 or 3 fields, got ${e.length}`);
    const out = [checkMoveShape(e[0], what), T.bin(32)(e[1], `${what} digest`)];
    if (e.length === 3) out.push(values(`${what} values`, { min: 0 })(e[2]));
    return out;
  }, max)(v, what);
}

const seat = T.tuple('seat', [['seat.kind', T.choice(['human', 'bot'])], ['seat.name', NAME()], ['seat.colour', COLOUR(false)],
  ['seat.owner', T.bin(8)], ['seat.ready', T.bool()], ['seat.bot', BOTKIND()], ['seat.plays', T.str(16)]]);
const member = T.tuple('member', [['member.peer', T.bin(8)], ['member.host', T.str(45, { empty: false })], ['member.port', T.uint(65535)]]);

const MESSAGES = {
  1: { name: 'heartbeat', r: false, fields: [['phase', T.choice(PHASES)], ['lobby_version', T.uint()], ['n_moves', T.uint()], ['digest', T.binOf([0, 32])]] },
  2: { name: 'ack', r: false, fields: [] },
  10: { name: 'join', fields: [['name', T.str(24, { empty: false })], ['colour', COLOUR()], ['plays', T.str(16)]] },
  11: {
    name: 'lobby', fields: [['version', T.uint()], ['phase', T.choice(PHASES)], ['name', NAME()], ['total', T.uint(6, 2)],
      ['passphrase', T.bool()], ['seats', T.list(seat, 6)], ['members', T.list(member, 6)], ['start_nonce', T.binMax(16)],
      ['dropped', T.list((e) => T.tuple('lobby.dropped entry', [['lobby.dropped contributor', T.uint(11)], ['lobby.dropped draw', T.uint(31)]])(e), 12)],
      ['variant', T.choice(['standard', 'two-colours'])], ['draw_wait', T.uint(600, 2)], ['guests', T.uint(7)],
      ['chains', T.list((e) => T.tuple('lobby.chains entry', [['lobby.chains peer', T.bin(8)], ['lobby.chains head', T.bin(32)], ['lobby.chains first draw', T.uint(30)]])(e), 6)]],
    check: (f) => {
      if (f.seats.length > Number(f.total)) fail('lobby.seats: more seats than the game has');
      const heads = f.chains.map((c) => c[1].toString('hex'));
      if (new Set(heads).size !== heads.length) fail('lobby.chains: a chain head is listed twice');
    },
  },
  12: { name: 'set', fields: [['name', T.str(24, { empty: false })], ['colour', COLOUR()]] },
  13: { name: 'ready', fields: [['ready', T.bool()]] },
  14: { name: 'add_bot', fields: [['bot', T.str(16, { empty: false })], ['colour', COLOUR()]] },
  15: { name: 'remove_bot', fields: [['colour', COLOUR(false)]] },
  16: { name: 'leave', fields: [] },
  17: { name: 'start', fields: [] },
  18: { name: 'refuse', fields: [['reason', T.str(300)]] },
  20: { name: 'commit', fields: [['nonce', NONCE()], ['commitment', T.bin(32)], ['chain', T.bin(32)]] },
  21: { name: 'reveal', fields: [['nonce', NONCE()], ['secret', T.bin(32)]] },
  22: { name: 'abort', fields: [['nonce', NONCE()], ['reason', T.str(300)]] },
  23: { name: 'seed_ok', fields: [['nonce', NONCE()], ['check', T.bin(32)]] },
  30: {
    name: 'move', fields: [['index', T.uint()], ['move', T.move()], ['digest', T.bin(32)], ['prev', entries('move.prev', 4)]],
    check: (f) => { if (BigInt(f.prev.length) > f.index) fail('move.prev: more moves than came before'); },
  },
  31: { name: 'fetch', fields: [['start', T.uint()]] },
  32: {
    name: 'log', fields: [['start', T.uint()], ['total', T.uint()], ['entries', entries('log', 256)]],
    check: (f) => { if (f.start + BigInt(f.entries.length) > f.total) fail('log: entries run past total'); },
  },
  33: { name: 'draw', fields: [['draw', T.uint(31)], ['values', values('draw.values')]] },
  34: {
    name: 'farewell', fields: [['leaver', T.bin(8)], ['from_draw', T.uint(32)], ['for_good', T.bool()], ['value', T.binOf([0, 32])],
      ['public', T.bin(32)], ['signature', T.bin(64)]],
    check: (f) => { if (f.value.length && f.from_draw === 0n) fail('farewell.value: a value needs from_draw of at least 1'); },
  },
  35: { name: 'set_wait', fields: [['seconds', T.uint(600, 2)]] },
  36: { name: 'watch', fields: [['name', T.str(24, { empty: false })]] },
  37: {
    name: 'watch_state', fields: [['seed', T.bin(32)], ['contributors', T.list((x, f) => T.bin(8)(x, f), 6, { min: 1 })], ['heads', T.list((x, f) => T.bin(32)(x, f), 6)]],
    check: (f) => { if (f.heads.length !== f.contributors.length) fail('watch_state: one chain head per contributor'); },
  },
  38: { name: 'watchers', fields: [['watchers', T.list((e) => T.tuple('watchers.list', [['watchers.peer', T.bin(8)], ['watchers.name', T.str(24, { empty: false })]])(e), 16)]] },
  39: { name: 'take_seat', fields: [['seat', T.uint(5)], ['name', T.str(24, { empty: false })], ['plays', T.str(16)]] },
  40: { name: 'chat', fields: [['text', T.str(400)]] },
  41: { name: 'chat_from', fields: [['speaker', T.bin(8)], ['name', T.str(24, { empty: false })], ['text', T.str(400)], ['watcher', T.bool()]] },
  42: { name: 'set_guests', fields: [['guests', T.uint(7)]] },
  43: {
    name: 'away_list', fields: [['away', T.list((x, f) => T.bin(8)(x, f), 6)]],
    check: (f) => {
      const hex = f.away.map((p) => p.toString('hex'));
      const sorted = [...hex].sort();
      if (hex.join() !== sorted.join()) fail('away_list: not sorted');
    },
  },
  44: { name: 'new_chain', fields: [['head', T.bin(32)]] },
  50: { name: 'probe', r: false, fields: [['nonce', T.bin(16)]] },
  51: { name: 'probe_answer', r: false, fields: [['nonce', T.bin(16)], ['wall_us', T.uint()], ['game', T.bin(8)]] },
};


// ------------------------------------------------------------------ what the text leaves open
// (each is a choice this reader made while writing the schemas above from wire.md)
const OPEN = {
  'ranges.uint': 'HEARTBEAT lobby_version/n_moves, LOBBY version, MOVE index, FETCH start, LOG start/total, PROBE_ANSWER wall_us: no upper bound given (uint64 taken)',
  'lobby.counts': 'LOBBY members and dropped: how many entries at most; seats ≤ 6 only under "Large payloads"; more seats than total?',
  'lobby.dropped-range': 'LOBBY dropped: the contributor and draw ranges, and whether a contributor may appear twice',
  'seat.bot-len': 'a seat\'s bot kind: its length limit',
  'text.empty': 'which text fields may be empty (names? chat? reasons? colours of REMOVE_BOT?)',
  'abort.reason-len': 'ABORT reason: its length limit (REFUSE says ≤ 300)',
  'nonce.type': 'REVEAL/ABORT/SEED_OK nonce: type and length (only LOBBY start_nonce and COMMIT say bin ≤ 16)',
  'log.entries': 'LOG entries: how many at most, and whether start + len(entries) may exceed total',
  'entry.values': 'a reveal entry\'s values in MOVE prev / LOG: may they be empty? the same 1–12 and order as DRAW?',
  'watch_state.heads': 'WATCH_STATE heads: how many, and the refusal when their count differs from the contributors\'',
  'message.len': 'a message array: how many elements at most before its fields are looked at',
  'check.order': 'which fault a refusal names when a datagram has several (the order of the field checks)',
  'text.refusals': 'the exact refusal text for each field type, length and range ("and the like")',
  'msgpack.nil': 'nil: the text never lists it among the types (refused as a wrong type here)',
  'msgpack.nonshortest': 'whether a reader accepts an integer/str/bin/array not in its shortest msgpack form',
  'text.utf8': 'a str that is not valid UTF-8: which refusal',
  'versions': 'five pages name five protocol versions in their headings (wire 9, transport 6, security 6, discovery 6, moves 5, seed-agreement 6, shuffle 6, draws 9, watching 9): which one is current',
  'contributors.range': 'contributor indices: 0–5 in seed-agreement.md, 0–11 in wire.md',
  'text.got-value': 'how a refusal writes a value that is not an integer ("got X")',
};
for (const [id, text] of Object.entries(OPEN)) guess(id, text);

function parseMessage(v) {
  if (!Array.isArray(v)) fail(`message: expected array, got ${show(v)}`);
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

/** Check and parse a datagram as wire.md and security.md ("Every datagram is checked")
 * say. opts: {version, key (passphrase key), linkKey(sender, inc)}. Returns {env, message}. */
function decodeDatagram(data, opts) {
  const { version, key = null, linkKey = () => null } = opts;
  if (data.length > 1200) fail(`oversized datagram (${data.length} bytes, limit 1200)`);
  guess('size.runt', 'below how many bytes a datagram is a "runt"');
  if (data.length < 5) fail(`runt datagram (${data.length} bytes)`);
  if (!data.subarray(0, 2).equals(MAGIC)) fail('not a tongiaki datagram (bad magic)');
  if (data[2] !== version) fail(`unsupported protocol version ${data[2]}`);
  const flags = data[3];
  guess('flags.format', 'how "unknown flags 0xXX" writes the byte, and whether bits 1 and 2 together are "unknown flags"');
  if ((flags & ~7) || ((flags & FLAG_SIGNED) && (flags & FLAG_LINK))) fail(`unknown flags 0x${flags.toString(16).padStart(2, '0')}`);
  let end = data.length;
  if (flags & FLAG_MAC) {
    guess('mac.too-short', 'the length below which a datagram is "too short for its MAC", signature or link MAC');
    if (data.length < 5 + 32) fail('datagram too short for its MAC');
    end -= 32;
    if (key) {
      if (!k.hmac(key, data.subarray(0, end)).equals(data.subarray(end))) fail('bad MAC (wrong or missing passphrase)');
    } else guess('mac.no-key', 'what a node without a passphrase does with a MACed datagram (ignores the MAC?)');
  } else if (key) fail('unauthenticated datagram in a game that needs a passphrase');
  const authEnd = end;
  if (flags & FLAG_SIGNED) {
    if (end < 5 + 128) fail('datagram too short for its signature');
    end -= 128;
  } else if (flags & FLAG_LINK) {
    if (end < 5 + 32) fail('datagram too short for its link MAC');
    end -= 32;
  } else if (opts.requireSignature !== false) fail('unsigned datagram');
  let obj;
  try {
    obj = mp.decode(data.subarray(4, end), { maxArray: 256 });
  } catch (e) {
    if (!(e instanceof mp.MsgpackError)) throw e;
    guess('msgpack.error-name', 'what ERROR is in "malformed msgpack (ERROR)" for a second decoder');
    fail(`malformed msgpack (${e.message})`);
  }
  guess('msgpack.extra', 'whether bytes after the envelope are refused');
  if (!Array.isArray(obj)) fail(`envelope: expected array, got ${show(obj)}`);
  if (obj.length !== 9) fail(`envelope: expected 9 fields, got ${obj.length}`);
  const env = {
    game: T.bin(8)(obj[0], 'envelope.game'),
    sender: T.bin(8)(obj[1], 'envelope.sender'),
    incarnation: T.uint()(obj[2], 'envelope.incarnation'),
    dest_inc: T.uint()(obj[3], 'envelope.dest_inc'),
    pkt: T.uint()(obj[4], 'envelope.pkt'),
    seq: T.uint()(obj[5], 'envelope.seq'),
    ack: T.uint()(obj[6], 'envelope.ack'),
    sack: T.uint()(obj[7], 'envelope.sack'),
  };
  const message = parseMessage(obj[8]);
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
  guess('encode.shortest', 'wire.md: which msgpack form a sender writes (shortest? state.md says so for the state only)');
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
  guess('linkkey.order', 'min/max of two byte strings: lexicographic byte order?');
  const [lo, hi] = Buffer.compare(a, b) <= 0 ? [a, b] : [b, a];
  return k.blake2b(Buffer.concat([lo, hi]), { size: 32, key: s, person: Buffer.from('tongiaki-link') });
}

module.exports = { decodeDatagram, encodeDatagram, parseMessage, passphraseKey, linkKey, WireError, MESSAGES, show };
