from django.urls import path

from cardgames import challenge_views, glossary_views, views

urlpatterns = [
    path("rules/", glossary_views.glossary_page, name="glossary"),
    path("c/<slug:slug>/matches/", views.match_list, name="match-list"),
    path("c/<slug:slug>/matches/<id:match_id>/", views.match_play, name="match-play"),
    path("c/<slug:slug>/matches/<id:match_id>/table/", views.match_table, name="match-table"),
    path("c/<slug:slug>/matches/<id:match_id>/act/", views.match_act, name="match-act"),
    path("c/<slug:slug>/matches/<id:match_id>/cancel/", views.match_cancel, name="match-cancel"),
    path("c/<slug:slug>/matches/<id:match_id>/claim/", views.match_claim, name="match-claim"),
    path("c/<slug:slug>/matches/<id:match_id>/replay/", views.match_replay, name="match-replay"),
    path("c/<slug:slug>/challenges/", challenge_views.challenge_create, name="challenge-create"),
    path("c/<slug:slug>/challenges/<id:challenge_id>/<slug:answer>/", challenge_views.challenge_answer,
         name="challenge-answer"),
    path("c/<slug:slug>/practice/", challenge_views.practice_start, name="practice-start"),
]
