"""`tongiaki-lan` / `tongiaki-lan lobby`: the LAN lobby console, which also offers solo play."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import board_options, lan_options, lang_option, records_option
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("--name", type=T.player_name(), default=None,
                   help="your name for this run (default: the one asked on the first run, "
                        "kept in your profile)")
    p.add_argument("--colour", type=T.colour(), default="", help="preferred colour")
    records_option(p)
    lang_option(p)
    lan_options(p)  # --host, --port, --interface: as play, watch and games have them
    p.add_argument("--no-lan", action="store_true", help="do not touch the network")
    p.add_argument("--hint-bot", type=T.bot_kind(), default=None,
                   help="bot kind or level for `hint` (default: the normal level)")
    p.add_argument("--pace", type=T.seconds(T.PACE_MAX, zero=True), default=0.4,
                   help="seconds between bot moves in solo")
    p.add_argument("--no-colour", "--no-color", dest="colour_output", action="store_false",
                   help="draw without colours")
    board_options(p)


async def _main(args) -> int:
    from tongiaki_lan.cli import ConsoleStop, LeaveOnSignals, console_board
    from tongiaki_lan.logfile import log_to_file
    from tongiaki_lan.places import places
    from tongiaki_lan.profile import save_profile
    from tongiaki_lan.records import default_record_dir

    profile = places().profile
    name = args.name  # (the first run's answer: `run` asked it)

    def remember(new: str) -> None:  # the lobby's `name NEW`
        with contextlib.suppress(OSError):
            save_profile(profile, name=new)

    colour = args.colour
    records = args.records or default_record_dir()
    log_to_file(places().logs)  # the full-screen console owns the terminal
    # a closed window, kill, logging off: the screen on show is left as `quit` leaves it
    stop = ConsoleStop()
    # one board page for the whole run: an open tab follows the next game by itself
    board = console_board(args)
    try:
        with LeaveOnSignals(stop, sigint=False):  # Ctrl-C is a key the screens ask about
            return await _lobby_loop(args, name, colour, records, remember, stop, board)
    finally:
        await board.close()


async def _lobby_loop(args, name, colour, records, remember, stop, board) -> int:
    from tongiaki_lan.bots import DEFAULT_LEVEL
    from tongiaki_lan.cli import say_at_exit
    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
    from tongiaki_lan.console.forming import forming_table
    from tongiaki_lan.console.input import BACK_TO_LOBBY
    from tongiaki_lan.console.terminal.lobby import LobbyScreen
    from tongiaki_lan.console.terminal.screen import run_game_screen
    from tongiaki_lan.i18n import _
    from tongiaki_lan.records import solo_record_path

    wanted = getattr(args, "board", False)  # (`--board`: each game on the board page)
    saved = None  # the record of the game just played, said in the lobby or when leaving
    problem = None  # why the last choice of the lobby could not be played, said there
    while not stop.asked:  # after a game, `lobby` comes back here for the next one
        lobby = LobbyScreen(name, colour, record_dir=records, host=args.host, port=args.port,
                            lan=not args.no_lan, colour_output=args.colour_output,
                            interfaces=getattr(args, "interface", None))
        lobby.on_name = remember
        lobby.board_url = lambda: board.url
        # the page (served since a game) shows the next table as it forms, as the lobby
        # lists it, and the last board again once this laptop sits at no table
        lobby.model.subscribe(lambda lobby=lobby: board.forming(forming_table(lobby.node)))
        stop.results[lobby.app] = ("quit",)
        if saved is not None:
            lobby.lines.append(("info", _("Record saved: {path}").format(path=saved)))
        if problem is not None:
            lobby.lines.append(("bad", problem))
            problem = None
        result = await lobby.run()
        wanted = wanted or lobby.board_wanted
        name, colour = lobby.name, lobby.colour  # as changed in the lobby
        if result[0] == "game":
            node, disc = result[1], result[2]
            # the lobby's chat and a half-typed line go on to the game screen
            session = LanSession(node, disc, carried=lobby.carried_lines(),
                                 take=lobby.take_wanted)  # (`join N` of a running game)
            session.hint_kind = args.hint_bot
            code = await run_game_screen(session, colour=args.colour_output,
                                         typed=lobby.buffer.text, board=board,
                                         page=wanted or board.url is not None,
                                         browser=board.opened == 0)
            saved = node.record_path
        elif result[0] in ("solo", "resume"):
            await lobby.close_network()
            if result[0] == "resume":  # ("resume", path): the lobby's `solo resume`
                try:
                    session = SoloSession.resume(result[1], pace=args.pace,
                                                 hint_kind=args.hint_bot)
                except (OSError, ValueError) as error:  # (RecordError is a ValueError)
                    saved = None
                    problem = _("solo resume: {path} cannot be played on: {reason}").format(
                        path=result[1], reason=error)
                    continue
            else:
                seed = seed_from_text(None)
                # ("solo", bots[, level]): the lobby may name a level (bots/levels.py)
                level = result[2] if len(result) > 2 and result[2] else DEFAULT_LEVEL
                session = SoloSession(seed, solo_seats(result[1], name, level),
                                      record_path=solo_record_path(records, seed),
                                      pace=args.pace, hint_kind=args.hint_bot)
            session.from_lobby = True
            code = await run_game_screen(session, colour=args.colour_output, board=board,
                                         page=wanted or board.url is not None,
                                         browser=board.opened == 0)
            saved = session.record_path
        else:
            await lobby.close_network()
            return 0
        if code != BACK_TO_LOBBY or stop.asked:
            if saved is not None:
                say_at_exit(_("Record saved: {path}").format(path=saved))
            if result[0] == "game" and back_soon(session):
                # (the way back, said where the player is looking as the screen goes)
                say_at_exit(_("Your seat waits for you: run tongiaki-lan again and join "
                              "the game marked 'yours'."))
            return code
    return 0


def back_soon(session) -> bool:
    """Whether a LAN game was left with `quit soon`: a seat waits for this player (not
    at a table no other laptop played at: the game ended with this one)."""
    return (not getattr(session, "leave_for_good", True) and not session.watching
            and session.game is not None and not session.game.is_over
            and not getattr(session, "left_alone", False))


def run(args) -> int:
    from tongiaki_lan.cli import use_language

    if not use_language(args):
        return 2
    args.name = _asked_name(args)
    return asyncio.run(_main(args))


def _asked_name(args) -> str:
    """The first run asks once (a terminal on both ends); --name wins for this run. Asked
    before the event loop starts: asked inside it, Ctrl-C at the question did nothing
    until Enter (asyncio.run's own SIGINT handler waits for the loop, which waited for
    the answer)."""
    from tongiaki_lan.places import places
    from tongiaki_lan.profile import player_name

    return player_name(places().profile, args.name,
                       interactive=sys.stdin.isatty() and sys.stdout.isatty(),
                       ask=_ask_erased)


def _ask_erased(question: str) -> str:
    """One line asked at the terminal, erased once answered: the lobby's full screen
    opens next, and when it closes the terminal is as it was before (`input` left "Your
    name for the other players [Root]: Ana" on it after `quit`). Ctrl-C and Ctrl-D end it
    as they end `input`."""
    from prompt_toolkit import PromptSession

    return PromptSession(erase_when_done=True).prompt(question)
