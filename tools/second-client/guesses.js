'use strict';
// Every place where protocol/*.md does not say what a reader must do, and this reader
// had to choose. Each is a finding: the text should say it (conformance.md), or say
// that the choice is free. `guess(id, text)` records one the first time it is reached.
const seen = new Map();
function guess(id, text) {
  if (!seen.has(id)) seen.set(id, text);
}
module.exports = { guess, seen };
