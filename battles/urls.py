from django.urls import path

from battles import views

urlpatterns = [
    path("c/<slug:slug>/battles/", views.battle_list, name="battle-list"),
    path("c/<slug:slug>/battles/start/", views.battle_start, name="battle-start"),
    path("c/<slug:slug>/battles/odds/", views.battle_odds, name="battle-odds"),
    path("c/<slug:slug>/battles/skirmish-odds/", views.skirmish_odds, name="battle-skirmish-odds"),
    path("c/<slug:slug>/battles/<id:battle_id>/", views.battle_detail, name="battle-detail"),
    path("c/<slug:slug>/battles/<id:battle_id>/log/", views.battle_log, name="battle-log"),
    path("c/<slug:slug>/battles/<id:battle_id>/confirm/", views.battle_confirm, name="battle-confirm"),
    path("c/<slug:slug>/battles/<id:battle_id>/cancel/", views.battle_cancel, name="battle-cancel"),
    path("c/<slug:slug>/battles/<id:battle_id>/hand-to-ai/", views.battle_hand_to_ai, name="battle-hand-to-ai"),
    path("c/<slug:slug>/battles/<id:battle_id>/replay/", views.battle_replay, name="battle-replay"),
    path("c/<slug:slug>/battles/<id:battle_id>/sheet/", views.battle_sheet, name="battle-sheet"),
]
