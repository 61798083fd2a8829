'use strict';
// BLAKE2b with a digest size, key and personalisation, which node's own crypto does not
// offer (its 'blake2b512' has none of the three): taken from @noble/hashes, an audited
// library, rather than written here (`npm ci` in this folder installs it).
const { blake2b: nobleBlake2b } = require('@noble/hashes/blake2b');

// The personalisation is padded with zero bytes to 16, as RFC 7693 and Python's hashlib
// do with a shorter one.
function blake2b(data, { size = 64, key = Buffer.alloc(0), person = Buffer.alloc(0) } = {}) {
  if (size < 1 || size > 64 || key.length > 64 || person.length > 16) throw new Error('blake2b parameters');
  const opts = { dkLen: size, personalization: Buffer.concat([person, Buffer.alloc(16 - person.length)]) };
  if (key.length) opts.key = key;
  return Buffer.from(nobleBlake2b(data, opts));
}

module.exports = { blake2b };
