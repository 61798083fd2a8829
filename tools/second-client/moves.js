'use strict';
// protocol/moves.md: a move's wire form (what a decoder must accept and refuse) and its
// text form; island names from shuffle.md.

const TILE_NAMES = ['Tonga', 'Muroroa', 'Nauru', 'Tubuai', 'Rarotonga', 'Rapa Nui', 'Tokelau',
  'Tuamotu', 'Hiva Oa', 'Mangareva', 'Oahu', 'Tahiti', 'Tuvalu', 'Fidschi', 'Hawaii', 'Samoa'];
for (let i = 1; i <= 16; i++) TILE_NAMES.push(`S${String(i).padStart(2, '0')}`);
const DIRS = ['S', 'SW', 'NW', 'N', 'NE', 'SE'];
const COLOUR_LETTERS = 'BRGYOP';
const COLOUR_NAMES = ['blue', 'red', 'green', 'yellow', 'orange', 'purple'];

class MoveError extends Error {}

const isInt = (x) => typeof x === 'bigint';
function int(x, lo, hi, what) {
  if (!isInt(x) || x < BigInt(lo) || x > BigInt(hi)) throw new MoveError(`${what} out of range`);
  return Number(x);
}
const list = (x, what) => { if (!Array.isArray(x)) throw new MoveError(`${what} is not a list`); return x; };


/** Check a move's wire form (values: BigInt / arrays) as moves.md says; returns a plain
 * object, or throws MoveError. */
function moveFromWire(w) {
  list(w, 'move');
  if (!w.length) throw new MoveError('empty move');
  const code = w[0];
  const n = w.length;
  const island = (x) => int(x, 0, 15, 'island');
  const beach = (x) => int(x, 0, 5, 'beach'); // moves.md, Ranges on the wire
  if (code === 1n && n === 3) {
    const bs = list(w[2], 'beaches').map(beach);
    if (bs.length < 1 || bs.length > 2 || (bs.length === 2 && bs[0] > bs[1])) throw new MoveError('place beaches');
    return { code: 1, island: island(w[1]), beaches: bs };
  }
  if ((code === 2n || code === 3n) && n === 2) return { code: Number(code), island: island(w[1]) };
  if (code === 4n && n === 1) return { code: 4 };
  if (code === 5n && n === 2) {
    const bs = list(w[1], 'beaches').map(beach);
    if (bs.length < 1 || bs.length > 6) throw new MoveError('1-6 beaches');
    for (let i = 1; i < bs.length; i++) if (bs[i - 1] >= bs[i]) throw new MoveError('beaches not strictly increasing');
    return { code: 5, beaches: bs };
  }
  if (code === 6n && n === 3) return { code: 6, island: island(w[1]), beach: beach(w[2]) };
  if (code === 6n && n === 1) return { code: 6, nothing: true };
  if (code === 7n && n === 4) return { code: 7, island: island(w[1]), beach: beach(w[2]), pier: int(w[3], 0, 5, 'pier') };
  if (code === 8n && n === 2) {
    if (list(w[1], 'landing').length > 6) throw new MoveError('at most 6 placements');
    const ps = w[1].map((p) => {
      list(p, 'placement');
      if (p.length !== 2) throw new MoveError('placement');
      const cs = list(p[1], 'colours').map((c) => int(c, 0, 5, 'colour'));
      if (cs.length < 1 || cs.length > 5) throw new MoveError('1-5 ships');
      for (let i = 1; i < cs.length; i++) if (cs[i - 1] > cs[i]) throw new MoveError('colours not sorted');
      return [beach(p[0]), cs];
    });
    for (let i = 1; i < ps.length; i++) if (ps[i - 1][0] >= ps[i][0]) throw new MoveError('beaches not increasing');
    return { code: 8, placements: ps };
  }
  if (code === 9n && n === 4) return { code: 9, q: int(w[1], -64, 64, 'q'), r: int(w[2], -64, 64, 'r'), rotation: int(w[3], 0, 5, 'rotation') };
  if (code === 10n && n === 2) return { code: 10, tile: int(w[1], 1, 31, 'tile') };
  throw new MoveError(`unknown move form`);
}

const nameOf = (id) => TILE_NAMES[id].replace(' ', '');

function moveToText(m) {
  switch (m.code) {
    case 1: return `place ${nameOf(m.island)} ${m.beaches.map((b) => b + 1).join(' ')}`;
    case 2: return `expand ${nameOf(m.island)}`;
    case 3: return `royal ${nameOf(m.island)}`;
    case 4: return 'colony';
    case 5: return `beaches ${m.beaches.map((b) => b + 1).join(' ')}`;
    case 6: return m.nothing ? 'take nothing' : `take ${nameOf(m.island)} ${m.beach + 1}`;
    case 7: return `sail ${nameOf(m.island)} ${m.beach + 1} ${DIRS[m.pier]}`;
    case 8: return m.placements.length ? `land ${m.placements.map(([b, cs]) => `${b + 1}:${cs.map((c) => COLOUR_LETTERS[c]).join('')}`).join(' ')}` : 'land -';
    case 9: return `tile ${m.q},${m.r} ${DIRS[m.rotation]}`;
    case 10: return `reveal ${nameOf(m.tile)}`;
    default: throw new Error('code');
  }
}

function moveToWire(m) {
  const B = BigInt;
  switch (m.code) {
    case 1: return [1n, B(m.island), m.beaches.map(B)];
    case 2: case 3: return [B(m.code), B(m.island)];
    case 4: return [4n];
    case 5: return [5n, m.beaches.map(B)];
    case 6: return m.nothing ? [6n] : [6n, B(m.island), B(m.beach)];
    case 7: return [7n, B(m.island), B(m.beach), B(m.pier)];
    case 8: return [8n, m.placements.map(([b, cs]) => [B(b), cs.map(B)])];
    case 9: return [9n, B(m.q), B(m.r), B(m.rotation)];
    case 10: return [10n, B(m.tile)];
    default: throw new Error('code');
  }
}

function tileId(word) {
  const i = TILE_NAMES.findIndex((n) => n.replace(' ', '').toLowerCase() === word.toLowerCase());
  if (i < 0) throw new MoveError(`no tile ${word}`);
  return i;
}

/** The text forms of moves.md's table. */
function moveFromText(text) {
  const t = text.trim().split(/\s+/);
  const beach = (s) => { const b = Number(s); if (!Number.isInteger(b) || b < 1) throw new MoveError('beach'); return b - 1; };
  switch (t[0]) {
    case 'place': return { code: 1, island: tileId(t[1]), beaches: t.slice(2).map(beach) };
    case 'expand': return { code: 2, island: tileId(t[1]) };
    case 'royal': return { code: 3, island: tileId(t[1]) };
    case 'colony': return { code: 4 };
    case 'beaches': return { code: 5, beaches: t.slice(1).map(beach) };
    case 'take': return t[1] === 'nothing' ? { code: 6, nothing: true } : { code: 6, island: tileId(t[1]), beach: beach(t[2]) };
    case 'sail': return { code: 7, island: tileId(t[1]), beach: beach(t[2]), pier: DIRS.indexOf(t[3]) };
    case 'land':
      if (t[1] === '-') return { code: 8, placements: [] };
      return { code: 8, placements: t.slice(1).map((p) => { const [b, cs] = p.split(':'); return [beach(b), [...cs].map((c) => COLOUR_LETTERS.indexOf(c))]; }) };
    case 'tile': { const [q, r] = t[1].split(',').map(Number); return { code: 9, q, r, rotation: DIRS.indexOf(t[2]) }; }
    case 'reveal': return { code: 10, tile: tileId(t[1]) };
    default: throw new MoveError('unknown text');
  }
}


module.exports = { moveFromWire, moveToText, moveToWire, moveFromText, MoveError, TILE_NAMES, DIRS, COLOUR_NAMES };
