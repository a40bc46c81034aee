# The decision record moves from the trainer to its own app without touching a row: the
# tables keep their names (Meta.db_table) and only the migration state changes here; the
# trainer's 0003 drops the models from its own state.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        # The tables are created by the trainer's first migrations, on a fresh database too.
        ('trainer', '0002_drill_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Decision',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('drill', 'Drill'), ('table', 'Table')], max_length=8)),
                        ('source_ref', models.CharField(blank=True, max_length=40)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('rules', models.JSONField()),
                        ('rules_key', models.CharField(db_index=True, max_length=16)),
                        ('hand', models.JSONField()),
                        ('dealer_up', models.CharField(max_length=4)),
                        ('removed', models.JSONField(blank=True, default=list)),
                        ('category', models.CharField(choices=[('hard', 'Hard totals'), ('soft', 'Soft totals'), ('pair', 'Pairs'), ('insurance', 'Insurance')], max_length=10)),
                        ('chart_kind', models.CharField(max_length=4)),
                        ('chart_row', models.PositiveSmallIntegerField()),
                        ('dealer_points', models.PositiveSmallIntegerField()),
                        ('choice', models.CharField(choices=[('hit', 'hit'), ('stand', 'stand'), ('double', 'double'), ('split', 'split'), ('surrender', 'surrender'), ('insure', 'insure'), ('decline', 'decline')], max_length=10)),
                        ('best', models.CharField(choices=[('hit', 'hit'), ('stand', 'stand'), ('double', 'double'), ('split', 'split'), ('surrender', 'surrender'), ('insure', 'insure'), ('decline', 'decline')], max_length=10)),
                        ('chart_move', models.CharField(choices=[('hit', 'hit'), ('stand', 'stand'), ('double', 'double'), ('split', 'split'), ('surrender', 'surrender'), ('insure', 'insure'), ('decline', 'decline')], max_length=10)),
                        ('ev', models.JSONField()),
                        ('ev_lost', models.FloatField()),
                        ('correct', models.BooleanField()),
                        ('time_taken_ms', models.PositiveIntegerField(blank=True, null=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='decisions', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'trainer_decision',
                        'ordering': ['-created_at', '-id'],
                        'indexes': [models.Index(fields=['user', 'created_at'], name='trainer_dec_user_id_5ae284_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='WeakSpot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('chart_kind', models.CharField(max_length=4)),
                        ('chart_row', models.PositiveSmallIntegerField()),
                        ('dealer_points', models.PositiveSmallIntegerField()),
                        ('box', models.PositiveSmallIntegerField(default=1)),
                        ('misses', models.PositiveIntegerField(default=0)),
                        ('due_at', models.DateTimeField()),
                        ('example', models.JSONField(default=list)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='weak_spots', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'trainer_weakspot',
                        'constraints': [models.UniqueConstraint(fields=('user', 'chart_kind', 'chart_row', 'dealer_points'), name='weak_spot_cell')],
                    },
                ),
            ],
        ),
    ]
