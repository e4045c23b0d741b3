from django.apps import AppConfig


class CalcConfig(AppConfig):
    name = "calc"
    verbose_name = "Calculator 算番器"
