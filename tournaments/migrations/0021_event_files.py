from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0020_competition_today")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="date",
            field=models.DateField(blank=True, null=True, verbose_name="date"),
        ),
        migrations.AddField(
            model_name="registration",
            name="licence_since",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="roundtable",
            name="paper",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="tournamentaction",
            name="action",
            field=models.CharField(
                choices=[
                    ("edited", "edited"),
                    ("withdrawn", "withdrawn"),
                    ("reinstated", "reinstated"),
                    ("reseated", "re-seated"),
                    ("swapped", "swapped"),
                    ("substituted", "substituted"),
                    ("competition", "competition options changed"),
                    ("walkout", "walkout recorded"),
                    ("short", "short table recorded"),
                    ("table_normal", "table played in full again"),
                    ("adjusted", "points adjusted"),
                    ("unadjusted", "adjustment removed"),
                    ("classes", "classes changed"),
                    ("imported", "imported from an event file"),
                ],
                max_length=12,
            ),
        ),
    ]
