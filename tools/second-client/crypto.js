'use strict';
// Ed25519, X25519, HMAC-SHA256 and PBKDF2 from node's own crypto; BLAKE2b from blake2b.js.
const c = require('crypto');
const { blake2b } = require('./blake2b');

const ED_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const ED_SPKI = Buffer.from('302a300506032b6570032100', 'hex');
const X_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X_SPKI = Buffer.from('302a300506032b656e032100', 'hex');

const edPrivate = (seed) => c.createPrivateKey({ key: Buffer.concat([ED_PKCS8, seed]), format: 'der', type: 'pkcs8' });
const edPublicKey = (pub) => c.createPublicKey({ key: Buffer.concat([ED_SPKI, pub]), format: 'der', type: 'spki' });

/** The 32-byte Ed25519 public key of a 32-byte seed (RFC 8032). */
function edPublic(seed) {
  return c.createPublicKey(edPrivate(seed)).export({ format: 'der', type: 'spki' }).subarray(-32);
}
const edSign = (seed, data) => c.sign(null, data, edPrivate(seed));
function edVerify(pub, sig, data) {
  try { return c.verify(null, data, edPublicKey(pub), sig); } catch { return false; }
}

/** security.md: peer id = BLAKE2b(public key, digest_size=8, person="tongiaki-peer"). */
const peerId = (pub) => blake2b(pub, { size: 8, person: Buffer.from('tongiaki-peer') });

const xPrivate = (priv) => c.createPrivateKey({ key: Buffer.concat([X_PKCS8, priv]), format: 'der', type: 'pkcs8' });
function xPublic(priv) {
  return c.createPublicKey(xPrivate(priv)).export({ format: 'der', type: 'spki' }).subarray(-32);
}
/** The X25519 shared secret, or null when there is none (all zero: a low-order point). */
function xShared(priv, pub) {
  let s;
  try {
    s = c.diffieHellman({ privateKey: xPrivate(priv), publicKey: c.createPublicKey({ key: Buffer.concat([X_SPKI, pub]), format: 'der', type: 'spki' }) });
  } catch { return null; }
  return s.every((b) => b === 0) ? null : s;
}

const hmac = (key, data) => c.createHmac('sha256', key).update(data).digest();
const pbkdf2 = (pass, salt, n, len) => c.pbkdf2Sync(Buffer.from(pass, 'utf8'), salt, n, len, 'sha256');

module.exports = { blake2b, edPublic, edSign, edVerify, peerId, xPublic, xShared, hmac, pbkdf2 };
