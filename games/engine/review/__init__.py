"""复盘: review a finished hand decision by decision beside the `hard` bot (`review`)."""

from .core import VERSION, Review, Summary, review, review_views, seat_views
from .decide import AGREES, CLOSE, MISTAKE, MISTAKE_GAP, Decision, DecisionKind, Option

__all__ = [
    "AGREES",
    "CLOSE",
    "MISTAKE",
    "MISTAKE_GAP",
    "VERSION",
    "Decision",
    "DecisionKind",
    "Option",
    "Review",
    "Summary",
    "review",
    "review_views",
    "seat_views",
]
