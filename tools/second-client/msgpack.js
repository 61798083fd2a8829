'use strict';
// A small msgpack reader and writer for the types protocol/*.md allow: integers (as
// BigInt, since uint64 fields use the whole range), booleans, nil, str (UTF-8), bin and
// arrays. Maps, ext types and floats are refused (wire.md, "Envelope"); a record header
// is the one map the protocol has (record.md), so `readMaps` lets that reader take it.

class MsgpackError extends Error {}

const td = new TextDecoder('utf-8', { fatal: true });

/** Decode one object from buf[off..]; returns [value, nextOffset]. Values: BigInt, true,
 * false, null, string, Buffer (bin), Array, Map (only with readMaps). */
function decodeOne(buf, off = 0, opts = {}) {
  const maxArray = opts.maxArray ?? Infinity;
  const need = (n) => { if (off + n > buf.length) throw new MsgpackError('truncated'); };
  const u = (n) => { need(n); let v = 0n; for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(buf[off + i]); off += n; return v; };
  const s = (n) => { if (n > 2 ** 53) throw new MsgpackError('length'); const v = BigInt.asIntN(n * 8, u(n)); return v; };
  const bytes = (n) => { need(n); const b = Buffer.from(buf.subarray(off, off + n)); off += n; return b; };
  const str = (n) => { const b = bytes(n); try { return td.decode(b); } catch { throw new MsgpackError('invalid UTF-8'); } };
  const arr = (n) => {
    if (n > maxArray) throw new MsgpackError(`array of ${n} elements`);
    const out = [];
    for (let i = 0; i < n; i++) out.push(item());
    return out;
  };
  const map = (n) => {
    if (!opts.readMaps) throw new MsgpackError('map');
    const m = new Map();
    for (let i = 0; i < n; i++) { const k = item(); m.set(k, item()); }
    return m;
  };
  function item() {
    need(1);
    const b = buf[off++];
    if (b <= 0x7f) return BigInt(b);
    if (b >= 0xe0) return BigInt(b - 0x100);
    if (b >= 0x90 && b <= 0x9f) return arr(b & 0x0f);
    if (b >= 0xa0 && b <= 0xbf) return str(b & 0x1f);
    if (b >= 0x80 && b <= 0x8f) return map(b & 0x0f);
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc4: return bytes(Number(u(1)));
      case 0xc5: return bytes(Number(u(2)));
      case 0xc6: return bytes(Number(u(4)));
      case 0xcc: return u(1);
      case 0xcd: return u(2);
      case 0xce: return u(4);
      case 0xcf: return u(8);
      case 0xd0: return s(1);
      case 0xd1: return s(2);
      case 0xd2: return s(4);
      case 0xd3: return s(8);
      case 0xd9: return str(Number(u(1)));
      case 0xda: return str(Number(u(2)));
      case 0xdb: return str(Number(u(4)));
      case 0xdc: return arr(Number(u(2)));
      case 0xdd: return arr(Number(u(4)));
      case 0xde: return map(Number(u(2)));
      case 0xdf: return map(Number(u(4)));
      // a float is read (a field refuses it by its type: conformance.md)
      case 0xca: { need(4); const f = buf.readFloatBE(off); off += 4; return f; }
      case 0xcb: { need(8); const f = buf.readDoubleBE(off); off += 8; return f; }
      case 0xc1: throw new MsgpackError('reserved byte 0xc1');
      default: throw new MsgpackError('ext type');
    }
  }
  const v = item();
  return [v, off];
}

/** Exactly one object filling the whole buffer. */
function decode(buf, opts) {
  const [v, end] = decodeOne(buf, 0, opts);
  if (end !== buf.length) throw new MsgpackError('extra data');
  return v;
}

/** Encode in the shortest form of every value (what the reference packer writes). */
function encode(v) {
  const parts = [];
  const be = (n, x) => { const b = Buffer.alloc(n); let y = BigInt(x); for (let i = n - 1; i >= 0; i--) { b[i] = Number(y & 0xffn); y >>= 8n; } return b; };
  function put(x) {
    if (x === null) parts.push(Buffer.from([0xc0]));
    else if (x === true) parts.push(Buffer.from([0xc3]));
    else if (x === false) parts.push(Buffer.from([0xc2]));
    else if (typeof x === 'number') { if (!Number.isSafeInteger(x)) throw new Error('not an integer'); put(BigInt(x)); }
    else if (typeof x === 'bigint') {
      if (x >= 0n) {
        if (x <= 0x7fn) parts.push(Buffer.from([Number(x)]));
        else if (x <= 0xffn) parts.push(Buffer.from([0xcc]), be(1, x));
        else if (x <= 0xffffn) parts.push(Buffer.from([0xcd]), be(2, x));
        else if (x <= 0xffffffffn) parts.push(Buffer.from([0xce]), be(4, x));
        else parts.push(Buffer.from([0xcf]), be(8, x));
      } else {
        if (x >= -32n) parts.push(Buffer.from([Number(x + 256n)]));
        else if (x >= -128n) parts.push(Buffer.from([0xd0]), be(1, x + 256n));
        else if (x >= -32768n) parts.push(Buffer.from([0xd1]), be(2, x + 65536n));
        else if (x >= -(2n ** 31n)) parts.push(Buffer.from([0xd2]), be(4, x + 2n ** 32n));
        else parts.push(Buffer.from([0xd3]), be(8, x + 2n ** 64n));
      }
    } else if (typeof x === 'string') {
      const b = Buffer.from(x, 'utf8');
      if (b.length <= 31) parts.push(Buffer.from([0xa0 | b.length]));
      else if (b.length <= 0xff) parts.push(Buffer.from([0xd9, b.length]));
      else if (b.length <= 0xffff) parts.push(Buffer.from([0xda]), be(2, b.length));
      else parts.push(Buffer.from([0xdb]), be(4, b.length));
      parts.push(b);
    } else if (Buffer.isBuffer(x) || x instanceof Uint8Array) {
      const b = Buffer.from(x);
      if (b.length <= 0xff) parts.push(Buffer.from([0xc4, b.length]));
      else if (b.length <= 0xffff) parts.push(Buffer.from([0xc5]), be(2, b.length));
      else parts.push(Buffer.from([0xc6]), be(4, b.length));
      parts.push(b);
    } else if (Array.isArray(x)) {
      if (x.length <= 15) parts.push(Buffer.from([0x90 | x.length]));
      else if (x.length <= 0xffff) parts.push(Buffer.from([0xdc]), be(2, x.length));
      else parts.push(Buffer.from([0xdd]), be(4, x.length));
      x.forEach(put);
    } else if (x instanceof Map) {
      if (x.size <= 15) parts.push(Buffer.from([0x80 | x.size]));
      else parts.push(Buffer.from([0xde]), be(2, x.size));
      for (const [k, v] of x) { put(k); put(v); }
    } else throw new Error(`cannot encode ${typeof x}`);
  }
  put(v);
  return Buffer.concat(parts);
}

module.exports = { decode, decodeOne, encode, MsgpackError };
