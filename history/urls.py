app_name = "history"
urlpatterns: list = []
