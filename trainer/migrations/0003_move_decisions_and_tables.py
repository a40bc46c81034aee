# Decision and WeakSpot now belong to the decisions app, ComputedTable and ChartJob to the
# computed app (their 0001 migrations take them over in the migration state).  The database
# is not touched: the tables keep their names, the situation's foreign key keeps pointing at
# trainer_decision.  The content types follow the models, so that admin permissions and log
# entries stay attached to them.

import django.db.models.deletion
from django.db import migrations, models

MOVED = {"decision": "decisions", "weakspot": "decisions", "computedtable": "computed",
         "chartjob": "computed"}


def content_types_forward(apps, schema_editor):
    _relabel(apps, schema_editor, old="trainer", new=None)


def content_types_backward(apps, schema_editor):
    _relabel(apps, schema_editor, old=None, new="trainer")


def _relabel(apps, schema_editor, *, old, new):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    for model, app in MOVED.items():
        source, target = old or app, new or app
        if ContentType.objects.using(db).filter(app_label=target, model=model).exists():
            continue  # already made (by post_migrate): leave both as they are
        ContentType.objects.using(db).filter(app_label=source, model=model).update(
            app_label=target
        )


class Migration(migrations.Migration):

    dependencies = [
        ('trainer', '0002_drill_tables'),
        ('decisions', '0001_initial'),
        ('computed', '0001_initial'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name='situation',
                    name='decision',
                    field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='situation', to='decisions.decision'),
                ),
                migrations.DeleteModel(name='Decision'),
                migrations.DeleteModel(name='WeakSpot'),
                migrations.DeleteModel(name='ComputedTable'),
                migrations.DeleteModel(name='ChartJob'),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward),
    ]
