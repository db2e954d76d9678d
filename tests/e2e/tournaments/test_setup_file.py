"""A tournament created from a TOML *file* sent to the bot (issue 5 "Tournament set-up": "A tournament can
also be created from a TOML file sent to the bot (documented format, validated with clear errors), so an
organiser can reuse last year's set-up"), end to end through the simulator: the bot gets a document,
fetches it with getFile and downloads it."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from storage import tournaments as ts
from tests.e2e.harness import ENGLISH_USER, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID

LAST_YEAR = """# 2025 工会双升赛 — last year's set-up
name = "2026 工会双升赛"
preset = "shengji-timed-2h"
time_zone = "Asia/Shanghai"
registration_deadline = "{deadline}"
draw_at = "{draw}"
first_round = "{first}"
round_gap_minutes = 45

[rules]
time_limit_minutes = 90

[tournament]
late_forfeit_minutes = 10
third_place_match = true
prize_counts = [1, 1, 2]

[[union_groups]]
name = "机关"
quota = 2
[[union_groups]]
name = "理学院"
quota = 3
"""


def _times(h: Any) -> dict[str, str]:
    now = h.clock.now()

    def local(delta: timedelta) -> str:
        return ts.local_text(now + delta, "Asia/Shanghai")

    return {
        "deadline": local(timedelta(hours=2)),
        "draw": local(timedelta(hours=3)),
        "first": local(timedelta(days=1)),
    }


async def send_file(h: Any, user_id: int, content: bytes | str, file_name: str, expect: str) -> Any:
    before = h.sim.last_bot_message(user_id)
    h.sim.user_sends_document(user_id, user_id, content, file_name)
    return await h.sim.wait_for_message(user_id, expect, after=before, timeout=15)


async def test_last_years_file_creates_the_tournament(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=0) as h:
        text = LAST_YEAR.format(**_times(h))
        created = await send_file(h, ORG, text.encode("utf-8-sig"), "2025-双升.toml", "已从文件创建比赛")
        body = created.text or ""
        assert "#1" in body and "2026 工会双升赛" in body and "机关 2，理学院 3" in body
        assert "90 分钟" in body and "迟到判负：10 分钟" in body and "/tournament_group 1" in body
        row = await ts.get_tournament(S.db(h), 1)
        assert row.status == "registration" and row.preset_id == "shengji-timed-2h"
        assert row.rule_overrides == {"time_limit_minutes": 90}
        s = row.settings_json
        assert (s["late_forfeit_minutes"], s["third_place_match"], list(s["prize_counts"])) == (
            10,
            True,
            [1, 1, 2],
        )
        assert row.round_gap_minutes == 45
        assert ts.local_text(row.first_round_at, "Asia/Shanghai") == _times(h)["first"]
        assert "organiser" in await ts.roles_of(S.db(h), 1, ORG)

        # next year: the file /export sends back is itself a valid set-up file
        before = h.sim.last_bot_message(ORG)
        h.sim.user_sends_text(ORG, ORG, "/export #1")
        exported = await h.sim.wait_for_message(
            ORG,
            lambda m: m.document is not None and str(m.document.get("filename", "")).endswith(".toml"),
            after=before,
            timeout=15,
        )
        # issue 10: the exported file sent back, edited, is an update of the same tournament, not a copy
        data = (
            bytes(exported.document["bytes"])
            .decode("utf-8")
            .replace("round_gap_minutes = 45", "round_gap_minutes = 20")
        )
        updated = await send_file(h, ORG, data.encode("utf-8"), "2026.toml", "已按文件更新比赛 #1")
        assert updated.text and (await ts.get_tournament(S.db(h), 1)).round_gap_minutes == 20
        assert len(await ts.all_tournaments(S.db(h))) == 1
        # without its id line it makes a new tournament with the same set-up (next year's)
        fresh = "\n".join(line for line in data.splitlines() if not line.startswith(("id =", "# id")))
        again = await send_file(h, ORG, fresh.encode("utf-8"), "2027.toml", "已从文件创建比赛")
        assert "#2" in (again.text or "")
        row = await ts.get_tournament(S.db(h), 1)
        copy = await ts.get_tournament(S.db(h), 2)
        assert (
            copy.name,
            copy.preset_id,
            copy.rule_overrides,
            copy.settings_json,
            copy.union_groups,
            copy.first_round_at,
        ) == (
            row.name,
            row.preset_id,
            row.rule_overrides,
            row.settings_json,
            row.union_groups,
            row.first_round_at,
        )


BAD_FILES = [  # (what is wrong, file content, what the error must say)
    ("not TOML", 'name = "杯赛"\npreset = shengji-50min\n', "不是有效的 TOML"),
    (
        "a misspelt key",
        'name = "杯赛"\npreset = "shengji-50min"\nregistration_dedline = "2026-12-01 18:00"\n',
        "未知设置项 registration_dedline",
    ),
    ("no preset", 'name = "杯赛"\n', "缺少 preset"),
    ("an unknown preset", 'name = "杯赛"\npreset = "no-such"\n', "no-such"),
    ("a bad time", 'name = "杯赛"\npreset = "shengji-50min"\ndraw_at = "明天"\n', "时间格式不对：明天"),
    (
        "times out of order",
        'name = "杯赛"\npreset = "shengji-50min"\nregistration_deadline = "2026-12-03 18:00"\n'
        'draw_at = "2026-12-01 18:00"\n',
        "时间顺序不对",
    ),
    (
        "a quota that is not a number",
        'name = "杯赛"\npreset = "shengji-50min"\n[[union_groups]]\nname = "机关"\nquota = "两"\n',
        "quota 的值不对",
    ),
    (
        "an unknown time zone",
        'name = "杯赛"\npreset = "shengji-50min"\ntime_zone = "Mars/Base"\n',
        "未知时区 Mars/Base",
    ),
]


async def test_a_malformed_file_is_explained_and_creates_nothing(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=0) as h:
        for what, content, needle in BAD_FILES:
            reply = await send_file(h, ORG, content, "setup.toml", "文件有误，比赛未创建")
            assert needle in (reply.text or ""), (what, reply.text)
        reply = await send_file(h, ORG, "name = '杯赛'".encode("gbk"), "gbk.toml", "文件有误，比赛未创建")
        assert "UTF-8" in (reply.text or "")
        assert await ts.all_tournaments(S.db(h)) == []


async def test_only_bot_admins_may_create_from_a_file(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=0) as h:
        refused = await send_file(
            h, ENGLISH_USER[0], LAST_YEAR.format(**_times(h)), "2025.toml", "Only the bot's admins"
        )
        assert refused.text
        assert await ts.all_tournaments(S.db(h)) == []
