"""Set-up steps run INSIDE the cluster's Django (a `manage.py shell` subprocess with the cluster's
DATABASE_URL and REDIS_URL), through the project's own services, so broadcasts reach the servers.

Called as `Cluster.seed(command, **arguments)`: the arguments arrive as JSON on stdin and the result
leaves as one JSON line on stdout, prefixed with `SEED-RESULT `.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from decimal import Decimal
from unittest import mock

MARKER = "SEED-RESULT "


@contextlib.contextmanager
def _batched_broadcasts(*, deliver: bool):
    """Hold the services' after-commit broadcasts and send the last one per group at the end, over
    one event loop (or drop them when nobody can be listening yet). Each broadcast made from this
    synchronous process would otherwise start an event loop and a Redis connection of its own."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.services import broadcast

    queued: dict[str, dict] = {}

    def hold(group: str, message: dict) -> None:
        queued.pop(group, None)
        queued[group] = message

    with mock.patch.object(broadcast, "_send", hold):
        yield
    if deliver and queued:
        layer = get_channel_layer()

        async def send_all() -> None:
            for group, message in queued.items():
                await layer.group_send(group, message)

        async_to_sync(send_all)()


def _session_for(user) -> str:
    """A logged-in session for `user`, exactly what the login view would have stored."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def tables(*, count: int, humans: int, spectators: int = 0, room: dict | None = None) -> dict:
    """`count` waiting tables, each with `humans` people seated (seats 0..humans-1) and bots in the
    other seats; plus `spectators` logged-in users who sit nowhere. Returns ids and session keys."""
    from django.contrib.auth import get_user_model

    from games.models import Room

    user_model = get_user_model()
    tag = secrets.token_hex(3)
    options = dict(room or {})
    if "bot_delay" in options:
        options["bot_delay"] = Decimal(str(options["bot_delay"]))
    the_room = Room.objects.create(name=f"mp-{tag}", **options)

    def new_user(name: str):
        return user_model.objects.create_user(username=f"{name}-{tag}", password=None)  # no hashing: fast

    result = {"room_id": the_room.pk, "tables": [], "spectators": []}
    with _batched_broadcasts(deliver=False):
        _seat_tables(result, the_room, count, humans, new_user)
    for s in range(spectators):
        result["spectators"].append(_session_for(new_user(f"spectator{s}")))
    return result


def _seat_tables(result: dict, the_room, count: int, humans: int, new_user) -> None:
    from games.services import table_create, table_fill_bots, table_sit

    for t in range(count):
        players = [new_user(f"t{t}p{i}") for i in range(max(humans, 1))]
        table = table_create(room_id=the_room.pk, user=players[0])
        for player in players[1:]:
            table_sit(table_id=table.pk, user=player)
        table_fill_bots(table_id=table.pk, user=players[0])
        result["tables"].append(
            {
                "table_id": table.pk,
                "owner_id": players[0].pk,
                "sessions": [_session_for(p) for p in players[:humans]],
                "user_ids": [p.pk for p in players[:humans]],
            }
        )


def start(*, table_ids: list[int], players: list[list[int]], all_bots: bool = False) -> dict:
    """Start each table's match: the owner (first of `players`) presses Start, which sets the
    room's lowest stake; every other person accepts the stake and presses Start too (the ready
    check). With `all_bots` the owner then stands up so a bot plays that seat as well."""
    from django.contrib.auth import get_user_model

    from games.services import table_accept_stake, table_stand, table_start

    user_model = get_user_model()
    with _batched_broadcasts(deliver=True):
        for table_id, user_ids in zip(table_ids, players, strict=True):
            people = [user_model.objects.get(pk=pk) for pk in user_ids]
            table_start(table_id=table_id, user=people[0])
            for person in people[1:]:
                table_accept_stake(table_id=table_id, user=person)
                table_start(table_id=table_id, user=person)
            if all_bots:
                table_stand(table_id=table_id, user=people[0])
    return {"started": len(table_ids)}


def replay_check(*, table_ids: list[int]) -> dict:
    """Per table and hand: does folding the stored Action log over the hand's seed reproduce the
    stored result, and are the log's sequence numbers exactly 1..n?"""
    from games import engine, store
    from games.models import Hand

    report = {}
    for hand in Hand.objects.filter(match__table_id__in=table_ids).order_by("id"):
        seqs = list(hand.actions.order_by("seq").values_list("seq", flat=True))
        actions = [
            engine.Action.parse(a) for a in hand.actions.order_by("seq").values_list("action", flat=True)
        ]
        entry = {
            "table_id": hand.match.table_id,
            "actions": len(actions),
            "contiguous": seqs == list(range(1, len(seqs) + 1)),
        }
        if hand.result is not None:
            state = engine.GameState.replay(
                seed=hand.seed,
                rules=engine.Rules.from_json(hand.rules),
                dealer=hand.dealer,
                huangfan=hand.huangfan,
                stake=hand.stake,
                actions=actions,
            )
            entry["replay_matches"] = state.result is not None and state.result.to_json() == hand.result
        table = hand.match.table
        if table.state and hand.pk == hand.match.hands.order_by("-id").values_list("pk", flat=True).first():
            stored = store.load(table)  # the deal replayed with the first `moves` rows of the log
            entry["log_matches_state"] = [str(a) for a in stored.actions] == [str(a) for a in actions]
        report[str(hand.pk)] = entry
    return report


def _simple_play(rules, dealer: int, found):
    """Seeds tried in turn, each hand played simply (pass every claim, discard the drawn tile)
    until `found(state)` is truthy there: returns the seed, the action prefix and what `found` said."""
    import hashlib

    from games import engine

    for attempt in range(2000):
        seed = hashlib.sha256(f"mp-conflict-{attempt}".encode()).hexdigest()
        state = engine.GameState.new(rules=rules, dealer=dealer, huangfan=0, stake=1, seed=seed)
        while state.phase != "ended":
            answer = found(state)
            if answer:
                return seed, list(state.actions), answer
            seat = state.pending_seats()[0]
            legal = state.legal_actions(seat)
            passes = [a for a in legal if a.kind == "pass"]
            discards = [a for a in legal if a.kind == "discard"]
            state.apply(passes[0] if passes else discards[-1] if discards else state.timeout_action(seat))
    raise RuntimeError("no seed found")


def _pong_chow_conflict(state):
    """(pong seat, chow seat) when exactly two seats may claim the discard, one by pong, one by chow."""
    if state.phase != "claims":
        return None
    pending = state.pending_seats()
    kinds = {seat: {a.kind for a in state.legal_actions(seat)} for seat in pending}
    pongs = [seat for seat in pending if "pong" in kinds[seat]]
    chows = [seat for seat in pending if "chow" in kinds[seat] and "pong" not in kinds[seat]]
    if len(pending) == 2 and pongs and chows and not any("win" in k for k in kinds.values()):
        return pongs[0], chows[0]
    return None


def _self_draw(state):
    """The self-drawn win the seat to move may declare now, if any."""
    if state.phase != "turn":
        return None
    return next((a for a in state.legal_actions(state.current_seat) if a.kind == "self_win"), None)


def _seeded_table(room: dict | None, found) -> tuple[dict, object, object, list]:
    """A playing table of four people, dealt from a known seed and played (through `table_act`) up
    to the first moment `found(state)` is truthy. Returns the table's ids and sessions, the table,
    what `found` said and the four users."""
    from django.contrib.auth import get_user_model

    from games import engine
    from games.models import Table
    from games.services import play, table_act
    from games.services.commands import Move

    seeded = tables(count=1, humans=4, room=room)
    info = seeded["tables"][0]
    table = Table.objects.select_related("room").get(pk=info["table_id"])
    dealer = 0
    seed, prefix, answer = _simple_play(play.rules_for(table), dealer, found)
    users = [get_user_model().objects.get(pk=pk) for pk in info["user_ids"]]
    original_new = engine.GameState.new

    def seeded_new(*args, **kwargs):
        return original_new(*args, **{**kwargs, "seed": seed})

    with (
        mock.patch.object(play.secrets, "randbelow", return_value=dealer),
        mock.patch.object(engine.GameState, "new", seeded_new),
    ):
        start(table_ids=[table.pk], players=[info["user_ids"]])
    with _batched_broadcasts(deliver=True):
        for action in prefix:
            version = Table.objects.get(pk=table.pk).version
            table_act(table_id=table.pk, user=users[action.seat], action=Move.of(action), version=version)
    table.refresh_from_db()
    return info, table, answer, users


def conflict(*, room: dict | None = None) -> dict:
    """A playing table of four people, dealt from a known seed and played (through `table_act`) up to
    a discard that seat `pong_seat` may pong and seat `chow_seat` may chow."""
    from games.services import play

    info, table, (pong_seat, chow_seat), _ = _seeded_table(room, _pong_chow_conflict)
    state = play.load_state(table)
    assert state.phase == "claims" and sorted(state.pending_seats()) == sorted([pong_seat, chow_seat])
    return {
        **info,
        "pong_seat": pong_seat,
        "chow_seat": chow_seat,
        "version": table.version,
        "discarder": state.current_seat,
        "melds": [len(m) for m in state.melds],
    }


def self_draw(*, room: dict | None = None, declare: bool = False, others_ready: bool = False) -> dict:
    """A playing table of four people, played up to a moment when the seat to move may declare a
    self-drawn win (`win`, its action text); with `declare` that win is declared, ending the hand,
    and with `others_ready` the three others then press 下一局 (the winner's press deals)."""
    from games.services import play, table_act, table_next_hand
    from games.services.commands import Move

    info, table, win, users = _seeded_table(room, _self_draw)
    if declare:
        with _batched_broadcasts(deliver=True):
            table_act(table_id=table.pk, user=users[win.seat], action=Move.of(win), version=table.version)
            for seat in range(4) if others_ready else ():
                if seat != win.seat:
                    table_next_hand(table_id=table.pk, user=users[seat])
        table.refresh_from_db()
        assert play.load_state(table).phase == "ended"
    return {**info, "winner": win.seat, "win": str(win), "version": table.version, "hand_id": table.hand_id}


COMMANDS = {
    "tables": tables,
    "start": start,
    "replay_check": replay_check,
    "conflict": conflict,
    "self_draw": self_draw,
}


def main() -> None:
    from tests.multiprocess import seed_accounts, seed_pools

    commands = COMMANDS | seed_accounts.COMMANDS | seed_pools.COMMANDS
    request = json.loads(sys.stdin.read())
    result = commands[request["command"]](**request["arguments"])
    print(MARKER + json.dumps(result))
