from django.apps import AppConfig


class ArticlesConfig(AppConfig):
    name = "articles"

    def ready(self) -> None:
        # The house edge is work of the computed app's jobs (kind "edge"), run by its workers
        # before the tables (the reader waits for it); this app sits above that one, so it
        # hands the step down here.
        from articles import figures
        from computed import services
        from computed.models import ChartJob

        services.KIND_WORK[ChartJob.Kind.EDGE] = figures.edge_compute
        services.KIND_STORED[ChartJob.Kind.EDGE] = figures.edge_stored
        # The counting article's simulation (kind "count"), alike.
        services.KIND_WORK[ChartJob.Kind.COUNT] = figures.count_compute
        services.KIND_STORED[ChartJob.Kind.COUNT] = figures.count_stored
