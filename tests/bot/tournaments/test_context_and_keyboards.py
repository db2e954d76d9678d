"""The tournament side's shared context and its keyboards, each built alone against a fake play side."""

from __future__ import annotations

from bot.edge.tournament.keyboards import TelegramTournamentKeyboards
from bot.presentation import callbacks
from bot.presentation.callbacks import TournamentButton, TournamentOp
from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from tests.bot.tournaments.fakes import FakePlay


def _buttons(markup: object) -> list[tuple[str, TournamentButton | None]]:
    rows = markup.inline_keyboard
    return [(b.text, callbacks.parse_tournament(b.callback_data)) for row in rows for b in row]


def test_the_check_in_button_carries_the_tournament_and_the_match() -> None:
    markup = TelegramTournamentKeyboards().checkin("en", 7, "R1-M2")
    assert _buttons(markup) == [
        (tt("en", "checkin.button"), TournamentButton(TournamentOp.CHECK_IN, 7, word="R1-M2"))
    ]


def test_a_live_dashboard_has_refresh_and_stop_an_ended_one_refresh_only() -> None:
    kb = TelegramTournamentKeyboards()
    assert _buttons(kb.dashboard("zh", 3, live=True)) == [
        (tt("zh", "dash.refresh"), TournamentButton(TournamentOp.DASHBOARD, 3)),
        (tt("zh", "dash.stop"), TournamentButton(TournamentOp.DASHBOARD_STOP, 3)),
    ]
    assert _buttons(kb.dashboard("zh", 3, live=False)) == [
        (tt("zh", "dash.refresh"), TournamentButton(TournamentOp.DASHBOARD, 3))
    ]


async def test_files_go_through_the_outbox_and_nothing_is_sent_before_it_runs() -> None:
    play = FakePlay(ready=False)
    ctx = TournamentContext(lambda: play)
    assert await ctx.send_document(-100, b"{}", "draw-1.json", "caption") is None
    assert play.files == []
    play._ready = True
    assert await ctx.send_document(-100, b"{}", "draw-1.json", "caption") == 1
    assert await ctx.send_document(-100, b"\x89PNG", "bracket.png", "", photo=True) == 2
    assert play.files == [("document", -100, "draw-1.json", "caption"), ("photo", -100, "", "")]


async def test_a_message_to_no_chat_is_not_sent_and_links_and_admins_come_from_the_play_side() -> None:
    play = FakePlay(admins=[42])
    ctx = TournamentContext(lambda: play)
    assert ctx.send(None, "nobody") is None
    assert play.sent == []
    assert await ctx.send(5, "hello") == 1
    assert ctx.bot_link("reg_3") == "https://t.me/cup_bot?start=reg_3"
    assert ctx.is_admin(42) and not ctx.is_admin(43)


def _announced(play: FakePlay, settings: dict[str, object]) -> str:
    from datetime import UTC, datetime
    from types import SimpleNamespace

    from bot.edge.tournament.organiser import announce_registration
    from storage.tournament_models import Tournament

    when = datetime(2026, 12, 5, 2, 0, tzinfo=UTC)
    row = Tournament(
        id=4,
        name="教工杯",
        preset_id="shengji-17-deals",
        settings_json=settings,
        registration_deadline=when,
        draw_at=when,
        time_zone="Asia/Shanghai",
        group_chat_id=-100,
        commitment="ab12",
    )
    announce_registration(SimpleNamespace(ctx=TournamentContext(lambda: play)), row)  # type: ignore[arg-type]
    assert len(play.sent) == 1 and play.sent[0][0] == -100
    return play.sent[0][1]


async def test_the_announcement_links_the_public_page_unless_it_is_off_or_the_server_has_no_address() -> None:
    text = _announced(FakePlay(public_base="https://cup.example.org/"), {"entrant": "pair"})
    assert "公开页面" in text and "https://cup.example.org/t/4" in text
    off = _announced(
        FakePlay(public_base="https://cup.example.org"), {"entrant": "pair", "public_page": False}
    )
    assert "公开页面" not in off and "/t/4" not in off and "教工杯" in off
    assert "/t/" not in _announced(FakePlay(), {"entrant": "pair"})
