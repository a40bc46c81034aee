from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"

    def ready(self) -> None:
        # The trainer's drill page says when a drill counts toward an assignment.
        from classroom import records, selectors

        records.drill_notice_register(selectors.ASSIGNMENT_PREFIX, selectors.assignment_notice)
