from django.urls import path

from campaign import economy_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.campaign_detail, name="campaign-detail"),
    path("c/<slug:slug>/commanders/", economy_views.commander_list, name="commander-list"),
    path("c/<slug:slug>/commanders/<int:commander_id>/", economy_views.commander_detail, name="commander-detail"),
    path("c/<slug:slug>/commanders/<int:commander_id>/recruit/", economy_views.commander_recruit,
         name="commander-recruit"),
    path("c/<slug:slug>/commanders/<int:commander_id>/units/<int:unit_id>/train/", economy_views.unit_train,
         name="unit-train"),
    path("c/<slug:slug>/commanders/<int:commander_id>/units/<int:unit_id>/name/", economy_views.unit_name,
         name="unit-name"),
    path("c/<slug:slug>/commanders/<int:commander_id>/morale/", economy_views.morale_buy, name="morale-buy"),
    path("c/<slug:slug>/commanders/<int:commander_id>/funding/", economy_views.funding_create,
         name="funding-create"),
    path("c/<slug:slug>/commanders/<int:commander_id>/funding/<int:request_id>/<str:decision>/",
         economy_views.funding_decide, name="funding-decide"),
    path("c/<slug:slug>/commanders/<int:commander_id>/cards.pdf", economy_views.commander_cards,
         name="commander-cards"),
    path("c/<slug:slug>/economy/", economy_views.economy, name="economy"),
    path("c/<slug:slug>/economy/close-day/", economy_views.economy_close_day, name="economy-close-day"),
    path("c/<slug:slug>/economy/arrears/<int:arrears_id>/<str:decision>/", economy_views.arrears_decide,
         name="arrears-decide"),
    path("c/<slug:slug>/economy/<str:kind>/", economy_views.economy_lunari, name="economy-lunari"),
    path("c/<slug:slug>/audit/", economy_views.audit_trail, name="audit-trail"),
]
