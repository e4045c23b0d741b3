"""复盘 (games/engine/review): the judging of single decisions, the fold over a hand, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.__main__ import main
from games.engine.actions import Action
from games.engine.bots import get_bot
from games.engine.review import MISTAKE_GAP, review
from games.engine.review.decide import judge
from games.engine.review.knowledge import SeatKnowledge
from games.engine.simulate import export_of, hand_seed, play_hand
from games.engine.state import GameState
from games.engine.tiles import parse_tiles
from games.engine.verify import parse_export

LEVELS = ["easy", "normal", "hard", "hard"]


def played_hand(index: int, levels=LEVELS, seed: str = "review"):
    bots = [get_bot(level) for level in levels]
    state = GameState.new(dealer=index % 4, seed=hand_seed(seed, index))
    play_hand(state, bots)
    return parse_export(export_of(state))


def decision_on(state: GameState, seat: int, action: str):
    return judge(SeatKnowledge(state.hand_view(seat), state.rules), Action.parse(action), step=0)


# A dealer one step from 清一色 in 万 with four strays: 2p 3p 5s 7z.
DEALER = "12345678m11m2p3p5s7z"
OTHERS = ["1p1p1p2p2p2p3p4p4p4p5p5p5p", "1s1s1s2s2s2s3s3s3s4s4s4s5s", "6s6s6s7s7s7s8s8s8s9s9s9s6p"]
WALL = (
    "9m9m9m"
    + "1z" * 4
    + "2z" * 4
    + "3z" * 4
    + "4z" * 4
    + "5z" * 4
    + "6z" * 4
    + "6p6p6p7p7p7p7p8p8p8p8p9p9p9p9p"
)


def test_breaking_a_set_of_the_plan_is_a_mistake_and_shedding_a_stray_is_not():
    state = GameState.from_setup([DEALER, *OTHERS], WALL)
    assert sum(state.counts[0]) == 14
    wrong = decision_on(state, 0, "0:discard:5m")
    assert wrong.kind == "discard"
    assert wrong.verdict == "mistake"
    assert wrong.gap >= MISTAKE_GAP
    best = Action.parse(wrong.best)
    assert best.tile in parse_tiles("2p3p5s7z")
    right = decision_on(state, 0, wrong.best)
    assert right.verdict == "agrees" and right.gap == 0
    tiles = [o.tile for o in wrong.options]
    assert len(tiles) == len(set(tiles)) == len(set(parse_tiles(DEALER)))
    first = wrong.options[0]
    assert first.action == wrong.best and first.rank == 1
    assert {"hunyise-m", "qingyise-m"} <= set(first.shanten)
    assert first.useful > 0 and first.danger is not None


def test_a_claim_shows_the_distance_before_and_after_and_whether_the_pattern_is_kept():
    state = GameState.from_setup([DEALER, *OTHERS], WALL)
    state.apply(Action.parse("0:discard:2p"))  # seat 1 holds 2p2p2p: a pong of another suit is offered
    assert "pong" in {a.kind for a in state.legal_actions(1)}
    decision = decision_on(state, 1, "1:pass")
    assert decision.kind == "claim" and decision.tile == "2p"
    by_kind = {o.kind: o for o in decision.options}
    assert by_kind["pass"].before == by_kind["pass"].after
    assert by_kind["pong"].plans and by_kind["pong"].after is not None
    assert decision.best in {o.action for o in decision.options}


def test_the_hard_seats_agree_with_the_review_and_weaker_bots_less():
    rated = {level: [0, 0] for level in ("easy", "normal", "hard")}
    for index in range(4):
        export = played_hand(index)
        for seat, level in enumerate(LEVELS):
            summary = review(export, seat).summary
            rated[level][0] += summary.rated
            rated[level][1] += summary.agreed
    rate = {level: agreed / max(1, n) for level, (n, agreed) in rated.items()}
    assert rated["hard"][0] > 40
    assert rate["hard"] >= 0.99
    assert rate["easy"] < rate["normal"] < rate["hard"]


def test_every_decision_is_the_seats_own_choice_in_the_log():
    export = played_hand(1)
    result = review(export, 2)
    assert result.decisions
    steps = [d.step for d in result.decisions]
    assert steps == sorted(set(steps))
    for d in result.decisions:
        assert str(export.actions[d.step]) == d.played
        assert Action.parse(d.played).seat == 2
        assert d.played in {o.action for o in d.options}
        assert sorted(o.rank for o in d.options) == list(range(1, len(d.options) + 1))
    summary = result.summary
    assert summary.agreed + summary.close + summary.mistakes == summary.rated


def test_a_seat_outside_0_to_3_is_refused():
    with pytest.raises(ValueError):
        review(played_hand(0), 4)


def test_knowledge_holds_other_hands_only_as_sizes():
    export = played_hand(2)
    state = GameState.new(export.rules, export.dealer, export.huangfan, export.stake, export.seed)
    for action in export.actions[:20]:
        state.apply(action)
    known = SeatKnowledge(state.hand_view(1), state.rules)
    assert known.counts[1] == state.counts[1]
    for other in (0, 2, 3):
        assert sum(known.counts[other]) == sum(state.counts[other])
        assert sum(1 for n in known.counts[other] if n) <= 1
    assert known.feeds == state.feeds


# ------------------------------------------------------------------ the command line


def test_simulate_exports_hands_that_the_review_command_reads(tmp_path: Path, capsys):
    out = tmp_path / "hands"
    assert (
        main(
            [
                "simulate",
                "--hands",
                "2",
                "--seed",
                "cli",
                "--bots",
                "easy,normal,hard,hard",
                "--export",
                str(out),
            ]
        )
        == 0
    )
    capsys.readouterr()
    files = sorted(out.glob("hand-*.json"))
    assert [f.name for f in files] == ["hand-0000.json", "hand-0001.json"]
    assert main(["verify", str(files[0])]) == 0
    capsys.readouterr()
    assert main(["review", str(files[1]), "--seat", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 3 and data["decisions"]
    for d in data["decisions"]:
        assert {"step", "kind", "options", "played", "best", "agrees"} <= set(d)
    expected = review(parse_export(json.loads(files[1].read_text())), 3).to_json()
    assert data == json.loads(json.dumps(expected))
    assert main(["review", str(files[1]), "--seat", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("review of seat 3") and "decisions" in text.splitlines()[-1]


@pytest.mark.parametrize("seat", ["4", "x", "-1"])
def test_review_command_refuses_a_bad_seat(tmp_path: Path, seat, capsys):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(played_hand(0).to_json()))
    assert main(["review", str(path), "--seat", seat]) == 2
    err = capsys.readouterr().err
    assert err.startswith("review: ") and len(err.strip().splitlines()) == 1


def test_review_command_refuses_bad_and_unfinished_exports(tmp_path: Path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["review", str(bad), "--seat", "0"]) == 2
    data = played_hand(0).to_json()
    data["actions"] = data["actions"][:10]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data))
    assert main(["review", str(short), "--seat", "0"]) == 1
    assert "not finished" in capsys.readouterr().err
