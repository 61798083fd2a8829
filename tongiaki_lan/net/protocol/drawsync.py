"""Fair draws of NodeCore (protocol/draws.md): every tile is decided by the chain values
of all contributing nodes, each sent only once its sender has applied the move that
needs the draw, so no node — not even a modified one — knows a tile before the last
value is out.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own. The draw itself is pure and lives
in `tongiaki_lan.draws`; this part decides when values are sent, collects them, deals
the tile when they are all in, and agrees with the others to leave out a contributor
that stops revealing.
"""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.draws import Chain, DrawBook, preimage_ok
from tongiaki_lan.engine import Game, Reveal
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import MAX_LATE_CHAINS, Draw, Fetch, Lobby
from tongiaki_lan.net.protocol.settings import (
    DRAW_ASK_S,
    DRAW_FANOUT_S,
    DRAW_RESEND_S,
    FORK_GRACE_S,
    HANDOVER_AFTER_S,
    HEARTBEAT_S,
)

log = logging.getLogger("tongiaki_lan.net.protocol.drawsync")

WAITING = "waiting for the values of a draw"  # not a refusal: the entry comes again later
DEFER = "defer"


class DrawSync:
    def _setup_draws(self, contributors: list[bytes], heads: tuple[bytes, ...],
                     chain: Chain | None) -> None:
        """The contributors (in seed order), their chain heads, and our own chain; the
        draws already dealt are those in `_proof_of` (a resumed record's)."""
        self.contributors = list(contributors)
        self._n_seed = len(self.contributors)
        self._seed_heads = tuple(heads)
        self._chain = self._seed_chain = chain
        self._rebuild_book()

    def _rebuild_book(self) -> None:
        """The draw book from the chain heads (the seed round's, then those the lobby took
        mid-game: `LateChains`) and the draws dealt so far."""
        del self.contributors[self._n_seed:]
        self._chain = self._seed_chain
        self.draw_book = DrawBook(self.seed, self._seed_heads)
        self._sync_chains(tell=False)
        self._remember_dealt()

    def _remember_dealt(self) -> None:
        """The draws dealt so far, as the latest values of each chain. A value of a chain
        the lobby does not hold yet (a resume whose saved lobby is older than its record)
        waits for the table's lobby, which brings the chain and calls this again."""
        n = len(self.contributors)
        for k, (_, values) in self._dealt().items():
            self.draw_book.remember(k, [(i, v) for i, v in values if i < n])

    @property
    def seed_contributors(self) -> list[bytes]:
        """The contributors of the seed round (`<record>.net` keeps them; the lobby keeps
        those that came later)."""
        return self.contributors[:self._n_seed]

    @property
    def seed_heads(self) -> tuple[bytes, ...]:
        """Their chain heads: a record's header and WATCH_STATE carry these alone (the
        chains taken mid-game ride in the lobby, and in the record beside their first
        value)."""
        return self._seed_heads

    def _dealt(self) -> dict[int, tuple[int, tuple]]:
        """Draw k -> (move index of its reveal, its values): every reveal of a LAN game
        carries its values, so the k-th of them is draw k."""
        return dict(enumerate(sorted(self._proof_of.items())))

    @property
    def my_contributor(self) -> int | None:
        return self._index_of(self.peer_id)

    def _active(self, k: int) -> list[int]:
        """Contributors whose value draw k needs: those whose chain began by draw k and
        that the table has not left out of it."""
        gone = {i for i, first in self.lobby.dropped if first <= k}
        firsts = self.draw_book.firsts
        return [i for i in range(len(self.contributors)) if i not in gone and firsts[i] <= k]

    def _entry(self, i: int) -> tuple:
        """Move i as it rides in MOVE and LOG: with its draw's values when it is a reveal,
        with its mover's stamp when we know who signed it (not a move of our record from
        before a restart: stamps are kept in memory only)."""
        values = self._proof_of.get(i)
        wire, digest = self.game.moves[i].to_wire(), self._digest_list[i]
        if values is not None:
            return (wire, digest, values)
        return (wire, digest, self._stamps[i]) if self._stamp_ok(i) else (wire, digest)

    # ------------------------------------------------------------------ dealing

    def _deal(self) -> int:
        """Deal every reveal the game awaits whose values are all in; send our own value
        for the draw we have reached (never earlier). Returns how many tiles it dealt."""
        g = self.game
        dealt = 0
        while g.awaiting_reveal and not self.stopped:
            k = g.draws()
            if self._draw_wait is None or self._draw_wait[0] != k:
                self._draw_wait = (k, self.now)
            pool = self._draw_pool.setdefault(k, {})
            me = self.my_contributor
            active = self._active(k)
            if me is not None and self._chain is not None and me in active and me not in pool:
                # (no chain: a former player watching the game it drew for; its values
                # come with the reveals it is fed, as any watcher's do)
                pool[me] = self._chain.preimage(k)
                self._gave_upto = max(self._gave_upto, k)
                self._send_value(k, me, pool[me])
            if any(i not in pool for i in active):
                self._check_deferred()
                return dealt
            if self._waking is not None:
                # (back from a sleep, or a stopped process: the values that waited in our
                # socket may be of a draw the table has dealt without us since. Dealt
                # here, that is a tile the table never drew, told to our player and
                # taken back a moment later; the table's answer to the wake says which)
                return dealt
            values = tuple((i, pool[i]) for i in active)
            if self._gatherer_of_draws() == self.peer_id and self._passed_on != k:
                # the whole draw goes out before we deal it ourselves: our own deal then
                # waits for the next turn of the loop instead of every peer's
                self._passed_on = k
                self._pass_on(k, values, everyone=True)
                self._deal_due = self.now
                return dealt
            unrevealed = g.unrevealed_tiles()
            # each value was checked against its chain as it came in (`_take_values`, or
            # our own): a refusal here is a bug or a bad lobby
            why = self.draw_book.check(k, values, unrevealed, hashed=True)
            if why:
                self._stop(f"draw {k}: {why}")
                return dealt
            if any(self._away_lately(i) for i in active if i != me):
                self._late_deal_at = self.now  # (its value may be one the table left out)
            move = Reveal(self.draw_book.tile)
            start = len(g.events)
            g.apply(move)
            idx = len(g.moves) - 1
            digest = g.digest()
            self._digest_list.append(digest)
            self._proof_of[idx] = values
            self._draw_pool.pop(k, None)
            self._draw_wait = None
            self._emit(E.RecordMove(idx, move, digest, self._proof_for_record(k, values)))
            self.move_times.setdefault(idx, self.now)
            self._emit(E.TileRevealed(idx, str(move), start))
            if self._passed_on != k:
                self._pass_on(k, values)
            dealt += 1
        return dealt

    def _proof_for_record(self, k: int, values: tuple) -> list:
        """A draw's values as the record keeps them: a chain taken mid-game has its head
        beside its first value, so `verify` can check it (protocol/record.md)."""
        book = self.draw_book
        return [[i, v, book.commitments[i]] if i >= self._n_seed and book.firsts[i] == k
                else [i, v] for i, v in values]

    def _gatherer_of_draws(self) -> bytes | None:
        """The node that gathers a draw's values and passes the whole draw on: the one whose
        move called for it (it sent that move a moment ago, so it is awake and everyone
        hears it). None when there is none to trust with it: everyone sends to everyone."""
        c = self._gatherer
        if c is None or c != self.peer_id and self.presence.is_absent(c):
            return None
        if self.lobby.dropped and c in self.dropped_peers():
            return None
        return c

    def _send_value(self, k: int, me: int, value: bytes) -> None:
        """Our value for draw k, now that we may give it: to the gatherer only, which
        passes the whole draw on (one datagram each way per node instead of one from every
        node to every other); to everyone when there is no gatherer, or the link to it
        loses datagrams. If the tile is still not dealt after DRAW_FANOUT_S,
        `_draw_tick` sends it to everyone anyway."""
        c = self._gatherer_of_draws()
        lk = self.links.links.get(c) if c is not None else None
        if c is None or c != self.peer_id and (lk is None or lk.copies() > 1):
            # (over a lossy link a third trip costs more than the datagrams it saves)
            self._fanned = k
            self._broadcast(Draw(k, ((me, value),)))
        elif c != self.peer_id:
            self.links.send(c, self._addr_of(c), Draw(k, ((me, value),)))

    def _pass_on(self, k: int, values: tuple, everyone: bool = False) -> None:
        """The whole draw to every member (`everyone`: the gatherer's job), or to those
        over a lossy link: waiting for the resend of the one value the peer may have lost
        would cost it a round trip or more. A watcher passes nothing on: it has no say."""
        if self.watching:
            return
        for peer in self._recipients():
            lk = self.links.links.get(peer)
            if everyone or (lk is not None and lk.copies() > 1):
                self.links.send(peer, self._addr_of(peer), Draw(k, values))

    def _deal_timer(self) -> None:
        """The gatherer's own deal, a turn of the loop after it passed the draw on."""
        self._deal_due = None
        if self.game is not None and not self.stopped and self._deal():
            self._after_reveals()

    def _after_reveals(self) -> None:
        """What follows a tile dealt outside a move (values that came in, a drop)."""
        self._drain_buffer()
        if self.game.is_over:
            self._game_over()
        else:
            self._after_state_change()

    def _take_values(self, peer: bytes, k: int, values) -> str | None:
        """Keep the values of draw k that prove themselves; why not, naming the value."""
        g = self.game
        if k < g.draws():
            return None  # dealt already
        pool = self._draw_pool.setdefault(k, {})
        book = self.draw_book
        for i, v in values:
            if i >= len(self.contributors):
                if i < self._n_seed + MAX_LATE_CHAINS:
                    continue  # (a chain the table took: its lobby is on its way)
                return f"draw {k}: there is no contributor {i}"
            if i in pool:
                continue
            if not preimage_ok(book.last[i], book.last_draw[i], v, k):
                who = self.peer_name(self.contributors[i])
                return (f"draw {k}: the value given for contributor {i} ({who}) does not hash "
                        "to the value it committed to")
            pool[i] = v
            if self.contributors[i] != peer:  # (proof that it reached draw k: it plays)
                self._seen_through_others(self.contributors[i])
        return None

    def _on_draw(self, peer: bytes, msg: Draw) -> None:
        g = self.game
        if g is None:
            if len(self._early_draws) < 64:
                self._early_draws.append((peer, msg))  # overtook our own seed confirmation
            return
        if self.stopped or g.is_over:
            return
        if msg.draw < g.draws():
            self._fill_in(peer, msg)
            return
        why = self._take_values(peer, msg.draw, msg.values)
        if why:
            self._refuse_msg(peer, f"draw {msg.draw}", why)
            return
        if msg.draw == g.draws() and self._deal():
            self._after_reveals()

    def _fill_in(self, peer: bytes, msg: Draw) -> None:
        """Values of a draw we dealt already: when they are part of the values we dealt it
        with, the sender still waits for it (a node sends part of a draw only before
        dealing it), so it gets the whole draw back. This is how a value reaches a node
        that cannot hear its contributor while others can (a one-way fault: a firewall, a
        Wi-Fi link bad in one direction). Without it that node, waiting alone, would leave
        the contributor out of a draw the others dealt with its value: the table forked."""
        dealt = self._dealt().get(msg.draw)
        if dealt is None or self.watching:
            return
        values = dealt[1]
        if not {i for i, _ in msg.values} < {i for i, _ in values}:
            # the whole draw (passed on: the sender has it), or a value we dealt without
            # (a forked game's draw: nothing of ours belongs in it, and a reply would
            # only bring that draw back, for ever)
            return
        self.links.send(peer, self._addr_of(peer),
                        Draw(msg.draw, tuple((i, v) for i, v in values)))

    def _reveal_entry(self, peer: bytes, wire: list, digest: bytes, values) -> str | None:
        """A reveal that came in a LOG or in a MOVE's `prev`: its values join ours and we
        deal it ourselves; the tile and the digest must then be the sender's."""
        g = self.game
        if values is None:
            return "a reveal must come with its draw's values"
        why = self._take_values(peer, g.draws(), values)
        if why:
            return why
        if [i for i, _ in values] != self._active(g.draws()):
            return WAITING  # dealt without a contributor our lobby still has: it is coming
        n = len(g.moves)
        self._deal()
        if len(g.moves) == n:
            return WAITING
        if g.moves[n].to_wire() != wire:
            return f"the values of draw {g.draws() - 1} reveal {g.moves[n]}, not {wire}"
        self._after_reveals()
        if self._digest_list[n] != digest:
            # (the tile is the values', so our state is right: the sender's claim is not)
            return (f"digest mismatch after the reveal {n} ({g.moves[n]}): the values deal "
                    "that tile, so the state it claims after it is wrong (it stops nothing)")
        return None

    def _replay_early_draws(self) -> None:
        early, self._early_draws = self._early_draws, []
        for peer, msg in early:
            self._on_draw(peer, msg)

    # ------------------------------------------------------------------ a node that stops revealing

    def _waited_for(self, i: int, since: float) -> float:
        """How long the table has waited for contributor i: since the draw began, or since
        its node went away if that was earlier (a crashed laptop's minute counts once);
        not while this node heard nobody (`away_heard`)."""
        away = self.presence.away_for(self.contributors[i], self.now)
        start = since if away is None else min(since, self.now - away)
        return self.now - max(start, self._heard_again_at)

    def drop_after(self) -> float:
        """The table's wait for a missing value (the lobby's `draw_wait`); a headless node
        told to hand seats over sooner (`--handover S`) also waits no longer, but never
        less than half of it: the others take a drop only once they have waited that long
        themselves, and a drop they refuse splits the game (a loopback table with one
        `--handover 1` node forked so, the others refusing its drop after 2 s)."""
        wait = float(self.lobby.draw_wait) if self.lobby is not None else HANDOVER_AFTER_S
        if self.handover_after is None:
            return wait
        return max(wait / 2, min(wait, self.handover_after))

    def _draw_tick(self) -> None:
        """While a draw waits: send what we hold again now and then (a peer that restarted
        lost it), and after `drop_after` the deciding node leaves out whoever is missing."""
        g = self.game
        if g is None or self.stopped or g.is_over or not g.awaiting_reveal:
            self._check_deferred()
            return
        if self._draw_wait is None:
            return
        k, since = self._draw_wait
        pool = self._draw_pool.get(k, {})
        active = self._active(k)
        missing = [i for i in active if i not in pool]
        if not missing:
            return
        waited = min(self._waited_for(i, since) for i in missing)
        if self.now - since >= DRAW_FANOUT_S and self._fanned != k and pool:
            self._fanned = k  # the gatherer may have gone: everyone to everyone
            self._draw_resent = self.now
            self._broadcast(Draw(k, tuple(sorted(pool.items()))))
        if self.now - since >= 2 * DRAW_RESEND_S and self._draw_noted != k:
            self._draw_noted = k  # a player should know why nothing happens
            # (the last contributors are never left out: then the tile waits for them)
            never = len(missing) == len(active)
            self._emit(E.DrawWaiting(k, [self.peer_name(self.contributors[i]) for i in missing],
                                     [self.contributors[i].hex() for i in missing],
                                     -1 if never else round(max(0.0, self.drop_after() - waited))))
        if (self.now - since >= DRAW_RESEND_S and self.now - self._draw_resent >= DRAW_RESEND_S
                and pool):
            self._draw_resent = self.now
            self._broadcast(Draw(k, tuple(sorted(pool.items()))))
        self._check_deferred()
        if (waited < self.drop_after() or self.now - since < DRAW_ASK_S
                or len(missing) == len(active) or self._waking):
            return
        gone = {self.contributors[i] for i in missing}
        here = self.present() - gone
        if L.coordinator(self.lobby, here) != self.peer_id:
            return
        if len(here) < 2 and len(self.staying()) > 2:
            # alone: more likely cut off ourselves than everyone else gone (those who said
            # goodbye do not count: their silence is no cut)
            return
        if self.now - self._unheard_at <= FORK_GRACE_S:
            # nobody hears us: the draw is one of our own game's (the table never got the
            # move that called for it), and the value we wait for will not come
            return
        if self._drop_asked == (k, self.lobby.version):
            return
        self._drop_asked = (k, self.lobby.version)
        dropped = tuple(sorted((*self.lobby.dropped, *((i, k) for i in missing))))
        # a node still here that withholds on purpose loses its seat to a bot too: its own
        # moves no longer fit the table's game. An absent one's seat waits as any absent
        # player's does (`replace`), and it takes part again in the game when it is back
        withholding = {p for p in gone if not self.presence.is_absent(p)}
        seats = tuple(dataclasses.replace(s, bot=self.handover_bot)
                      if s.kind == "human" and not s.bot and s.owner in withholding else s
                      for s in self.lobby.seats)
        self._install_lobby(dataclasses.replace(self.lobby, version=self.lobby.version + 1,
                                                dropped=dropped, seats=seats), broadcast=True)

    def dropped_peers(self) -> set[bytes]:
        """Nodes left out of the draws (and not taken in again with a fresh chain): they
        drive no bot seat."""
        if self.lobby is None or not self.contributors:
            return set()
        return {p for i, p in enumerate(self.contributors)
                if i == self._index_of(p) and any(j == i for j, _ in self.lobby.dropped)}

    def _drops_refused(self, peer: bytes, cur: Lobby, new: Lobby) -> str | None:
        """Whether to take a lobby from `peer` that leaves out contributors: None (yes),
        DEFER (not yet), or the reason. A node takes a drop only of a contributor whose
        value it has waited for itself, and its own only when it was cut off from the
        sender or down (restarted) meanwhile: so no member can leave the honest nodes out
        of the draws to steer them."""
        # (an expelled member's chain may be left out from an earlier draw than before:
        # its expulsion moved back to a proof found later, `Expulsions._expel`)
        gone = {p for p, _ in new.expelled}
        moved = {i for i, k in new.dropped if self._is_contributor(i, gone) and any(
            j == i and k <= first for j, first in cur.dropped)}
        old = {d for d in cur.dropped if d[0] not in moved}
        added = [d for d in new.dropped if d not in old and d[0] not in moved]
        if not old <= set(new.dropped):
            return "it lets a dropped contributor back into the draws"
        if not added:
            return None
        g = self.game
        if len({i for i, _ in new.dropped}) >= len(self.contributors):
            return "it leaves no contributor for the draws"
        now_k = g.draws()
        window = 2 * self.drop_after()
        cut_off = (self.now - self._back_at.get(peer, -1e9) <= window
                   or self.now - self._unheard_at <= window)  # (they could not hear us)
        restarted = self._resumed_at is not None and self.now - self._resumed_at <= window
        for i, k in added:
            if i >= len(self.contributors):
                return f"it drops contributor {i} of {len(self.contributors)}"
            if self._farewell_allows(i, k):
                continue  # it said goodbye for good: nobody waits for it (`Farewells`)
            if self.contributors[i] in {p for p, _ in new.expelled}:
                continue  # expelled on a proof (`Expulsions`): its draws from then on are void
            # a contributor away lately may have sent us its value just after the table
            # drew without it (its laptop back a moment too late): the drop and the value
            # crossed, and the table's word goes, or the game forks and stops for all
            raced = self._away_lately(i)
            if k < now_k:
                used = self._dealt().get(k, (0, ()))[1]
                if any(j == i for j, _ in used) and not (
                        cut_off or restarted or raced):
                    return (f"it drops {self.peer_name(self.contributors[i])} from draw {k}, "
                            "which this node dealt with that node's value")
                continue  # (cut off meanwhile, or a late value: we rewind)
            if i == self.my_contributor:
                if not (cut_off or restarted):
                    return ("it drops this node from the draws, but this node has been here "
                            "revealing its values all along")
                continue  # we were away: the table's word goes, for any draw
            if k > now_k or not g.awaiting_reveal or self._draw_wait is None:
                return DEFER
            waited = self._waited_for(i, self._draw_wait[1])
            if raced and i in self._draw_pool.get(k, {}):
                continue  # (its late value came: the table drew without it already)
            if i in self._draw_pool.get(k, {}):
                self._broadcast(Draw(k, tuple(sorted(self._draw_pool[k].items()))))
                return (f"it drops {self.peer_name(self.contributors[i])} from draw {k}, "
                        "whose value this node holds (sent on)")
            if waited < self.drop_after() / 2:
                return DEFER
        return None

    def _is_contributor(self, i: int, peers: set[bytes]) -> bool:
        return i < len(self.contributors) and self.contributors[i] in peers

    def _away_lately(self, i: int) -> bool:
        """Was contributor i's node away (or is it), within twice the table's wait?"""
        c = self.contributors[i]
        return (self.presence.is_absent(c)
                or self.now - self._back_at.get(c, -1e9) <= 2 * self.drop_after())

    def _check_deferred(self) -> None:
        held = self._deferred_lobby
        if held is None or self.lobby is None:
            return
        peer, addr, msg = held
        if msg.version <= self.lobby.version:
            self._deferred_lobby = None
            return
        if self._drops_refused(peer, self.lobby, msg) != DEFER:
            self._deferred_lobby = None
            self._on_lobby(peer, addr, msg)

    def _rewind_to_drops(self) -> None:
        """Draws this node dealt with other contributors than the table's lobby says: with
        a value the table left out (it was cut off when the others dropped that
        contributor), or without a chain the table took meanwhile. Take the game back to
        before the first such reveal, so it follows the table again."""
        bad = [n for k, (n, values) in self._dealt().items()
               if [i for i, _ in values] != self._active(k)]
        if bad:
            self._take_back_to(min(bad))

    def _take_back_to(self, n: int, why: str = "this node was cut off and the table went on",
                      expelled: str = "") -> None:
        """Take back every move from `n` on: moves only this node played or dealt while it
        was cut off, which never counted for the table (or, `why` says, moves an expelled
        member signed: `Expulsions`). The record is cut to match, and the node goes on as
        a new incarnation so nothing it sent meanwhile still lands (nor can a move it
        signs again for one of those indices read as a second move for it: a proof)."""
        g = self.game
        undone = len(g.moves) - n
        fresh = Game(g.colours)
        fresh.owners = g.owners  # the table variant (engine/variant.py) stays
        for m in g.moves[:n]:
            fresh.apply(m)
        self.game = fresh
        first = fresh.draws()
        del self._digest_list[n:]
        self._proof_of = {i: v for i, v in self._proof_of.items() if i < n}
        self._stamps = {i: v for i, v in self._stamps.items() if i < n}
        self._unchecked = {i for i in self._unchecked if i < n}
        self._movers = {i: v for i, v in self._movers.items() if i < n}
        self._rebuild_book()
        self._draw_pool = {}
        self._draw_wait = None
        self._passed_on = self._deal_due = None
        self._buffer.clear()
        self._thinking = self._your_turn = None
        for table in (self.move_times, self.sent_at):
            for i in [i for i in table if i >= n]:
                del table[i]
        self._fork_suspect = None
        # (the Rewound event tells the player, in their language; the log file keeps this)
        log.info("%s: %d move(s) taken back from move %d", why, undone, n)
        self.links.rebirth()  # nothing sent from the taken-back moves may still arrive
        self._broadcast(self._heartbeat())
        if self._yield_to is not None:  # (the rebirth dropped that request: ask again)
            start = min(n, self._alone_from if self._alone_from is not None else n)
            self.links.send(self._yield_to, None, Fetch(start))
        self._emit(E.Rewound(n, undone, first, expelled))
        self._deal()  # back at a draw: wait for it again (and take the table's lobby then)

    def _heard_lately(self, peer: bytes) -> bool:
        """Whether `peer` is here and spoke within a few heartbeats: left out of a draw
        then, it withheld its value. One silent that long is going away: a laptop whose
        lid closed just before a draw, with a draw wait shorter than the away time, was
        left out for good when it opened again (a CI run of the two-laptop lid test)."""
        last = self.presence.last_heard(peer)
        return (not self.presence.is_absent(peer) and last is not None
                and self.now - last <= 5 * HEARTBEAT_S)

    def _announce_drops(self, old: Lobby, new: Lobby) -> None:
        for i, k in new.dropped:
            if (i, k) in old.dropped:
                continue
            peer = self.contributors[i] if i < len(self.contributors) else b""
            name = self.peer_name(peer)
            if peer != self.peer_id and self._heard_lately(peer):
                self._withholders.add(peer)  # here, yet it sent nothing: see `_game_forked`
            self._dropped_at = self.now  # (a node that dealt with its late value rewinds)
            log.info("%s no longer takes part in the draws, from tile %d on", name, k + 1)
            self._emit(E.ContributorDropped(i, peer.hex(), name, k))
