from django.urls import path

from ops import views

app_name = "ops"

urlpatterns = [
    path("health", views.health, name="health"),
    path("backups/", views.backups, name="backups"),
    path("backups/<str:name>", views.backup_download, name="backup_download"),
]
