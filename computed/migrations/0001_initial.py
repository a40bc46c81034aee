# The computed tables move from the trainer to their own app without touching a row: the
# tables keep their names (Meta.db_table) and only the migration state changes here; the
# trainer's 0003 drops the models from its own state.

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        # The tables are created by the trainer's 0002, on a fresh database too.
        ('trainer', '0002_drill_tables'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='ComputedTable',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=64, unique=True)),
                        ('data', models.JSONField()),
                        ('created', models.DateTimeField(auto_now_add=True)),
                    ],
                    options={'db_table': 'trainer_computedtable'},
                ),
                migrations.CreateModel(
                    name='ChartJob',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('rules_key', models.CharField(max_length=16, unique=True)),
                        ('rules', models.JSONField()),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=1)),
                        ('finished', models.BooleanField(default=False)),
                        ('error', models.TextField(blank=True)),
                        ('started_at', models.DateTimeField(auto_now_add=True)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                    ],
                    options={'db_table': 'trainer_chartjob'},
                ),
            ],
        ),
    ]
