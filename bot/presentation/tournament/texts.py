"""Tournament messages in Chinese (default) and English: ``tt(lang, key, **params)``.

Kept apart from the game catalogues (bot/presentation/i18n/locale/*/bot.po, owned by the play side); the keys
are stable and the same ``{name}`` fields are used in both languages.  ``error_text`` translates a
tournament ``RuleError`` code (``err.<code>`` here first, then the game catalogues).
"""

from __future__ import annotations

from bot.presentation.i18n import rule_error
from bot.presentation.tournament.setup_texts import SETUP_TEXTS
from bot.presentation.tournament.swiss_texts import SWISS_TEXTS
from engine.errors import RuleError

T: dict[str, tuple[str, str]] = {
    **SETUP_TEXTS,  # generic, set-up, groups and tables, registration, draw (setup_texts.py)
    **SWISS_TEXTS,  # a running Swiss: late entries, withdrawals (swiss_texts.py)
    # --- schedule
    "sched.round": ("🗓 赛程：\n{lines}", "🗓 Schedule:\n{lines}"),
    "sched.line": ("{key} {a} vs {b} — {time} @ {tables}", "{key} {a} vs {b} — {time} @ {tables}"),
    "sched.none": ("暂无待进行的比赛。", "No matches waiting."),
    "sched.no_tables": (
        "无法安排比赛：{reason}。请在比赛桌群中发送 /table_register {id}。",
        "Cannot schedule matches: {reason}. Send /table_register {id} in a table group.",
    ),
    "remind": (
        "⏰ 提醒：你的比赛 {key}（{a} vs {b}）将于 {time} 在「{tables}」开始（还有 {left}）。开赛前 {checkin} 分钟可以签到。",
        "⏰ Reminder: your match {key} ({a} vs {b}) starts at {time} in “{tables}” (in {left}). Check-in opens {checkin} minutes before.",
    ),
    "left.minutes": ("{n} 分钟", "{n} minutes"),
    "left.hours": ("{n} 小时", "{n} hours"),
    "checkin.open": (
        "✅ 签到开始：{key} {a} vs {b}，{time} 开赛。迟到 {late} 分钟判负。请点击签到：",
        "✅ Check-in is open: {key} {a} vs {b}, starts {time}. {late} minutes late forfeits. Press to check in:",
    ),
    "checkin.button": ("签到", "Check in"),
    "checkin.ok": ("已签到。", "Checked in."),
    "checkin.status": ("{key} 已签到：{names}", "{key} checked in: {names}"),
    "start.open": (
        "▶️ {key} 开赛：{a} vs {b}，请到「{tables}」就座。",
        "▶️ {key} starts: {a} vs {b}; please go to “{tables}”.",
    ),
    "start.waiting": (
        "{key} 第 {table} 桌等待签到：{names}（{until} 前未到判负）。",
        "{key} table {table}: waiting for {names} (forfeit if not here by {until}).",
    ),
    "late.forfeit": (
        "⚠️ {key}：{absent}（未到：{players}）迟到超过 {late} 分钟，判负。{winner} 晋级。裁判可撤销：/undo_forfeit {key} 理由",
        "⚠️ {key}: {absent} ({players} not here) more than {late} minutes late: forfeit. {winner} goes on. A referee may undo it: /undo_forfeit {key} reason",
    ),
    "late.double": (
        "⚠️ {key}：双方均未按时到场（未到：{players}），双方判负。",
        "⚠️ {key}: both sides absent ({players} not here): double forfeit.",
    ),
    "late.table": (
        "⚠️ {key} 第 {table} 桌：{absent}（未到：{players}）迟到超过 {late} 分钟，该桌判负，{winner} 胜该桌。",
        "⚠️ {key} table {table}: {absent} ({players} not here) more than {late} minutes late: the table is lost, {winner} wins it.",
    ),
    "late.table_double": (
        "⚠️ {key} 第 {table} 桌：双方均未到（{players}），该桌双方判负。",
        "⚠️ {key} table {table}: both sides absent ({players}): the table is lost by both.",
    ),
    "late.others_play": ("其余桌照常进行。", "The other tables play on."),
    "late.match": ("比赛结果：{line}", "Match result: {line}"),
    "ref.started": ("▶️ 裁判宣布 {key} 开始。", "▶️ The referee starts {key}."),
    "ref.substitute": (
        "🔁 裁判批准替补：{key} 第 {table} 桌由 {new} 代替 {old}（{reason}）。",
        "🔁 The referee approved a substitute: at {key} table {table}, {new} plays instead of {old} ({reason}).",
    ),
    "ref.substitute_live": (
        "🔁 裁判批准替补：{key} 第 {table} 桌比赛中由 {new} 接替 {old}（{seat}，{reason}），打完本场；手牌和计时照常继续。",
        "🔁 The referee approved a substitute: at {key} table {table}, {new} takes over from {old} ({seat}, {reason}) for the rest of the match; the hand and the clocks carry on.",
    ),
    "sub.hand_closed": (
        "🔁 {key} 第 {table} 桌：你的座位已由替补 {new} 接替（裁判批准）。这条消息的按钮已失效。",
        "🔁 {key} table {table}: the substitute {new} has taken over your seat (approved by the referee). The buttons of this message no longer work.",
    ),
    "sub.refused": (
        "你的座位已由替补接替，不能再为这一桌出牌。",
        "A substitute has taken over your seat; you can no longer play at this table.",
    ),
    "ref.extended": (
        "⏳ 裁判延长 {key} 第 {table} 桌的迟到时限 {minutes} 分钟，至 {until}。",
        "⏳ The referee gave {key} table {table} {minutes} more minutes: forfeit if not here by {until}.",
    ),
    "table.locked": (
        "这是比赛桌：座位已按抽签固定，只有本场选手（或裁判批准的替补）可以就座；签到齐后自动开始。",
        "This is a tournament table: the seats are bound to the draw; only this match's players (or a substitute the referee approved) sit here, and it starts when they have checked in.",
    ),
    "table.locked_hint": (
        "🔒 比赛桌：座位按抽签固定，选手签到齐后自动开始；迟到按规程判负；裁判可 /start_match、/substitute、/pause。",
        "🔒 Tournament table: seats bound to the draw; it starts when the players have checked in; lateness as the rules say; referees: /start_match, /substitute, /pause.",
    ),
    "reg.withdrawn_you": (
        "你所在的 {entry} 已退出比赛。",
        "Your entry {entry} has withdrawn from the tournament.",
    ),
    "reg.team_pair_left": (
        "{team} 的搭档 {pair} 已退出比赛，该队现有 {have}/{need} 对。请用 /team {team} <搭档编号> 补齐（抽签前）。",
        "Pair {pair} of {team} has withdrawn; the team has {have} of {need} pairs. Complete it with /team {team} <pair no> before the draw.",
    ),
    "reg.replace_ask": (
        "{who} 邀请你在「{name}」中代替 {old}，加入 {entry}。请在 {hours} 小时内点击接受：",
        "{who} asks you to take {old}'s place in {entry} for “{name}”. Accept within {hours} hours:",
    ),
    "reg.replace_sent": (
        "已请 {new} 代替 {old}；对方接受后生效。",
        "{new} is asked to take {old}'s place; it takes effect when they accept.",
    ),
    "reg.replaced_you": (
        "{new} 已代替你加入 {entry}。如有疑问请联系组织者。",
        "{new} has taken your place: {entry}. Ask the organiser if this is a mistake.",
    ),
    "sched.yours": (
        "🗓 你的下一场：{match} {a} vs {b}，{time} 开赛；你们在第 {table} 桌：「{where}」。开赛前 {checkin} 分钟可以签到。",
        "🗓 Your next match: {match} {a} vs {b}, starts {time}; your pair sits at table {table}: “{where}”. Check-in opens {checkin} minutes before.",
    ),
    "result.yours": ("🏁 你的比赛结果：{line}", "🏁 Your result: {line}"),
    "result.next_soon": (
        "下一场的时间和桌号安排好后会私信通知你。",
        "Your next match, with its time and table, will be sent to you here.",
    ),
    "result.substitute_done": (
        "你作为替补的这场比赛已结束，谢谢！之后的比赛仍由原队员参加。",
        "The match you played as a substitute is over. Thank you! The entry's own player plays its next matches.",
    ),
    "result.out": (
        "你们在本次比赛中的比赛已全部结束，谢谢参与！",
        "Your matches in this tournament are over. Thank you for playing!",
    ),
    "result.tournament_over": (
        "比赛已全部结束，获奖名单见比赛群。",
        "The tournament is over; the prize list is in the tournament group.",
    ),
    "reg.team_you": (
        "👥 你已加入「{name}」的 {team}（{group}）。队员：{players}",
        "👥 You are in {team} ({group}) for “{name}”. Players: {players}",
    ),
    "toml.updated": (
        "已按文件更新比赛 #{id}「{name}」。",
        "Tournament #{id} “{name}” updated from the file.",
    ),
    "ctl.updated": (
        "ℹ️ 「{name}」的设置已由组织者更新，请用 /schedule 查看。",
        "ℹ️ The organiser updated the set-up of “{name}”; see /schedule.",
    ),
    "ctl.confirm": (
        "确定要{op}「{name}」吗？理由：{reason}\n此操作会通知所有参赛者并记入操作记录。请在 {minutes} 分钟内确认。",
        "Really {op} “{name}”? Reason: {reason}\nEveryone taking part is told, and it goes in the audit log. "
        "Confirm within {minutes} minutes.",
    ),
    "err.confirm_expired": (
        "这个确认已过期（超过 {minutes} 分钟），未作更改。如仍需要，请重新发送命令。",
        "This confirmation expired (after {minutes} minutes); nothing was changed. Send the command again if you still want it.",
    ),
    "err.confirm_used": (
        "这个确认已经回答过了，未再作更改。",
        "This confirmation was already answered; nothing more was changed.",
    ),
    "err.confirm_unknown": (
        "这个确认已失效，未作更改。请重新发送命令。",
        "This confirmation is no longer valid; nothing was changed. Send the command again.",
    ),
    "ctl.op.cancel": ("取消比赛", "cancel"),
    "ctl.op.delete": ("删除比赛", "delete"),
    "ctl.yes": ("确定", "Yes"),
    "ctl.no": ("不了", "No"),
    "ctl.kept": ("未作更改。", "Nothing was changed."),
    "ctl.cancelled": ("🛑 「{name}」已取消：{reason}", "🛑 “{name}” is cancelled: {reason}"),
    "ctl.deleted": (
        "🗑 「{name}」已删除（记录保留在操作记录中）：{reason}",
        "🗑 “{name}” is deleted (kept in the audit log): {reason}",
    ),
    "ctl.time_edited": ("🕒 「{name}」的{what}改为 {time}。", "🕒 {what} of “{name}” changed to {time}."),
    "ctl.what.deadline": ("报名截止时间", "The registration deadline"),
    "ctl.what.draw": ("抽签时间", "The draw time"),
    "ctl.what.first": ("第一轮开赛时间", "The first round"),
    "ctl.rescheduled": (
        "🗓 改期：{key} {a} vs {b} 改为 {time}，在「{tables}」。",
        "🗓 Moved: {key} {a} vs {b} now at {time}, at “{tables}”.",
    ),
    "ctl.table_moved": (
        "🗓 {key} 第 {table} 桌改到「{tables}」，{time} 开赛。",
        "🗓 {key} table {table} moves: “{tables}”, starting {time}.",
    ),
    "err.match_begun": (
        "{match} 已经开始（或尚未安排），不能改动。",
        "Match {match} has begun (or is not scheduled): it cannot be moved.",
    ),
    "err.bad_time_field": (
        "请写 deadline（报名截止）、draw（抽签）或 first（第一轮）。",
        "Write deadline, draw or first.",
    ),
    "err.tournament_ended": ("「{name}」已结束或已取消。", "“{name}” is over or cancelled."),
    "err.unknown_table_group": (
        "该群不是本比赛的比赛桌群（先在群里发送 /table_register）。",
        "That group is not one of the tournament's table groups (send /table_register there first).",
    ),
    # --- the command menu (bot/boot/runtime.py sets it; each description at most 256 characters)
    "cmd.withdraw": ("退出比赛（本对）", "Withdraw your pair from the tournament"),
    "cmd.schedule": ("比赛赛程", "Tournament schedule"),
    "cmd.results": ("比赛结果", "Tournament results"),
    "cmd.bracket": ("对阵表", "Bracket"),
    "cmd.standings": ("小组积分和名次", "Group standings and ranking"),
    "cmd.dashboard": ("组织者面板（自动更新）", "Organiser dashboard (kept up to date)"),
    "cmd.tournament": ("创建比赛（管理员）", "Create a tournament (bot admins)"),
    "cmd.tournament_help": ("比赛命令一览", "Tournament commands"),
    "cmd.me": ("我的战绩与等级分", "My record and ratings"),
    "cmd.season": ("赛季积分榜", "The season table"),
    "cmd.tournament_group": (
        "把本群设为比赛通知群：/tournament_group 编号",
        "Make this group the tournament group: /tournament_group <id>",
    ),
    "cmd.table_register": (
        "把本群登记为比赛桌群：/table_register 编号",
        "Register this group as a table group: /table_register <id>",
    ),
    "cmd.start_match": ("裁判：立即开始一场比赛", "Referee: start a match now"),
    "cmd.substitute": (
        "裁判：替补就座（开赛前或比赛中）",
        "Referee: seat a substitute (before or during the match)",
    ),
    "cmd.extend": ("裁判：延长迟到时限", "Referee: more time before the lateness rule"),
    "cmd.pause": ("裁判：暂停牌桌", "Referee: pause a match's tables"),
    "cmd.resume": ("裁判：继续牌桌", "Referee: resume a match's tables"),
    "cmd.result": ("裁判：登记、更正或确认结果", "Referee: record, correct or confirm a result"),
    "cmd.forfeit": ("裁判：判弃权", "Referee: award a forfeit"),
    "cmd.violation": ("裁判：记录违例", "Referee: record a violation"),
    "cmd.audit": ("裁判：操作记录", "Referee: the audit log"),
    "dash.title": (
        "📋 组织者面板：「{name}」#{id}（{status}）",
        "📋 Organiser dashboard: “{name}” #{id} ({status})",
    ),
    "dash.status.setup": ("设置中", "setting up"),
    "dash.status.registration": ("报名中", "registration open"),
    "dash.status.closed": ("报名已截止", "registration closed"),
    "dash.status.running": ("进行中", "running"),
    "dash.status.finished": ("已结束", "finished"),
    "dash.status.cancelled": ("已取消", "cancelled"),
    "dash.status.deleted": ("已删除", "deleted"),
    "dash.latest": ("最新报名：", "Latest registrations:"),
    "dash.act.pair_registered": ("报名", "registered"),
    "dash.act.register_on_behalf": ("代报名", "registered by an organiser/leader"),
    "dash.act.team_formed": ("组队", "team formed"),
    "dash.act.withdraw": ("退出", "withdrew"),
    "dash.act.replace_player": ("换人", "player replaced"),
    "dash.groups": ("各单位报名 / 名额：", "Entries by union group / quota:"),
    "dash.pairs": ("（{n} 对）", " ({n} pairs)"),
    "dash.checkin": ("未签到（即将开始的比赛）：", "Not checked in (matches to come):"),
    "dash.table": ("第{k}桌 ", "table {k}: "),
    "dash.running": ("进行中的牌桌（级数 · 剩余时间）：", "Tables running (levels · time left):"),
    "dash.table_line": (
        "{key} 第{k}桌：第 {deal} 副，{score}，剩 {left}",
        "{key} table {k}: deal {deal}, {score}, {left} left",
    ),
    "dash.paused": ("（暂停）", " (paused)"),
    "dash.disputes": ("等待裁判：", "Waiting for a referee:"),
    "dash.referee_needed": (
        "各桌已完赛但结果未定，请裁判 /result {key} a|b 理由",
        "all tables done, no result: a referee decides with /result {key} a|b reason",
    ),
    "dash.refresh": ("🔄 刷新", "🔄 Refresh"),
    "dash.stop": ("⏹ 停止自动更新", "⏹ Stop following"),
    "dash.live": (
        "🔄 本面板自动更新（最多每 {seconds} 秒一次），直到比赛结束或按“停止自动更新”。",
        "🔄 This dashboard updates itself (at most once every {seconds} s) until the tournament ends or you press Stop.",
    ),
    "dash.not_live": (
        "（不再自动更新；按“刷新”查看最新情况，或重新发送 /dashboard。）",
        "(No longer updated by itself; press Refresh, or send /dashboard again.)",
    ),
    "dash.stopped": ("已停止自动更新。", "Stopped following."),
    "reg.new_entry": (
        "📝 新报名：{entry}（{group}），共 {count} 个。",
        "📝 New entry: {entry} ({group}); {count} in all.",
    ),
    "late.undone": (
        "↩️ {key}：裁判撤销了迟到判负（{reason}），比赛现在开始。",
        "↩️ {key}: the referee undid the lateness forfeit ({reason}); the match starts now.",
    ),
    # --- results
    "result.line": ("{key}：{winner} 胜 {loser}{detail}", "{key}: {winner} beat {loser}{detail}"),
    "result.double": ("{key}：{a} 与 {b} 双方弃权", "{key}: {a} and {b} both forfeited"),
    "result.forfeit": ("（弃权）", " (forfeit)"),
    "dup.reveal": (
        "🔑 复式 {key} 第 {table} 桌（两桌都已打完，公布种子；--board-turn {turn}）\n服务器种子 {server_seed}",
        "🔑 Duplicate {key}, table {table} (both tables are over: the seeds; --board-turn {turn})\nServer seed {server_seed}",
    ),
    "dup.reveal_deal": ("第 {deal} 副：种子 {seed} · salt {salt}", "Deal {deal}: seed {seed} · salt {salt}"),
    "dup.reveal_check": (
        "核验：python -m bot.verify_deal --preset {preset} --seed <种子> --salt <salt> --commitment <本副承诺> --board-turn {turn}",
        "Check: python -m bot.verify_deal --preset {preset} --seed <seed> --salt <salt> --commitment <deal commitment> --board-turn {turn}",
    ),
    "result.duplicate": (
        "（复式：同牌比较 {boards} 副，净胜 {total} 级）",
        " (duplicate: {boards} boards compared, {total} levels ahead)",
    ),
    "result.levels": ("（{la}:{lb}）", " ({la}:{lb})"),
    "result.levels_how": ("（{la}:{lb}，{how}）", " ({la}:{lb}, {how})"),
    "result.how.dealer_side": ("台上方胜", "dealing side wins"),
    "result.how.cut": ("搬点决胜", "decided by a cut"),
    "result.how.last_upstream": ("末副上游方胜", "first out in the last deal wins"),
    "result.how.level_difference": ("级差决胜", "on level difference"),
    "result.how.table_1": ("第1桌决胜", "on table 1"),
    "result.announce": ("🏁 {line}", "🏁 {line}"),
    "result.corrected": (
        "✏️ 裁判更正 {key}（{reason}）：{line}",
        "✏️ Referee correction of {key} ({reason}): {line}",
    ),
    "result.conflict": (
        "无法更正：后续比赛 {matches} 已开始。若确需更正并作废这些比赛结果，请在命令最后加 force。",
        "Cannot correct: later matches {matches} have begun. To correct anyway and void them, add force.",
    ),
    "result.referee_decides": (
        "⚖️ {key} 各桌结果持平，请裁判决定：/result {key} a|b 理由",
        "⚖️ {key} is level on tables; a referee decides: /result {key} a|b reason",
    ),
    "result.confirmed": (
        "✔️ {key} 结果已由裁判长确认。",
        "✔️ The result of {key} is confirmed by the chief referee.",
    ),
    "result.usage": (
        "/result 场次 confirm | /result 场次 a|b [级数a 级数b] 理由 [force]",
        "/result match confirm | /result match a|b [level_a level_b] reason [force]",
    ),
    "forfeit.usage": ("/forfeit 场次 a|b|both 理由", "/forfeit match a|b|both reason"),
    "forfeit.awarded": (
        "⚖️ 裁判判定 {key}：{line}（{reason}）",
        "⚖️ Referee decision in {key}: {line} ({reason})",
    ),
    "conduct.usage": ("/violation 场次 a|b 说明", "/violation match a|b note"),
    "conduct.recorded": (
        "📝 {key}：记录 {entry} 违例（{note}），编号 {id}，累计 {count} 次。",
        "📝 {key}: violation by {entry} recorded ({note}), no. {id}, {count} in total.",
    ),
    "conduct.disqualified": (
        "❌ {entry} 违例 {count} 次，取消比赛资格，判对方胜。",
        "❌ {entry} has {count} violations: disqualified; the opponent wins.",
    ),
    "conduct.reversed": (
        "↩️ 撤销处罚 {id}（{reason}）。{extra}",
        "↩️ Penalty {id} reversed ({reason}). {extra}",
    ),
    "conduct.reinstated": ("{entry} 恢复参赛资格。", "{entry} is reinstated."),
    "pause.done": ("⏸ {key} 比赛暂停（裁判）。", "⏸ {key} paused by the referee."),
    "resume.done": ("▶️ {key} 比赛继续。", "▶️ {key} resumes."),
    "no_table": ("{key} 没有进行中的牌桌。", "{key} has no table in play."),
    "finished": ("🏆 「{name}」全部比赛结束！\n{ranking}", "🏆 “{name}” is over!\n{ranking}"),
    # --- outputs
    "out.bracket": ("对阵表：\n{lines}", "Bracket:\n{lines}"),
    "out.standings": ("排名：\n{lines}", "Standings:\n{lines}"),
    "out.results": ("已完成比赛：\n{lines}", "Results:\n{lines}"),
    "out.no_results": ("还没有比赛结果。", "No results yet."),
    "out.no_draw": ("还没有抽签。", "The draw has not been held yet."),
    "out.ranking_line": ("{place}. {name}{prize}", "{place}. {name}{prize}"),
    "out.group": ("{group} 组：", "Group {group}:"),
    "out.bye": ("轮空", "bye"),
    "out.tbd": ("待定", "TBD"),
    "out.export": ("比赛数据导出", "Tournament export"),
    "audit.title": ("操作记录（最近 {n} 条）：\n{lines}", "Audit log (last {n}):\n{lines}"),
    "audit.bot": ("系统", "bot"),
    "role.done": ("已{op}：{user} → {role}", "{op}: {user} → {role}"),
    "role.added": ("添加", "Added"),
    "role.removed": ("移除", "Removed"),
    "role.usage": (
        "/role [#编号] add|remove organiser|referee|chief_referee|leader @用户名 [单位]",
        "/role [#id] add|remove organiser|referee|chief_referee|leader @username [union group]",
    ),
    "referee.notice": ("裁判通知：{text}", "Referee notice: {text}"),
    "prize.champion": ("优胜奖", "Champion"),
    "prize.first": ("一等奖", "First prize"),
    "prize.second": ("二等奖", "Second prize"),
    "prize.third": ("三等奖", "Third prize"),
    "prize.souvenir": ("纪念奖", "Souvenir"),
    "prize.representative": ("代表参加学院比赛", "Goes on to the next level"),
    "prize.none": ("无", "none"),
    "prizes.by_round": (
        "按淘汰轮次：{rounds}；冠军：{champion}",
        "by the round eliminated: {rounds}; champion: {champion}",
    ),
    "prizes.places": (
        "一等奖 {a} 个、二等奖 {b} 个、三等奖 {c} 个",
        "{a} first, {b} second, {c} third prizes",
    ),
    # --- errors (RuleError codes)
    "err.no_tournament": (
        "找不到比赛。请在私聊中用 /tournament 创建，或在命令后写比赛编号，如 #3。",
        "No tournament found. Create one with /tournament in a private chat, or give its number, e.g. #3.",
    ),
    "err.not_allowed": ("你没有权限执行此操作。", "You are not allowed to do this."),
    "err.already_registered": ("你已经报名了。", "You are already registered."),
    "err.deadline_passed": ("报名已截止。", "The registration deadline has passed."),
    "err.registration_closed": ("报名已关闭（名单已冻结）。", "Registration is closed (the list is frozen)."),
    "err.quota_full": ("{group} 的名额（{quota}）已满。", "The quota of {group} ({quota}) is full."),
    "err.partner_is_self": ("不能邀请自己做搭档。", "You cannot be your own partner."),
    "err.partner_already_paired": (
        "该队员已在本比赛的另一对中。",
        "That player is already in a pair in this tournament.",
    ),
    "err.invite_expired": (
        "邀请已过期，请让对方重新生成。",
        "The invitation has expired; ask for a new one.",
    ),
    "err.invite_accepted_already": (
        "你已接受过这个邀请，搭档：{pair}。",
        "You have already accepted this invitation: {pair}.",
    ),
    "err.busy": ("同时有多项操作，请再试一次。", "Many changes at once; please try again."),
    "err.not_in_match": ("该队员不在 {match} 中。", "That player does not play in match {match}."),
    "err.already_in_match": ("该队员已在 {match} 中。", "That player already plays in match {match}."),
    "err.table_over": ("{match} 第 {table} 桌已经结束。", "Table {table} of {match} is over."),
    "err.substitute_busy": (
        "{name} 正在另一张牌桌就座，不能做替补。",
        "{name} is seated at another table now and cannot substitute.",
    ),
    "err.unknown_table": ("{match} 只有第 1 到 {count} 桌。", "Match {match} has tables 1 to {count}."),
    "err.lateness_decided": ("{match} 的迟到已经判定。", "The lateness of match {match} has been decided."),
    "err.third_place_needs_semifinals": (
        "三四名决赛需要 4 队（对）以上的淘汰赛；{size} 强淘汰赛没有半决赛负者。请选择不设三四名决赛，或更大的淘汰赛。",
        "A 3rd-place match needs a knockout of 4 or more; a knockout of {size} has no semi-final losers. Choose no 3rd-place match, or a larger knockout.",
    ),
    "err.duplicate_needs_pairs_of_tables": (
        "团体赛的复式（duplicate = true）每队对数须为双数（2、4……）：同一场的两桌一组打同样的牌。本比赛每场 {tables} 桌。",
        "duplicate = true for team matches needs an even number of pairs per team (2, 4 ...): the tables play the same deals two by two. This tournament has {tables} table(s) per match.",
    ),
    "err.duplicate_pairs_need_swiss": (
        '固定搭档的复式（duplicate = true）只用于积分编排（format = "swiss"）：同一轮的两场比赛一组打同样的牌。固定搭档的淘汰赛、小组赛照常发牌：请改为积分编排（引导设置：在“赛制”一步按“积分编排 · 复式”），或去掉 duplicate。',
        'duplicate = true for pairs needs Swiss rounds (format = "swiss"): two matches of a round play the same deals. A knockout or groups of pairs deals as usual: choose Swiss rounds (guided set-up: "Swiss rounds · duplicate" at the format step), or leave duplicate out.',
    ),
    "err.not_your_invite": ("这个邀请是发给别人的。", "This invitation is for someone else."),
    "err.team_incomplete": (
        "{team} 只有 {have} 对，需要 {need} 对：请单位负责人用 /team 补齐，或退出该队。",
        "{team} has {have} pairs of {need}: its leader completes it with /team, or withdraws it.",
    ),
    "err.invite_used": ("邀请已被使用。", "The invitation has already been used."),
    "err.invite_unknown": ("邀请链接无效。", "The invitation link is not valid."),
    "err.partner_not_started": (
        "{name} 还没有私聊机器人发送 /start，请先让对方打开机器人。",
        "{name} has not started the bot yet; ask them to open it first.",
    ),
    "err.unknown_union_group": (
        "没有单位 {group}；可选：{allowed}",
        "There is no union group {group}; choose: {allowed}",
    ),
    "err.tournament_not_found": ("没有编号为 {id} 的比赛。", "There is no tournament {id}."),
    "err.unknown_entry": ("没有参赛者 {id}。", "There is no entry {id}."),
    "err.unknown_match": ("没有场次 {match}。", "There is no match {match}."),
    "err.not_your_match": ("你不在场次 {match} 中。", "You do not play in match {match}."),
    "err.checkin_not_open": ("签到尚未开始，{time} 开放。", "Check-in opens at {time}."),
    "err.checkin_closed": ("{match} 签到已结束。", "Check-in for {match} is closed."),
    "err.reason_required": ("请写明理由。", "Give a reason."),
    "err.nothing_to_undo": ("{match} 没有迟到判负可撤销。", "Match {match} had no lateness forfeit."),
    "err.already_undone": ("{match} 的判负已撤销过。", "The forfeit of {match} was already undone."),
    "err.draw_already_held": ("「{name}」已经抽过签。", "The draw of {name} has already been held."),
    "err.too_few_entries": (
        "至少需要 2 个参赛者，目前 {count} 个。",
        "At least 2 entries are needed; there are {count}.",
    ),
    "err.not_enough_tables": (
        "每场需要 {need} 个桌群，目前只有 {have} 个",
        "a match needs {need} table groups; the pool has {have}",
    ),
    "err.bad_time": (
        "时间格式不对：{value}（如 2026-12-01 18:00）",
        "Not a time: {value} (write 2026-12-01 18:00)",
    ),
    "err.times_out_of_order": (
        "时间顺序不对：报名截止 ≤ 抽签 ≤ 第一轮开赛。",
        "The times are out of order: registration deadline ≤ draw ≤ first round.",
    ),
    "err.bad_time_zone": ("未知时区 {zone}", "Unknown time zone {zone}"),
    "err.bad_toml": ("不是有效的 TOML：{reason}", "Not valid TOML: {reason}"),
    "err.unknown_spec_key": ("未知设置项 {key}；可用：{allowed}", "Unknown key {key}; keys: {allowed}"),
    "err.missing_spec_key": ("缺少 {key}", "{key} is missing"),
    "err.bad_spec_value": ("{key} 的值不对", "{key} has a wrong value"),
    "err.wrong_team_size": (
        "{entry} 有 {count} 名队员，需要 {size} 名。",
        "{entry} has {count} players; it needs {size}.",
    ),
    "err.pair_in_team": ("{entry} 已经在一个队里。", "Pair {entry} is already in a team."),
    "err.mixed_union_groups": ("一个队的搭档必须来自同一单位。", "A team's pairs come from one union group."),
    "err.not_a_team_event": ("本比赛是对子赛，不组队。", "This tournament is for pairs."),
    "err.bad_side": ("请写 a 或 b（both：双方）。", "Write a or b (both: both sides)."),
    "err.levels_against_winner": (
        "级数与胜方不符：{side} 方胜，级数却是 {la}:{lb}（a 方:b 方）。请核对后重发，未作更改。",
        "The levels contradict the winner: side {side} wins but the levels are {la}:{lb} (side a : side b). Check and send again; nothing was changed.",
    ),
    "err.knockout_needs_winner": ("淘汰赛必须有胜者。", "A knockout match needs a winner."),
    "err.no_result_to_correct": ("{match} 还没有结果。", "Match {match} has no result yet."),
    "err.result_already_recorded": (
        "{match} 已有结果，请用更正。",
        "Match {match} already has a result; correct it.",
    ),
    "err.match_not_ready": ("{match} 现在不能登记结果。", "Match {match} cannot take a result now."),
    "err.correction_conflict": ("后续比赛已开始：{matches}", "Later matches have begun: {matches}"),
    "err.unknown_record": ("没有处罚记录 {id}。", "There is no penalty record {id}."),
    "err.already_reversed": ("处罚 {id} 已撤销。", "Penalty {id} is already reversed."),
    "err.bad_role": ("没有角色 {role}；可选：{allowed}", "Role {role} does not exist; roles: {allowed}"),
    "err.cannot_remove_creator": ("创建者始终是组织者。", "The creator stays an organiser."),
    "err.not_in_entry": ("该队员不在 {entry} 中。", "That player is not in entry {entry}."),
    "err.no_draw_yet": ("还没有抽签。", "The draw has not been held yet."),
    "err.not_frozen": ("名单尚未冻结。", "The list is not frozen yet."),
    "err.bad_arguments": ("参数不对。", "Wrong arguments."),
}


def tt(lang: str, msg: str, /, **params: object) -> str:
    """The message ``msg`` in ``lang`` (zh | en) with ``params`` filled in."""
    pair = T.get(msg)
    if pair is None:
        return msg
    text = pair[1] if lang == "en" else pair[0]
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        return text


def error_text(lang: str, err: RuleError) -> str:
    """A RuleError in ``lang``: tournament codes here, game/option codes from the game catalogues."""
    key = "err." + err.code
    if key in T:
        return tt(lang, key, **err.params)
    return rule_error(lang, err)


def prize_label(lang: str, prize: str) -> str:
    return tt(lang, "prize." + prize) if prize and "prize." + prize in T else prize


def draw_refused_text(lang: str, err: RuleError, failed: bool) -> str:
    """Why a draw was not held: the list could not be frozen (``failed``), or ``err`` itself."""
    reason = error_text(lang, err)
    return tt(lang, "draw.failed", reason=reason) if failed else reason
