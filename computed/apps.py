from django.apps import AppConfig


class ComputedConfig(AppConfig):
    name = "computed"
    verbose_name = "Computed tables"
