'use strict';
// protocol/discovery.md: a node's advert (instance name, host name, TXT record) and a
// browser's reading of TXT records.

const SERVICE = '_tongiaki._udp.local.';

function advert(f) {
  const txt = [['v', String(f.protocol)], ['game', f.game_name], ['id', f.game_id], ['phase', f.phase],
    ['seats', `${f.taken}/${f.total}`], ['pass', f.passphrase ? '1' : '0'], ['peer', f.peer], ['name', f.player],
    ['open', String(f.open_seats ?? 0)], ['watch', f.watchable === false ? '0' : '1']];
  if (f.fresh) txt.push(['fresh', '1']);
  // one instance per node for its whole run: `tongiaki <peer id>`, the game's name only in TXT
  return { instance: `tongiaki ${f.peer}.${SERVICE}`, host: `tongiaki-${f.peer}.local.`, txt };
}

/** RFC 6763 §6: each string is a length byte and `key=value`. */
function txtBytes(txt) {
  return Buffer.concat(txt.map(([k, v]) => { const s = Buffer.from(`${k}=${v}`, 'utf8'); return Buffer.concat([Buffer.from([s.length]), s]); }));
}
function txtFromBytes(buf) {
  const out = [];
  for (let i = 0; i < buf.length;) {
    const n = buf[i];
    const s = buf.subarray(i + 1, i + 1 + n).toString('utf8');
    const eq = s.indexOf('=');
    out.push(eq < 0 ? [s, ''] : [s.slice(0, eq), s.slice(eq + 1)]);
    i += 1 + n;
  }
  return out;
}

/** A browser's reading (discovery.md, TXT keys), or null: no game. */
function readTxt(txt, protocol) {
  const m = new Map(txt);
  const get = (k) => m.get(k) ?? '';
  const hex16 = (s) => /^[0-9a-fA-F]{16}$/.test(s);
  if (get('v') !== String(protocol)) return null;
  if (!hex16(get('id')) || !hex16(get('peer'))) return null;
  if (!['lobby', 'starting', 'playing', 'over'].includes(get('phase'))) return null;
  const seats = /^(\d+)\/(\d+)$/.exec(get('seats'));
  if (!seats) return null;
  const [taken, total] = [Number(seats[1]), Number(seats[2])];
  if (!(taken <= total && total <= 6)) return null;
  const open = /^\d+$/.test(get('open')) && Number(get('open')) <= 6 ? Number(get('open')) : 0;
  return {
    game_id: get('id').toLowerCase(), peer: get('peer').toLowerCase(), game_name: [...get('game')].slice(0, 24).join(''),
    player: [...get('name')].slice(0, 24).join(''), phase: get('phase'), taken, total,
    passphrase: get('pass') === '1', open_seats: open, watchable: get('watch') !== '0',
    fresh: get('fresh') === '1',
  };
}

function discoveryVectors({ check, expect, optional, same }) {
  optional('discovery.json', (V) => {
    const sameRead = (a, b) => (a === null || b === null ? a === b : Object.keys(b).length === Object.keys(a).length && Object.keys(b).every((key) => a[key] === b[key]));
    for (const v of V.adverts) {
      check('discovery', v.name, () => {
        const a = advert({ ...v.fields, protocol: V.protocol });
        expect(a.instance === v.instance, `instance ${a.instance}`);
        expect(a.host === v.host, `host ${a.host}`);
        expect(same(a.txt, v.txt), 'TXT properties differ');
        expect(txtBytes(a.txt).toString('hex') === v.txt_bytes, 'TXT bytes differ');
        expect(same(txtFromBytes(Buffer.from(v.txt_bytes, 'hex')), v.txt), 'TXT bytes read to other properties');
        expect(sameRead(readTxt(v.txt, V.protocol), v.read), `read as ${JSON.stringify(readTxt(v.txt, V.protocol))}`);
      });
    }
    check('discovery', 'doctor', () => {
      const d = V.doctor;
      expect(d.instance === `doctor ${d.peer.slice(0, 8)}.${SERVICE}` && d.host === `tongiaki-${d.peer}.local.`, 'names');
      expect(same(d.txt, [['v', 'doctor'], ['peer', d.peer], ['name', d.player]]), 'TXT');
      expect(txtBytes(d.txt).toString('hex') === d.txt_bytes, 'TXT bytes');
      expect(readTxt(d.txt, V.protocol) === null, 'a doctor is no game');
    });
    for (const v of V.not_games) check('discovery', `not a game: ${v.name}`, () => expect(readTxt(v.txt, V.protocol) === null, 'listed as a game'));
    for (const v of V.lenient) check('discovery', `lenient: ${v.name}`, () => expect(sameRead(readTxt(v.txt, V.protocol), v.read), `read as ${JSON.stringify(readTxt(v.txt, V.protocol))}`));
  });
}

module.exports = { discoveryVectors, readTxt, advert };
