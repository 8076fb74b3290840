# Club and Player move here from the tournaments app. Their tables keep the names
# tournaments_club and tournaments_player (Meta.db_table), so this migration changes the
# migration state only; an existing database is not touched.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0004_ratings_series'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Club',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                        ('city', models.CharField(blank=True, max_length=80, verbose_name='city')),
                    ],
                    options={
                        'verbose_name': 'club',
                        'verbose_name_plural': 'clubs',
                        'db_table': 'tournaments_club',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveIntegerField(verbose_name='club number')),
                        ('name', models.CharField(max_length=120, verbose_name='name')),
                        ('federation_id', models.CharField(blank=True, max_length=40, verbose_name='federation id')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='players', to='clubs.club')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'tournaments_player',
                        'ordering': ['club', 'number'],
                        'constraints': [models.UniqueConstraint(fields=('club', 'number'), name='player_number_unique')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
