from django.apps import AppConfig


class ComputedConfig(AppConfig):
    name = "computed"
    verbose_name = "Computed tables"

    def ready(self) -> None:
        # The index tables are a job kind of their own (computed.indices): its work and its
        # "stored" test, registered as the articles register the house edge.
        from computed import indices, services

        services.KIND_WORK[indices.KIND] = indices.indices_compute
        services.KIND_STORED[indices.KIND] = indices.indices_stored
