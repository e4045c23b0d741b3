from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("new/", views.tournament_new, name="new"),
    path("<int:tournament_id>/", views.tournament_detail, name="detail"),
    path("<int:tournament_id>/live/", views.tournament_live, name="live"),
    path("<int:tournament_id>/join/", views.tournament_join, name="join"),
    path("<int:tournament_id>/leave/", views.tournament_leave, name="leave"),
    path("<int:tournament_id>/start/", views.tournament_start, name="start"),
    path("<int:tournament_id>/cancel/", views.tournament_cancel, name="cancel"),
    path("<int:tournament_id>/remove/", views.tournament_remove, name="remove"),
    path("<int:tournament_id>/tables/<int:round_table_id>/", views.table_watch, name="watch"),
]
