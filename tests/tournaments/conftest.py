from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.services import tournament_create


@pytest.fixture
def make_tournament(db):
    def make(user, **fields):
        values = {
            "name": "春季赛",
            "starts_at": timezone.now() + timedelta(hours=1),
            "rounds": 2,
            "hands_per_round": 2,
            **fields,
        }
        return tournament_create(user=user, **values)

    return make
