"""Messages of a running Swiss: late entries and withdrawals between rounds (merged into ``texts.T``)."""

from __future__ import annotations

SWISS_TEXTS: dict[str, tuple[str, str]] = {
    "swiss.late_entry": (
        "✅ 迟到报名：{pair}（{group}，第 {id} 号）以 0 分加入积分编排，从第 {round} 轮开始编排（错过的轮次不算轮空）。",
        "✅ Late entry: {pair} ({group}, entry no. {id}) joins the Swiss on 0 points, paired from round {round} (the rounds missed are not byes).",
    ),
    "swiss.late_entry_you": (
        "你们已作为迟到报名加入「{name}」：{pair}，0 分，从第 {round} 轮开始编排；排定后会私聊通知你们的比赛。",
        "You have joined “{name}” as a late entry: {pair}, on 0 points, paired from round {round}; you will be told your match once it is scheduled.",
    ),
    "err.swiss_over": (
        "积分编排各轮已经结束，不能再退赛或加入。",
        "The Swiss rounds are over: no more withdrawals or entries.",
    ),
    "err.swiss_stalled": (
        "下一轮无法编排，现在不能加入；请组织者用 /end_swiss 结束积分编排。",
        "The next round cannot be paired, so no entry can join now; the organiser ends the Swiss with /end_swiss.",
    ),
    "err.swiss_team_withdraw": (
        "团体赛的积分编排中只能整队退赛：请组织者发送 /remove 队伍编号。",
        "In a Swiss of teams a team withdraws as a whole: the organiser sends /remove <team no>.",
    ),
    "err.swiss_late_team": (
        "迟到报名只用于固定搭档的积分编排。",
        "Late entries are for a Swiss of pairs only.",
    ),
}
