"""Set-up steps run INSIDE the cluster's Django (a `manage.py shell` subprocess with the cluster's
DATABASE_URL and REDIS_URL), through the project's own services, so broadcasts reach the servers.

Called as `Cluster.seed(command, **arguments)`: the arguments arrive as JSON on stdin and the result
leaves as one JSON line on stdout, prefixed with `SEED-RESULT `.
"""

from __future__ import annotations

import json
import secrets
import sys
from decimal import Decimal

MARKER = "SEED-RESULT "


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
    from games.services import table_create, table_fill_bots, table_sit

    user_model = get_user_model()
    tag = secrets.token_hex(3)
    options = dict(room or {})
    if "bot_delay" in options:
        options["bot_delay"] = Decimal(str(options["bot_delay"]))
    the_room = Room.objects.create(name=f"mp-{tag}", **options)

    def new_user(name: str):
        return user_model.objects.create_user(username=f"{name}-{tag}", password=secrets.token_urlsafe(12))

    result = {"room_id": the_room.pk, "tables": [], "spectators": []}
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
    for s in range(spectators):
        result["spectators"].append(_session_for(new_user(f"spectator{s}")))
    return result


def start(*, table_ids: list[int], owner_ids: list[int], all_bots: bool = False) -> dict:
    """Start each table's match; with `all_bots` the owner then stands up so a bot plays the seat."""
    from django.contrib.auth import get_user_model

    from games.models import Table
    from games.services import table_accept_stake, table_stand, table_start

    user_model = get_user_model()
    for table_id, owner_id in zip(table_ids, owner_ids, strict=True):
        owner = user_model.objects.get(pk=owner_id)
        table = Table.objects.get(pk=table_id)
        others = [s.user for s in table.seats.select_related("user") if s.user_id and s.user_id != owner_id]
        table_start(table_id=table_id, user=owner)  # rules §10: then everyone else agrees and presses Start
        for user in others:
            table_accept_stake(table_id=table_id, user=user)
            table_start(table_id=table_id, user=user)
        if all_bots:
            table_stand(table_id=table_id, user=owner)
    return {"started": len(table_ids)}


def replay_check(*, table_ids: list[int]) -> dict:
    """Per table and hand: does folding the stored Action log over the hand's seed reproduce the
    stored result, and are the log's sequence numbers exactly 1..n?"""
    from games import engine
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
            stored = engine.GameState.from_json(table.state)
            entry["log_matches_state"] = [str(a) for a in stored.actions] == [str(a) for a in actions]
        report[str(hand.pk)] = entry
    return report


COMMANDS = {"tables": tables, "start": start, "replay_check": replay_check}


def main() -> None:
    request = json.loads(sys.stdin.read())
    result = COMMANDS[request["command"]](**request["arguments"])
    print(MARKER + json.dumps(result))
