"""How a player names a game to join without discovery: `tongiaki://HOST:PORT/GAME/PEER`."""

from __future__ import annotations

from dataclasses import dataclass

from tongiaki_lan.net.protocol.codec import ID_LEN
from tongiaki_lan.net.protocol.lobby import PASSPHRASE_NEEDED


class JoinRefused(Exception):
    """Joining a game did not work; str() says why in words. `silent_lock`: a game with a
    passphrase never answered, which most often means a wrong one (its datagrams fail
    the MAC and are dropped): the lobby asks for it again. `answered`: the game said no
    (a REFUSE), as opposed to silence (a member that moved on, a wrong passphrase)."""

    def __init__(self, reason: str, silent_lock: bool = False, answered: bool = False):
        super().__init__(reason)
        self.silent_lock = silent_lock
        self.answered = answered


class PassphraseNeeded(JoinRefused):
    """A locked game (its advert says so) asked for with no passphrase: refused before
    anything is sent, since no answer could come. `name`: the game's."""

    def __init__(self, name: str):
        super().__init__(PASSPHRASE_NEEDED.format(name=name), answered=True)
        self.name = name


@dataclass(frozen=True)
class GameRef:
    """Enough to contact a game: one member's address and peer id, and the game id."""

    game_id: bytes
    peer: bytes
    host: str
    port: int
    passphrase: bool = False
    name: str = ""

    def invite(self) -> str:
        """A text form to pass to another player (joining without discovery)."""
        return f"tongiaki://{self.host}:{self.port}/{self.game_id.hex()}/{self.peer.hex()}"

    @classmethod
    def parse(cls, text: str) -> GameRef:
        """Read an invite; raises ValueError with what is wrong."""
        rest = text.strip()
        if not rest.startswith("tongiaki://"):
            raise ValueError("an invite starts with tongiaki://")
        try:
            hostport, gid, peer = rest[len("tongiaki://"):].split("/")
            host, _, port = hostport.rpartition(":")
            ref = cls(bytes.fromhex(gid), bytes.fromhex(peer), host, int(port))
        except ValueError:
            raise ValueError(f"not an invite: {text!r}") from None
        if len(ref.game_id) != ID_LEN or len(ref.peer) != ID_LEN or not host:
            raise ValueError(f"not an invite: {text!r}")
        return ref
