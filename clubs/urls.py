from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.members, name="members"),
    path("<int:pk>/password/", views.member_password, name="member_password"),
]
