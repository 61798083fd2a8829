"""`tongiaki-lan verify RECORD`: replay a record, checking every move and digest."""

from __future__ import annotations

import argparse
import json

from tongiaki_lan.engine import variant as V
from tongiaki_lan.net.aio.sidecar import SIDECAR_SUFFIX
from tongiaki_lan.records import RecordError, read_record, replay_record


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import record_options

    record_options(p)
    p.add_argument("--json", action="store_true")


def _named(name: str, colour: str) -> str:
    """"Hina (normal, green)" — a bot's name carries its level in brackets already, and
    "Hina (normal) (green)" read as a typo."""
    return f"{name[:-1]}, {colour})" if name.endswith(")") else f"{name} ({colour})"


def run(args) -> int:
    from tongiaki_lan.cli import no_such_game, numbered_record

    path, directory = numbered_record(args.record, args.records)
    if path is None:
        print(no_such_game("verify", args.record, directory))
        return 2
    args.record = path
    if str(args.record).endswith(SIDECAR_SUFFIX):  # (a glob of a game's name takes it too)
        print(f"verify: {args.record}: this is the resume data kept beside a record (it "
              f"holds this laptop's draw secret), not a record: verify "
              f"{str(args.record)[:-len(SIDECAR_SUFFIX)]}")
        return 1
    try:
        record = read_record(args.record)
        game = replay_record(record)
    except RecordError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc)}))
        else:
            print(f"verify: {args.record}: {exc}")
        return 1
    expelled, wrong = check_expulsions(record)
    if wrong:
        if args.json:
            print(json.dumps({"ok": False, "error": wrong}))
        else:
            print(f"verify: {args.record}: {wrong}")
        return 1
    out = {
        "ok": True,
        "moves": len(record.moves),
        "draws": game.draws(),
        "draw_check": "chains" if record.header.commitments else "seed",
        "digest": game.digest().hex(),
        "over": game.is_over,
        "scores": game.scores() if game.is_over else None,
        "winners": game.winners() if game.is_over else None,
        "truncated": record.truncated,
        # a solo game's undos (protocol/record.md): the moves they took back are checked
        # too, and `moves` counts those that stand
        "undos": len(record.undos),
        "taken_back": record.taken_back,
    }
    if expelled:
        out["expelled"] = expelled
    if record.header.variant != V.STANDARD:  # V1: players of two colours each
        out["variant"] = record.header.variant
        out["players"] = [
            {"name": record.seat_names()[V.seats_of(game, p)[0]], **entry}
            for p, entry in enumerate(V.players_json(game))]
        if game.is_over:
            out["winners"] = V.winner_labels(game)
    if args.json:
        print(json.dumps(out))
    else:
        state = "finished" if game.is_over else "unfinished"
        against = ("the contributors' hash chains" if record.header.commitments
                   else "the seed's stack")
        print(f"{args.record}: {len(record.moves)} moves verified ({game.draws()} tile "
              f"reveals checked against {against}), {state} game")
        if record.undos:
            undos = "1 undo" if len(record.undos) == 1 else f"{len(record.undos)} undos"
            taken = "move" if record.taken_back == 1 else "moves"
            print(f"{undos}: {record.taken_back} {taken} taken back, checked too (no undo "
                  "took back a tile reveal)")
        print(f"digest {out['digest']}")
        if game.is_over and "players" in out:
            print(f"variant {out['variant']}: " + ", ".join(
                f"{p['name']} ({'+'.join(p['colours'])}) {p['score']}" for p in out["players"]))
            print("winners " + " & ".join(out["winners"]))
        elif game.is_over:  # (by name as well: a colour alone says little to a player)
            # (who played each seat at the end: a newcomer may have taken one)
            named = {seat.colour: _named(name, seat.colour) for seat, name
                     in zip(record.header.seats, record.seat_names(), strict=True)}
            print("scores " + ", ".join(f"{named.get(c, c)} {s}"
                                        for c, s in game.scores().items()))
            print("winners " + " & ".join(named.get(c, c) for c in game.winners()))
        for x in expelled:
            print(f"expelled {x['name']} before move {x['before_move']}: proof of "
                  f"{x['proof']} checked ({x['detail']})")
        if record.truncated:
            print("note: a partial last entry was ignored (the writer stopped mid-move)")
    return 0


def check_expulsions(record) -> tuple[list[dict], str | None]:
    """Every expulsion the record names, its proof checked as a member checks it
    (protocol/security.md, "Checking a proof"): with the accused's key and the game
    replayed from the record, trusting nobody's word. A proof that does not hold makes
    the record fail verification, naming the entry."""
    import msgpack

    from tongiaki_lan.net.protocol.codec import Proof, WireError, parse_message
    from tongiaki_lan.net.protocol.proofs import KIND_NAMES, check_proof, describe

    out = []
    for index, name, seats, game_id, raw in record.expulsions:
        try:
            proof = parse_message(msgpack.unpackb(raw, raw=False))
        except (WireError, ValueError, TypeError, msgpack.UnpackException) as exc:
            return out, f"move {index}: the proof of {name}'s expulsion is unreadable ({exc})"
        if not isinstance(proof, Proof):
            return out, f"move {index}: the proof of {name}'s expulsion is no PROOF"
        why = check_proof(proof, game_id, lambda i: replay_record(record, upto=i))
        if why is not None:
            return out, f"move {index}: the proof of {name}'s expulsion does not hold: {why}"
        out.append({"name": name, "seats": list(seats), "before_move": index,
                    "proof": KIND_NAMES[proof.kind], "detail": describe(proof)})
    return out, None
