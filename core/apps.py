import django_stubs_ext
from django.apps import AppConfig

# Generic Django classes (``admin.ModelAdmin[Decision]``, ``QuerySet[Round]``) subscript at run
# time as they do for the type checker.  Done on import of this module, which the app registry
# imports before any admin module.
django_stubs_ext.monkeypatch()


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = "Hall of Thoth"
