# The content types of Club and Player follow the models to the clubs app, so the
# admin permissions granted on them (and anything else pointing at those rows) stay
# attached. On a new database there is nothing to rename: the rows are created later,
# by post_migrate, already under "clubs".

from django.db import migrations

MODELS = ('club', 'player')


def _move(apps, schema_editor, old, new):
    ContentType = apps.get_model('contenttypes', 'ContentType')
    db = schema_editor.connection.alias
    for model in MODELS:
        if ContentType.objects.using(db).filter(app_label=new, model=model).exists():
            continue  # already there (e.g. created by a run of post_migrate): keep it
        ContentType.objects.using(db).filter(app_label=old, model=model).update(app_label=new)


def forwards(apps, schema_editor):
    _move(apps, schema_editor, 'tournaments', 'clubs')


def backwards(apps, schema_editor):
    _move(apps, schema_editor, 'clubs', 'tournaments')


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
