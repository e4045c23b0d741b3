"""What history keeps about finished hands: who sat where and how it went, and skill ratings.

`HandRecord` rows are derived from `games.Hand.result` when a hand ends (one per seat) so that the
statistics and history pages read narrow indexed rows instead of decoding every hand's JSON.
`Rating` holds a player's current OpenSkill (Plackett-Luce) rating overall (`room` null) and per
room; `RatingChange` is its history, one row per rated hand, for the chart. Only
`history.services` writes these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.names import bot_name


class Player(models.Model):
    """Whoever can sit in a seat: a person, or a bot level (every bot of one level is one player)."""

    key = models.CharField(max_length=40, unique=True, help_text='"u<user id>" or "bot-<level>".')
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="history_player",
    )
    bot_level = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.key

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    def name_at(self, seat: int) -> str:
        """The name at one seat: a bot is named for its seat as the table named it (机器人·甲（普通）)."""
        return bot_name(seat, self.bot_level) if self.user_id is None else self.name

    @property
    def name(self) -> str:
        """Display name; callers list players with `select_related("user__profile")`."""
        if self.user_id is None:
            return bot_name(None, self.bot_level)
        profile = getattr(self.user, "profile", None)
        return (profile.display_name if profile else "") or self.user.get_username()


class HandRecord(models.Model):
    """One seat of one finished hand, as the seat's player experienced it."""

    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="records")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    room = models.ForeignKey("games.Room", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hands")
    seat = models.PositiveSmallIntegerField()
    ended = models.DateTimeField()
    is_dealer = models.BooleanField(default=False)
    drawn = models.BooleanField(default=False, help_text="The hand ended without a winner (流局).")
    won = models.BooleanField(default=False)
    self_drawn = models.BooleanField(default=False, help_text="Won without a discarder (自摸 and the like).")
    dealt_in = models.BooleanField(default=False, help_text="Discarded (or added the kong) a winner took.")
    payment = models.IntegerField(help_text="What this seat received (negative: paid), stake applied.")
    pattern = models.CharField(max_length=24, blank=True, default="")
    features = models.JSONField(default=list, blank=True)
    win_kind = models.CharField(max_length=24, blank=True, default="")
    value = models.IntegerField(default=0, help_text="The winning hand's value (0 when not won).")

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="handrecord_unique_seat")]
        indexes = [
            # Covers the statistics pass (player's rows in order, the columns it counts).
            models.Index(
                fields=["player", "id", "payment", "won", "self_drawn", "dealt_in", "drawn"],
                name="handrecord_player_pass",
            ),
            models.Index(fields=["player", "match"], name="handrecord_player_match"),
            models.Index(fields=["player", "room", "id"], name="handrecord_player_room_id"),
        ]


class Rating(models.Model):
    """A player's current rating, overall (`room` is null) or in one room."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    room = models.ForeignKey("games.Room", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True, help_text="mu - 3 sigma: what the leaderboard sorts by.")
    hands = models.PositiveIntegerField(default=0, help_text="Hands played (drawn hands included).")
    rated_hands = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "room"], condition=models.Q(room__isnull=False), name="rating_one_per_room"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=models.Q(room__isnull=True), name="rating_one_overall"
            ),
        ]


class RatingChange(models.Model):
    """The rating after one rated hand."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    hand = models.ForeignKey("games.Hand", on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["rating", "id"], name="ratingchange_rating_id")]
