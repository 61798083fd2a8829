"""Table variants: who owns which seat, and who wins (rules digest V1).

The French rulebook (004, "Variante proposée par jeuxsoc") offers two players two colours
each, played alternately, because a two-player game often blocks early. Every rule then
applies per colour exactly as in a four-colour game, so the engine's `Game` is unchanged:
a variant only says which *player* owns each seat, and ranks players instead of colours.

A game knows its variant through `Game.owners` (seat -> player index, `None` for the
standard game where every seat is its own player). That attribute is not part of the
state digest (protocol/state.md): the moves and their digests are the same whoever owns
the colours; the record header and the LAN lobby carry the variant instead, so every peer
and every replay agree on it (protocol/record.md, protocol/wire.md).

Everything here also works for a standard game (one player per seat), so a caller ranks
players the same way in either case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .colours import LETTERS

if TYPE_CHECKING:
    from .game import Game

STANDARD = "standard"
TWO_COLOURS = "two-colours"
VARIANTS = (STANDARD, TWO_COLOURS)
TWO_COLOURS_SEATS = 4  # V1: two players, two colours each


def owners_for(variant: str, n_seats: int) -> tuple[int, ...] | None:
    """Seat -> player for `variant` (None for the standard game). Two colours each: seats
    A1, B1, A2, B2 (V1), so player 0 owns seats 0 and 2, player 1 seats 1 and 3."""
    if variant == STANDARD:
        return None
    if variant == TWO_COLOURS:
        if n_seats != TWO_COLOURS_SEATS:
            raise ValueError(f"two colours each needs 2 players and 4 colours, not {n_seats}")
        return (0, 1, 0, 1)
    raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")


def with_variant(game: Game, variant: str) -> Game:
    """Mark `game` (freshly made) as played under `variant`; returns it for chaining."""
    game.owners = owners_for(variant, game.n_seats)
    return game


def variant_of(game: Game) -> str:
    return STANDARD if game.owners is None else TWO_COLOURS


def owners(game: Game) -> tuple[int, ...]:
    """Seat -> player, for any game (identity in the standard game)."""
    return game.owners if game.owners is not None else tuple(range(game.n_seats))


def n_players(game: Game) -> int:
    return max(owners(game)) + 1


def player_of(game: Game, seat: int) -> int:
    return owners(game)[seat]


def seats_of(game: Game, player: int) -> tuple[int, ...]:
    """The seats a player owns, in seat order (their first colour first)."""
    return tuple(s for s, p in enumerate(owners(game)) if p == player)


def _presence(game: Game) -> tuple[list[set[int]], list[int]]:
    """Per player: the islands where any of their colours is (a king included), and their
    ships on the board over all their colours (a king counts as one, K4)."""
    own = owners(game)
    seat_of = {c: s for s, c in enumerate(game.colour_ids())}
    n = max(own) + 1
    islands: list[set[int]] = [set() for _ in range(n)]
    ships = [0] * n
    for tid in game.islands():
        for beach in game.ships_on(tid):
            for c in beach:
                p = own[seat_of[c]]
                islands[p].add(tid)
                ships[p] += 1
    for tid, c in sorted(game.kings().items()):
        p = own[seat_of[c]]
        islands[p].add(tid)
        ships[p] += 1
    return islands, ships


def player_scores(game: Game) -> list[int]:
    """Points by player (V1): the sum of their colours' E3 scores, so an island where both
    their colours are present counts twice (each colour scores it, as in E3)."""
    by_colour = game.scores()
    total = [0] * n_players(game)
    for s, p in enumerate(owners(game)):
        total[p] += by_colour[game.colours[s]]
    return total


def ranking_keys(game: Game) -> list[tuple[int, int, int]]:
    """V1's order by player: points (summed over colours), then islands present on (an
    island counts once whichever of their colours is there), then fewer ships on the board
    over both colours. In the standard game these are E4's keys by seat (the engine's)."""
    if game.owners is None:
        keys = game.ranking_keys()
        return [keys[c] for c in game.colours]
    islands, ships = _presence(game)
    return [(pts, len(isl), -sh)
            for pts, isl, sh in zip(player_scores(game), islands, ships, strict=True)]


def winners(game: Game) -> list[int]:
    """The players ranked first (more than one: a shared win, E4)."""
    keys = ranking_keys(game)
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]


def player_colours(game: Game, player: int) -> tuple[str, ...]:
    return tuple(game.colours[s] for s in seats_of(game, player))


def players_json(game: Game) -> list[dict]:
    """Each player's colours and combined score and tie-break keys, for `--json` outputs
    (selfplay, verify): what a script needs to tell who won a variant game."""
    keys = ranking_keys(game)
    return [{"colours": list(player_colours(game, p)), "score": k[0], "islands": k[1],
             "ships": -k[2]} for p, k in enumerate(keys)]


def winner_labels(game: Game) -> list[str]:
    """The winners by their colours, a player of two colours as `blue+green`."""
    return ["+".join(player_colours(game, p)) for p in winners(game)]


def player_names(game: Game, seat_names: list[str] | tuple[str, ...]) -> list[str]:
    """Each player's name: the name of their first seat (both of a player's seats carry
    the same name)."""
    return [seat_names[seats_of(game, p)[0]] for p in range(n_players(game))]


def player_letters(game: Game, player: int) -> str:
    """A player's colours as letters, `B+G` (one letter in the standard game)."""
    return "+".join(LETTERS[game.colour_ids()[s]] for s in seats_of(game, player))
