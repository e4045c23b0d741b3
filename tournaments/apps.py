from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = pgettext_lazy("app", "比赛")

    def ready(self) -> None:
        # The game services, the clock and history never import this app: it registers its plan of
        # walls, its hand listener, its clock step and its statistics section with them.
        from games import clock
        from games.services import on_hand_finished, plan_hands
        from history.sections import add_stats_section

        from .sections import player_tournaments_section
        from .services import advance_tournaments, record_hand, table_plan

        plan_hands(table_plan)
        on_hand_finished(record_hand)
        clock.add_step(advance_tournaments)
        add_stats_section(player_tournaments_section)
