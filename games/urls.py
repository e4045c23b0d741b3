from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("rooms/<int:room_id>/tables/new/", views.table_create, name="table_create"),
    path("rooms/<int:room_id>/tables/choose/", views.table_new, name="table_new"),
    path("pools/<int:pool_id>/join/", views.pool_join, name="pool_join"),
    path("pools/leave/", views.pool_leave, name="pool_leave"),
    path("join/<str:code>/", views.table_invite, name="table_invite"),
    path("table/<int:table_id>/", views.table, name="table"),
    path("table/<int:table_id>/sit/", views.table_sit, name="table_sit"),
    path("table/<int:table_id>/stand/", views.table_stand, name="table_stand"),
    path("table/<int:table_id>/fill/", views.table_fill, name="table_fill"),
    path("table/<int:table_id>/remove-bot/", views.table_remove_bot, name="table_remove_bot"),
    path("table/<int:table_id>/start/", views.table_start, name="table_start"),
    path("table/<int:table_id>/next/", views.table_next_hand, name="table_next_hand"),
]
