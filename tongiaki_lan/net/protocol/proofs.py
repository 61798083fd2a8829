"""Signed statements and proofs of misbehaviour (protocol/security.md, "Proof of
misbehaviour"), as pure functions: no clock, no socket, no game state of a node.

Why: a datagram is authenticated for its receiver only (a link MAC, which the receiver
could forge itself), so what a member said cannot be shown to anyone else. A member's
moves and lobbies therefore carry a signature of their own over a *statement* — who, in
which run, which move index, the state before and after, the move; or which lobby
version with which content. Two statements of one run that cannot both be true, or a move
statement the deterministic rules engine refuses, then prove to any member, with the
accused's key alone, that the accused's laptop sent what no honest node sends (a bad
memory module, a half-updated copy of the program, a patched one). Honest nodes never
sign such pairs: within one run (incarnation) a node never takes a move back (a take-back
starts a new run, `Links.rebirth`), and it writes each lobby version once.
"""

from __future__ import annotations

import dataclasses

from tongiaki_lan.engine import Game, IllegalMove, move_from_wire
from tongiaki_lan.net.protocol.codec import (
    PROOF_REFUSED_MOVE,
    PROOF_TWO_LOBBIES,
    PROOF_TWO_MOVES,
    Lobby,
    LobbyStatement,
    Log,
    MoveMsg,
    MoveStatement,
    Proof,
    Stamp,
    entry_parts,
    lobby_body_hash,
    lobby_statement_bytes,
    move_statement_bytes,
)
from tongiaki_lan.net.protocol.identity import peer_id_of, verify

# What a proof says, in words: events and screens name the kind with these
KIND_WORDS = {
    PROOF_TWO_MOVES: "two different moves for one move of the game",
    PROOF_REFUSED_MOVE: "a move the rules refuse",
    PROOF_TWO_LOBBIES: "two different tables under one version",
}
KIND_NAMES = {PROOF_TWO_MOVES: "two-moves", PROOF_REFUSED_MOVE: "refused-move",
              PROOF_TWO_LOBBIES: "two-lobbies"}


# ---------------------------------------------------------------------- signing


def sign_move(identity, game: bytes, inc: int, index: int, before: bytes, after: bytes,
              move: list) -> bytes:
    return identity.sign(move_statement_bytes(game, identity.peer_id, inc, index, before,
                                              after, move))


def move_signature_ok(public: bytes, game: bytes, signer: bytes, inc: int, index: int,
                      before: bytes, after: bytes, move: list, sig: bytes) -> bool:
    return verify(public, sig, move_statement_bytes(game, signer, inc, index, before, after,
                                                    move))


def sign_lobby(identity, game: bytes, inc: int, lobby: Lobby) -> Lobby:
    """The lobby as `identity` writes it: its key, run and signature attached."""
    unsigned = dataclasses.replace(lobby, author_key=identity.public, inc=inc, sig=b"")
    sig = identity.sign(lobby_statement_bytes(game, identity.peer_id, inc, lobby.version,
                                              lobby_body_hash(unsigned)))
    return dataclasses.replace(unsigned, sig=sig)


def lobby_statement(lobby: Lobby) -> LobbyStatement:
    return LobbyStatement(lobby.inc, lobby.version, lobby_body_hash(lobby), lobby.sig)


def lobby_signature_ok(game: bytes, lobby: Lobby) -> bool:
    if not lobby.author_key or not lobby.sig:
        return False
    st = lobby_statement(lobby)
    return verify(lobby.author_key, lobby.sig, st.signed_bytes(game, lobby.author))


def short_lobby_hash(lobby: Lobby | None) -> bytes:
    """What a HEARTBEAT carries of the sender's lobby (its body hash's first 8 bytes)."""
    return lobby_body_hash(lobby)[:8] if lobby is not None and lobby.sig else b""


# ---------------------------------------------------------------------- checking

# The refusal texts (protocol/security.md, "Checking a proof"; vectors/net/proofs.json)
NOT_THE_KEY = "proof: the key does not belong to the accused"
BAD_SIGNATURE = "proof: the {which} statement's signature does not hold"
TWO_RUNS = ("proof: the statements come from two runs of the accused (a restart may "
            "decide anew), which proves nothing")
SAME = "proof: the two statements are the same"
CONSISTENT = "proof: the statements of moves {a} and {b} agree (the state after one is the " \
             "state before the next)"
APART = "proof: statements of moves {a} and {b} neither share an index nor follow each other"
TWO_VERSIONS = "proof: lobby versions {a} and {b} differ, which proves nothing"
NOT_OUR_STATE = ("proof: the state before move {index} is not this game's here (another "
                 "game, or this node has not reached it): it cannot be checked")
ENGINE_AGREES = "proof: the rules accept move {index} and give the state it claims"


def check_proof(proof: Proof, game: bytes,
                state_before=None) -> str | None:
    """None when `proof` holds; else the reason it does not (a refusal text).

    `state_before(index)` gives a copy of this node's game after its first `index` moves
    (None if it has not that many): only a refused-move proof needs it, and it is checked
    only against this node's own game, never against anything the reporter says."""
    if peer_id_of(proof.public) != proof.accused:
        return NOT_THE_KEY
    a, b = proof.first, proof.second
    if proof.kind == PROOF_TWO_LOBBIES:
        for which, st in (("first", a), ("second", b)):
            if not verify(proof.public, st.sig, st.signed_bytes(game, proof.accused)):
                return BAD_SIGNATURE.format(which=which)
        if a.inc != b.inc:
            return TWO_RUNS
        if a.version != b.version:
            return TWO_VERSIONS.format(a=a.version, b=b.version)
        if a.body_hash == b.body_hash:
            return SAME
        return None
    statements = (("first", a),) if b is None else (("first", a), ("second", b))
    for which, st in statements:
        if not verify(proof.public, st.sig, st.signed_bytes(game, proof.accused)):
            return BAD_SIGNATURE.format(which=which)
    if proof.kind == PROOF_TWO_MOVES:
        if a.inc != b.inc:
            return TWO_RUNS
        if a.index == b.index:  # (the signature alone is no difference: a signer may
            # sign one statement twice, with two signatures, and stay honest)
            return SAME if _said(a) == _said(b) else None
        x, y = (a, b) if a.index < b.index else (b, a)
        if y.index != x.index + 1:
            return APART.format(a=x.index, b=y.index)
        if y.before == x.after:
            return CONSISTENT.format(a=x.index, b=y.index)
        return None
    # PROOF_REFUSED_MOVE: this node's own game at that index is the judge
    g = state_before(a.index) if state_before is not None else None
    if g is None or g.digest() != a.before:
        return NOT_OUR_STATE.format(index=a.index)
    return refused_why(g, a)


def refused_why(g: Game, st: MoveStatement) -> str | None:
    """None when the rules refuse the statement's move in `g` (the state before it) or it
    gives another state than the one claimed; else ENGINE_AGREES."""
    try:
        move = move_from_wire(st.move)
        g.apply(move)
    except (IllegalMove, ValueError):
        return None
    return None if g.digest() != st.after else ENGINE_AGREES.format(index=st.index)


def contradiction(a: MoveStatement, b: MoveStatement) -> bool:
    """Do two statements of one signer prove it lied (the rule of `check_proof`)?"""
    if a.inc != b.inc:
        return False
    if a.index == b.index:
        return _said(a) != _said(b)
    x, y = (a, b) if a.index < b.index else (b, a)
    return y.index == x.index + 1 and y.before != x.after


def _said(st: MoveStatement) -> tuple:
    """What a move statement says, its signature left out."""
    return st.before, st.move, st.after


def describe(proof: Proof) -> str:
    """One line for a log and a screen: what the accused sent."""
    a, b = proof.first, proof.second
    if proof.kind == PROOF_TWO_LOBBIES:
        return f"two different lobbies both numbered version {a.version}"
    if proof.kind == PROOF_REFUSED_MOVE:
        return f"move {a.index} ({a.move}), which the rules refuse or which does not give " \
               "the state it claims"
    if a.index == b.index and a.move == b.move:
        return f"two different states for one move, move {a.index} ({a.move})"
    if a.index == b.index:
        return f"two different moves both numbered move {a.index} ({a.move} and {b.move})"
    return f"moves {min(a.index, b.index)} and {max(a.index, b.index)} that do not follow " \
           "each other"


def proof_index(proof: Proof) -> int | None:
    """The lowest move index a move proof names (None for a lobby proof)."""
    if proof.kind == PROOF_TWO_LOBBIES:
        return None
    return min(s.index for s in (proof.first, proof.second) if s is not None)


# ---------------------------------------------------------------------- the lab's broken laptop


def re_sign(core, msg):
    """Sign again what this node signed inside `msg` after a test corrupted it
    (net/lab/corrupt.py): a broken laptop corrupts its messages before its key signs
    them, so what leaves it is validly signed. Statements of other signers (moves it
    passes on, lobbies it relays) it cannot sign: those stay as they are."""
    ident, game, inc = core.identity, core.game_id, core.links.incarnation
    if isinstance(msg, MoveMsg):
        prev = tuple(_re_sign_entry(core, msg.index - len(msg.prev) + k, e, msg.prev, k)
                     for k, e in enumerate(msg.prev))
        return dataclasses.replace(msg, prev=prev, sig=sign_move(
            ident, game, inc, msg.index, msg.before, msg.digest, msg.move))
    if isinstance(msg, Log):
        return dataclasses.replace(msg, entries=tuple(
            _re_sign_entry(core, msg.start + k, e, msg.entries, k)
            for k, e in enumerate(msg.entries)))
    if isinstance(msg, Lobby) and msg.author_key == ident.public:
        return sign_lobby(ident, game, inc, msg)
    return msg


def _re_sign_entry(core, index: int, e: tuple, entries: tuple, k: int) -> tuple:
    wire, digest, values, stamp = entry_parts(e)
    if stamp is None or stamp.signer != core.peer_id:
        return e
    before = core.digest_before(index)
    if before is None:
        return e
    return (wire, digest, Stamp(stamp.signer, stamp.inc, sign_move(
        core.identity, core.game_id, stamp.inc, index, before, digest, wire)))
