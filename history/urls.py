from django.urls import path

from . import views

app_name = "history"
urlpatterns = [
    path("matches/", views.my_matches, name="my_matches"),
    path("matches/<int:match_id>/", views.match_detail, name="match"),
    path("tables/<int:table_id>/", views.table_history, name="table"),
    path("players/<str:key>/matches/", views.player_matches, name="player_matches"),
    path("players/<str:key>/", views.stats, name="stats"),
    path("stats/", views.my_stats, name="my_stats"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("hands/<int:hand_id>/", views.replay, name="replay"),
    path("hands/<int:hand_id>/export.json", views.export_hand, name="export"),
    path("hands/<int:hand_id>/review/<int:seat>/", views.review_hand, name="review"),
    path("hands/<int:hand_id>/review/<int:seat>/status/", views.review_status, name="review_status"),
    path("replay/import/", views.import_hand, name="import"),
    path("replay/imported/", views.imported, name="imported"),
]
