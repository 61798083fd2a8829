"""Taking part in the draws again (protocol/draws.md, "Taking part again"): a laptop the
table drew without (its lid closed past the table's wait), or one that joined mid-game,
commits to a fresh hash chain, and the table takes it into the lobby for a draw no value
of which is out yet. Without this, one 15 s lid close at a table of two left the other
laptop drawing every tile for the rest of the game: its software alone could know them.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own.

Why a chain taken so cannot steer a tile: its head is fixed before any value of its first
draw is out. Every node checks that for itself: it refuses a chain into a draw whose value
it gave before it first heard of that chain (from the chain's owner, or the lobby). The
coordinator, which takes it into the lobby, names a first draw no node can have reached
(`_first_draw_of_a_chain`), so an honest table never refuses one.
"""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.draws import Chain
from tongiaki_lan.engine.tiles import STACK_IDS
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import Lobby, NewChain

log = logging.getLogger("tongiaki_lan.net.protocol.latechains")

NEW_CHAIN_RESEND_S = 2.0  # a chain not in the lobby yet is offered again this often
# how far past the draw the coordinator has not dealt yet a new chain begins (one more when
# it does not draw itself: `_first_draw_of_a_chain`)
CHAIN_LEAD = 2
MAX_HEADS_HEARD = 256  # heads remembered a game (each honest laptop offers a few at most)


class LateChains:
    def _reset_late_chains(self) -> None:
        self._late_secrets: list[bytes] = []  # our chains committed mid-game
        self._offered: Chain | None = None  # the one we offer the table now
        self._offered_at = -1e9
        self._chain_asks: dict[bytes, bytes] = {}  # member -> the head it offers
        # head -> the last draw whose value this node had given when it first heard it
        self._heads_heard: dict[bytes, int] = {}
        self._gave_upto = -1  # the last draw whose value this node gave

    # ------------------------------------------------------------------ who draws

    def _index_of(self, peer: bytes) -> int | None:
        """A node's contributor index: its latest chain's (an earlier one was left out)."""
        for i in range(len(self.contributors) - 1, -1, -1):
            if self.contributors[i] == peer:
                return i
        return None

    def _draws_now(self, peer: bytes, k: int, lobby: Lobby | None = None) -> bool:
        """Does the node take part in draw k by its latest chain (as `lobby` has it)?"""
        i = self._index_of(peer)
        dropped = (lobby or self.lobby).dropped
        return i is not None and all(not (j == i and first <= k) for j, first in dropped)

    def _sync_chains(self, tell: bool = True) -> bool:
        """Take the lobby's chains committed mid-game into the contributors and the draw
        book, and adopt ours: called whenever the lobby changes (`tell`: say so). Whether
        it took any."""
        lb = self.lobby
        if lb is None or self.draw_book is None or not self.contributors:
            return False
        known = len(self.contributors) - self._n_seed
        if len(lb.chains) <= known:
            return False
        for peer, head, first in lb.chains[known:]:
            self.contributors.append(peer)
            i = self.draw_book.add(head, first)
            self._heads_heard.setdefault(head, self._gave_upto)
            if peer == self.peer_id:
                for secret in self._late_secrets:
                    chain = Chain(secret)
                    if chain.commitment == head:
                        self._chain = chain.starting_at(first)
                if self._offered is not None and self._offered.commitment == head:
                    self._offered = None
            self._chain_asks.pop(peer, None)
            again = peer in self.contributors[:i]
            log.info("%s takes part in the draws%s from tile %d on (draw %d)",
                     self.peer_name(peer), " again" if again else "", first + 1, first)
            if tell:
                self._emit(E.ContributorTaken(i, peer.hex(), self.peer_name(peer), first,
                                              again))
        return True

    # ------------------------------------------------------------------ offering a chain

    def _plays(self, peer: bytes) -> bool:
        """Does the node play a seat itself (not a bot for it while it is away)?"""
        return any(s.owner == peer and s.kind == "human" and not s.bot
                   for s in self.lobby.seats)

    def _room_for_a_chain(self) -> bool:
        return (L.room_for_a_chain(self.lobby)
                and self.game.draws() + CHAIN_LEAD < len(STACK_IDS))

    def _chain_tick(self) -> None:
        """Offer the table a fresh chain while we play but draw no longer (or never did),
        and, as the member that takes chains, take those offered."""
        g, lb = self.game, self.lobby
        if (g is None or lb is None or self.stopped or g.is_over or self.watching
                or lb.phase != "playing" or not self.contributors):
            return
        self._take_chains()
        me = self.peer_id
        if (not self._plays(me) or self._draws_now(me, g.draws() + CHAIN_LEAD)
                or not self._room_for_a_chain() or self._waking is not None
                or self.hears_nobody() or self.now - self._unheard_at <= 2 * NEW_CHAIN_RESEND_S
                or len(self.present()) < 2):
            return
        heads = {h for _, h, _ in lb.chains}
        if self._offered is None or self._offered.commitment in heads:
            self._offered = Chain(self.entropy(32))  # (never one the table took before)
            self._late_secrets.append(self._offered.secret)
            self._emit(E.ChainMade())  # (the glue keeps its secret, as the first one's)
        if self.now - self._offered_at < NEW_CHAIN_RESEND_S:
            return
        self._offered_at = self.now
        head = self._offered.commitment
        self._heads_heard.setdefault(head, self._gave_upto)
        self._chain_asks[me] = head
        self._broadcast(NewChain(head))
        self._take_chains()

    def _on_new_chain(self, peer: bytes, msg: NewChain) -> None:
        if self.watching:
            return  # (a watcher decides nothing: its feeder's table does)
        if self.game is None:
            self._refuse_msg(peer, "new_chain", "a chain offered before the game started")
            return
        if msg.head not in self._heads_heard and len(self._heads_heard) >= MAX_HEADS_HEARD:
            # (a member offering head after head: the honest offer a few a game)
            self._refuse_msg(peer, "new_chain", f"more than {MAX_HEADS_HEARD} chains offered "
                             "in one game")
            return
        self._heads_heard.setdefault(msg.head, self._gave_upto)
        self._chain_asks[peer] = msg.head
        self._take_chains()

    def _first_draw_of_a_chain(self) -> int | None:
        """The first draw of a chain this node would take into the lobby now, or None when
        it takes none. The coordinator takes them, as it makes every lobby change (two
        members changing the lobby at once would each keep their own version). Drawing
        itself, it names the draw after the one it has not dealt: nobody can have given a
        value of that one. Not drawing (a host back from a sleep), it waits until it is
        abreast of every member's moves and names one draw later still."""
        g = self.game
        if self.coordinator() != self.peer_id or self._waking is not None:
            return None
        if self._draws_now(self.peer_id, g.draws() + 1):
            return g.draws() + CHAIN_LEAD
        n = len(g.moves)  # (a member not heard of since a restart may be anywhere)
        if any(self._progress.get(p, n + 1) > n for p in self.present() if p != self.peer_id):
            return None
        return g.draws() + CHAIN_LEAD + 1

    def _take_chains(self) -> None:
        lb = self.lobby
        first = self._first_draw_of_a_chain() if self._chain_asks else None
        if first is None:
            return
        heads = {h for _, h, _ in lb.chains} | set(self.draw_book.commitments)
        added = []
        for peer in sorted(self._chain_asks):
            head = self._chain_asks[peer]
            # (one left out while present withheld its values: it stays out)
            if (head in heads or not L.is_member(lb, peer) or not self._plays(peer)
                    or peer in self._withholders
                    or self.presence.is_absent(peer) or self._draws_now(peer, first)
                    or not L.room_for_a_chain(dataclasses.replace(
                        lb, chains=(*lb.chains, *added)))
                    or first >= len(STACK_IDS)):
                continue
            added.append((peer, head, first))
        self._chain_asks.clear()
        if added:
            self._install_lobby(dataclasses.replace(lb, version=lb.version + 1,
                                                    chains=(*lb.chains, *added)),
                                broadcast=True)

    # ------------------------------------------------------------------ a lobby that takes one

    def _chains_refused(self, peer: bytes, cur: Lobby, new: Lobby) -> str | None:
        """Whether to take a lobby from `peer` that takes chains into the draws: None (yes)
        or the reason. Never a chain into a draw whose value this node gave before it knew
        of that chain (its owner could have chosen it knowing the others' values)."""
        if new.chains[:len(cur.chains)] != cur.chains:
            return "it takes back a chain the table took into the draws"
        seed_heads = set(self.draw_book.commitments[:self._n_seed])
        for owner, head, first in new.chains[len(cur.chains):]:
            name = self.peer_name(owner)
            if head in seed_heads:
                return f"it takes {name}'s chain of the start into the draws again"
            if not L.is_member(new, owner):
                return f"it takes a chain of {owner.hex()[:8]}, who is not at the table"
            heard = self._heads_heard.get(head, self._gave_upto)
            if first <= heard:
                return (f"it takes {name}'s new chain into draw {first}, whose value this "
                        "node gave before it heard of that chain")
            if self._draws_now(owner, first, new):
                return f"it takes a second chain of {name}, who takes part in the draws"
        return None
