"""Regenerates protocol/vectors/variant.json: games played as two colours each (V1).

Run `python -m tests.engine.variant_vectors_gen` only when the variant's scoring
deliberately changes; tests/engine/test_variant.py checks the engine against the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import read_record, replay_record
from tongiaki_lan.selfplay import game_seed, play_game

OUT = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "variant.json"


def variant_vectors(tmp: Path) -> list[dict]:
    out = []
    for index in range(2):
        seed = game_seed("variant-vectors", index)
        result = play_game(seed, 2, ["random"], tmp, variant=V.TWO_COLOURS)
        record = read_record(result.record)
        game = replay_record(record)
        out.append({
            "seed": seed.hex(),
            "variant": V.TWO_COLOURS,
            "colours": list(game.colours),
            "owners": list(V.owners(game)),
            "record_header_variant": record.header.to_wire()["variant"],
            "moves_wire": [m.to_wire() for m in record.moves],
            "final_digest": result.digest.hex(),
            "scores_by_colour": game.scores(),
            "players": V.players_json(game),
            "winners": V.winners(game),
            "final_position": game.position(),
        })
    return out


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        OUT.write_text(json.dumps({"two_colours_games": variant_vectors(Path(tmp))}, indent=1)
                       + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
