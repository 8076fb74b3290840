from django.urls import path

from clubs import views

app_name = "clubs"
urlpatterns = [
    path("", views.members, name="members"),
    path("roles/", views.member_grant, name="member_grant"),
    path("roles/<int:pk>/revoke/", views.member_revoke, name="member_revoke"),
    path("api-tokens/", views.api_token_new, name="api_token_new"),
    path("api-tokens/<int:pk>/revoke/", views.api_token_revoke_view, name="api_token_revoke"),
    path("<int:pk>/password/", views.member_password, name="member_password"),
]
