from django.urls import path

from campaign import views

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
]
