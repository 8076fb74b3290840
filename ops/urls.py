from django.urls import path

from ops import views

app_name = "ops"

urlpatterns = [
    path("health", views.health, name="health"),
]
