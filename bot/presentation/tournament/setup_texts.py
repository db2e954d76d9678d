"""Tournament messages, first half of the catalogue: generic words, the guided set-up, groups and tables,
registration and the draw (zh, en).  ``bot/presentation/tournament/texts.py`` joins it with the rest and
looks messages up (``tt``); nothing else reads this module."""

from __future__ import annotations

SETUP_TEXTS: dict[str, tuple[str, str]] = {
    # --- generic
    "not_allowed": ("你没有权限执行此操作。", "You are not allowed to do this."),
    "no_tournament": (
        "找不到比赛。请在私聊中用 /tournament 创建，或在命令后写比赛编号，如 #3。",
        "No tournament found. Create one with /tournament in a private chat, or give its number, e.g. #3.",
    ),
    "private_only": (
        "请在与机器人的私聊中使用此命令。",
        "Use this command in your private chat with the bot.",
    ),
    "group_only": ("请在群组中使用此命令。", "Use this command in a group."),
    "internal": ("出了点问题，请稍后再试。", "Something went wrong; please try again."),
    "done": ("已完成。", "Done."),
    "usage": ("用法：{usage}", "Usage: {usage}"),
    "unknown_user": (
        "找不到用户 {who}（对方需要先私聊机器人发送 /start）。",
        "Unknown user {who} (they must send /start to the bot first).",
    ),
    "help": (
        "比赛命令（详见 docs/organiser-guide.md）：\n"
        "组织者：/tournament 创建（或发送 TOML 文件）、/tournament_group、/table_register、/role、/register、/remove、/replace、/entries、/close_registration、/draw、/edit、/reschedule、/swap、/move_table、/cancel_tournament、/delete_tournament、/dashboard、/end_swiss（积分编排在本轮结束）、/public_page on|off（公开页面）、/page_settings（牌桌页面的提示与观看）、/season_new /season_add /season_remove（赛季）\n"
        "单位负责人：/team\n"
        "裁判：/result、/forfeit、/undo_forfeit、/violation、/reverse、/start_match、/pause、/resume、/substitute、/extend、/audit、/export\n"
        "选手：报名按钮、/withdraw、签到按钮、/me（我的战绩与等级分）\n"
        "所有人：/season（赛季积分榜）、/seasons（赛季列表）\n"
        "所有人：/bracket、/standings、/schedule、/results\n"
        "私聊中可在命令后写 #编号 指定比赛。",
        "Tournament commands (see docs/organiser-guide.md):\n"
        "Organisers: /tournament to create (or send a TOML file), /tournament_group, /table_register, /role, /register, /remove, /replace, /entries, /close_registration, /draw, /edit, /reschedule, /swap, /move_table, /cancel_tournament, /delete_tournament, /dashboard, /end_swiss (end the Swiss rounds after this round), /public_page on|off, /page_settings (the table page's hints and watching), /season_new /season_add /season_remove (seasons)\n"
        "Union group leaders: /team\n"
        "Referees: /result, /forfeit, /undo_forfeit, /violation, /reverse, /start_match, /pause, /resume, /substitute, /extend, /audit, /export\n"
        "Players: the Register button, /withdraw, the Check in button, /me (my record and ratings)\n"
        "Everyone: /season (the season table), /seasons (the seasons)\n"
        "Everyone: /bracket, /standings, /schedule, /results\n"
        "In a private chat, put #<id> after a command to name the tournament.",
    ),
    # --- set-up
    "setup.admin_only": (
        "只有机器人管理员（BOT_ADMIN_IDS）可以创建比赛。",
        "Only the bot's admins (BOT_ADMIN_IDS) may create tournaments.",
    ),
    "setup.keep": ("保留默认", "Keep the default"),
    "setup.create": ("✅ 创建比赛", "✅ Create"),
    "setup.cancelled": ("已放弃创建比赛。", "Tournament set-up cancelled."),
    "setup.created": (
        "比赛 #{id}「{name}」已创建，报名已开放。\n下一步：\n1. 把机器人加入比赛通知群，在群里发送 /tournament_group {id}\n2. 把机器人加入每个比赛桌群，在群里发送 /table_register {id}\n3. 可用 /role {id} add referee @用户名 添加裁判。",
        "Tournament #{id} “{name}” is created and registration is open.\nNext:\n1. Add the bot to the tournament group and send /tournament_group {id} there\n2. Add the bot to each table group and send /table_register {id} there\n3. Add referees with /role {id} add referee @username.",
    ),
    "setup.deals": ("{n} 副", "{n} deals"),
    "setup.minutes": ("{n} 分钟", "{n} minutes"),
    "setup.summary": (
        "名称：{name}\n规程：{preset}\n参赛形式：{entrant}\n单位与名额：{groups}\n报名截止：{deadline}\n抽签：{draw}\n第一轮：{first}\n赛制：{format}\n每场：{length}\n迟到判负：{late} 分钟\n时区：{tz}",
        "Name: {name}\nRules: {preset}\nEntrants: {entrant}\nUnion groups and quotas: {groups}\nRegistration deadline: {deadline}\nDraw: {draw}\nFirst round: {first}\nFormat: {format}\nMatch length: {length}\nLateness limit: {late} minutes\nTime zone: {tz}",
    ),
    # guided set-up questions (bot/edge/tournament/setup.py; {step} is "第 3/14 步：")
    "setup.step": ("第 {i}/{n} 步：", "Step {i}/{n}: "),
    "setup.try_again": (
        "⚠️ {error}\n未作更改，请重新回答。\n\n{question}",
        "⚠️ {error}\nNothing was changed; please answer again.\n\n{question}",
    ),
    "setup.q.name": (
        "创建比赛（随时发送 /cancel 放弃）。\n{step}比赛名称？",
        "New tournament (send /cancel to give up at any time).\n{step}the tournament's name?",
    ),
    "setup.q.preset": (
        "{step}选择比赛规程（四个通知之一）：",
        "{step}choose the rules (one of the four notices):",
    ),
    "setup.q.options": (
        "{step}规则选项。「{preset}」的规则已按通知设好。如需修改，发送“选项 = 值”，每行一个，例如：\nthrows = false\n已修改：{changed}\n可改的选项：{keys}\n不改请按按钮。",
        "{step}rule options. “{preset}” is set up as its notice says. To change an option, send “option = value”, one per line, e.g.:\nthrows = false\nChanged: {changed}\nOptions: {keys}\nPress the button to keep them.",
    ),
    "setup.q.entrant": (
        "{step}参赛形式。规程默认：{default}。请按按钮选择，或发送每队的对数（如 3；1 = 固定搭档）。团体赛可打复式：每场第 1、2 桌（第 3、4 桌……）打同样的牌、两队交换方位，逐副比较级数，运气抵消；每队对数须为双数，发送如 2 复式。",
        "{step}who enters? The preset says: {default}. Press a button, or send the number of pairs per team (e.g. 3; 1 = pairs). Teams may play duplicate deals: tables 1 and 2 (3 and 4 ...) of a match play the same deals with the sides swapped and each deal's levels are compared, so the luck of the cards cancels out; an even number of pairs, e.g. send 2 duplicate.",
    ),
    "setup.q.tz": (
        "{step}时区。现为 {tz}（默认 Asia/Shanghai，北京时间）。按按钮保留，或发送时区名（如 Asia/Hong_Kong）。",
        "{step}time zone. Now {tz} (default Asia/Shanghai, Beijing time). Press the button to keep it, or send a zone name (e.g. Asia/Hong_Kong).",
    ),
    "setup.q.groups": (
        "{step}参赛单位（工会小组）和名额（每单位可报的{unit}数），用逗号分隔，如：机关 2，理学院 2，医学院 2\n不写名额则为 {quota}。不分单位请发 -",
        "{step}union groups and quotas (how many {unit} each may enter), comma-separated, e.g.: Admin 2, Science 2, Medicine 2\nWithout a number the quota is {quota}. Send - for none.",
    ),
    "setup.no_quota": ("不限", "unlimited"),
    "setup.q.deadline": (
        "{step}报名截止时间（{tz}），如 2026-12-01 18:00",
        "{step}registration deadline ({tz}), e.g. 2026-12-01 18:00",
    ),
    "setup.q.draw": (
        "{step}抽签时间（{tz}），如 2026-12-02 12:00",
        "{step}draw time ({tz}), e.g. 2026-12-02 12:00",
    ),
    "setup.q.first": (
        "{step}第一轮开赛时间（{tz}），如 2026-12-03 14:00",
        "{step}first round start ({tz}), e.g. 2026-12-03 14:00",
    ),
    "setup.q.format": (
        "{step}赛制。规程默认：{default}。请按按钮选择：",
        "{step}format. The preset says: {default}. Press a button:",
    ),
    "setup.format.se": ("单败淘汰", "Single elimination"),
    "setup.format.se3": ("单败淘汰 + 三四名决赛", "Single elimination + 3rd-place match"),
    "setup.format.gk": ("小组循环后淘汰", "Groups, then knockout"),
    "setup.format.gk3": ("小组循环后淘汰 + 三四名决赛", "Groups, then knockout + 3rd-place match"),
    "setup.format.sw": ("积分编排（瑞士制）", "Swiss rounds"),
    "setup.format.swd": (
        "积分编排 · 复式：每轮两场一组打同样的牌",
        "Swiss rounds · duplicate: two matches of a round play the same deals",
    ),
    "setup.swiss_of": ("，共 {n} 轮", ", {n} rounds"),
    "setup.swiss_no_top": ("，不设淘汰赛", ", no knockout"),
    "setup.swiss_none": ("不设淘汰赛", "No knockout"),
    "setup.q.swiss_rounds": (
        "{step}积分编排的轮数（每轮所有队伍都比赛，按积分配对，不重复交手）。现为 {n}。按按钮或发送数字。",
        "{step}how many Swiss rounds (everybody plays every round, paired by score, never the same opponent twice)? Now {n}. Press a button or send a number.",
    ),
    "setup.q.swiss_top": (
        "{step}积分编排结束后，前几名进行淘汰赛？（0 = 不设；或 2 的幂：2、4、8……，4 名以上有三四名决赛）。现为 {n}。",
        "{step}after the Swiss rounds, how many of the top go on to a knockout? (0 = none, or a power of two: 2, 4, 8 ...; 4 or more play a 3rd-place match.) Now {n}.",
    ),
    "setup.knockout_of": ("（{n} 强进入淘汰赛）", " ({n} go on to the knockout)"),
    "setup.with_third": ("，有三四名决赛", ", with a 3rd-place match"),
    "setup.without_third": ("，无三四名决赛", ", no 3rd-place match"),
    "setup.q.knockout": (
        "{step}小组赛后进入淘汰赛的数量（2 的幂：2、4、8、16……）。现为 {n}。按按钮或发送数字。",
        "{step}how many go on from the groups to the knockout (a power of two: 2, 4, 8, 16 ...)? Now {n}. Press a button or send a number.",
    ),
    "setup.q.length": (
        "{step}每场比赛长度。规程默认：{default}。\n按按钮保留默认，或发送“17副”/“50分钟”。",
        "{step}match length. The preset says: {default}.\nPress the button to keep it, or send “17 deals” / “50 minutes”.",
    ),
    "setup.q.late": (
        "{step}迟到判负时间。规程默认：{minutes} 分钟。按按钮保留，或发送分钟数。",
        "{step}lateness limit. The preset says {minutes} minutes. Press the button to keep it, or send a number of minutes.",
    ),
    "setup.q.gap": (
        "{step}两场比赛之间至少间隔多少分钟（后面几轮在上一场实际结束后再隔这么久开赛）？目前：{minutes} 分钟。按按钮保留，或发送分钟数。",
        "{step}the gap between matches: later rounds start this many minutes after the previous match really ended. Now: {minutes} minutes. Press the button to keep it, or send a number of minutes.",
    ),
    "setup.q.prizes": (
        "{step}奖项。规程默认：{default}。请按按钮选择：",
        "{step}prize table. The preset says: {default}. Press a button:",
    ),
    "setup.prizes.places": ("按名次：一、二、三等奖", "By place: first, second, third prizes"),
    "setup.prizes.rounds": ("按淘汰轮次", "By the round eliminated"),
    "setup.prizes.none": ("不设奖项", "No prizes"),
    "setup.q.prize_counts": (
        "{step}一、二、三等奖各几个？发送三个数，如 1 2 3。所有其他参赛者都发纪念奖请加“+纪念奖”，如 1 2 3 +纪念奖。",
        "{step}how many first, second and third prizes? Send three numbers, e.g. 1 2 3. Add “+souvenir” if everybody else gets a souvenir: 1 2 3 +souvenir.",
    ),
    "setup.q.prize_rounds": (
        "{step}按轮次顺序写每轮被淘汰者的奖项（最后一项是决赛负者），再写冠军的奖项，用空格或逗号分隔，如：\n纪念奖 三等奖 二等奖 一等奖 优胜奖",
        "{step}the prize of the losers of each round in order (the last is the final's loser), then the champion's, separated by spaces or commas, e.g.:\nsouvenir third second first champion",
    ),
    "setup.q.confirm": (
        "请确认：\n{summary}\n{extra}\n\n奖项：{prizes}\n（提醒、签到等其他设置可用 TOML 文件修改，见 docs/organiser-guide.md）",
        "Please confirm:\n{summary}\n{extra}\n\nPrizes: {prizes}\n(reminders, check-in and other settings can be changed with a TOML file, see docs/organiser-guide.md)",
    ),
    "setup.confirm_format": ("赛制详情：{format}", "Format details: {format}"),
    "setup.confirm_rules": ("规则修改：{rules}", "Rule changes: {rules}"),
    "setup.confirm_duplicate_pairs": (
        "复式：每轮第 1、2 场（第 3、4 场……）打同样的牌、交换方位，按同牌级数差比较，两场一起定胜负",
        "Duplicate: matches 1 and 2 (3 and 4 ...) of each round play the same deals with the sides swapped and are decided together, deal by deal",
    ),
    "setup.confirm_duplicate": (
        "复式：每场两桌一组打同样的牌，按同牌级数差比较",
        "Duplicate: the tables of a match play the same deals two by two, compared deal by deal",
    ),
    "err.bad_quota": (
        "名额必须是整数：{part}（如 机关 2）",
        "A quota must be a whole number: {part} (e.g. Admin 2)",
    ),
    "err.duplicate_union_group": ("单位 {group} 写了两次。", "The union group {group} is given twice."),
    "err.bad_option_line": ("请每行写一个“选项 = 值”：{line}", "Write one “option = value” per line: {line}"),
    "err.bad_pairs_per_team": (
        "请发送每队的对数（1 到 8，1 = 固定搭档）。",
        "Send the number of pairs per team (1 to 8; 1 = pairs).",
    ),
    "err.bad_swiss_rounds": (
        "轮数必须是 1 到 {max} 的整数。",
        "The number of rounds is a whole number from 1 to {max}.",
    ),
    "err.bad_swiss_top": (
        "积分编排后的淘汰赛人数必须是 0（不设）或 2 的幂：2、4、8……",
        "The knockout after the Swiss is 0 (none) or a power of two: 2, 4, 8 ...",
    ),
    "err.swiss_cannot_pair": (
        "下一轮无法在不重复交手、不重复轮空的情况下编排（{entries}）。请组织者用 /end_swiss 在本轮结束积分编排。",
        "The next round cannot be paired without a repeat or a second bye ({entries}). The organiser can end the Swiss rounds here with /end_swiss.",
    ),
    "err.swiss_top_too_big": (
        "前 {top} 名淘汰赛至少需要 {top} 个参赛队伍。",
        "A knockout of the top {top} needs at least {top} entries.",
    ),
    "err.swiss_too_big": ("{count} 个参赛队伍太多，无法编排。", "{count} entries are too many to pair."),
    "err.swiss_match_open": (
        "{entry} 的 {match} 尚未结束：这一场有结果后才能退赛（请先打完，或由裁判登记结果或弃权）。",
        "{entry} still has match {match} to finish: withdraw once it has a result (play it, or a referee records its result or forfeit).",
    ),
    "err.not_swiss": ("{name} 不是积分编排赛。", "{name} is not a Swiss tournament."),
    "err.already_withdrawn": ("该队伍已经退赛。", "That entry has already withdrawn."),
    "err.swiss_last_round": (
        "最后一轮已编排，不能再加入。",
        "The last Swiss round has been paired; no more entries.",
    ),
    "err.bad_knockout_size": (
        "淘汰赛数量必须是 2 的幂：2、4、8、16……",
        "The knockout size must be a power of two: 2, 4, 8, 16 ...",
    ),
    "err.bad_length": ("请写“17副”或“50分钟”。", "Write “17 deals” or “50 minutes”."),
    "err.bad_minutes": (
        "请发送分钟数（1 到 {max} 的整数）。",
        "Send a number of minutes (a whole number from 1 to {max}).",
    ),
    "err.bad_prize_counts": ("请发送三个整数，如 1 2 3。", "Send three whole numbers, e.g. 1 2 3."),
    "err.bad_round_prizes": (
        "请至少写两项：决赛负者的奖项和冠军的奖项。",
        "Write at least two prizes: the final's loser's and the champion's.",
    ),
    "err.use_buttons": ("请按上面的按钮选择。", "Press one of the buttons."),
    "entrant.pair": ("固定搭档（两人一对）", "fixed pairs"),
    "entrant.team": ("团体（每队 {n} 对，同一单位）", "teams of {n} pairs from one union group"),
    "entrant.team_duplicate": (
        "团体（每队 {n} 对）· 复式：两桌同牌",
        "teams of {n} pairs · duplicate: both tables play the same deals",
    ),
    "format.single_elimination": ("单败淘汰", "single elimination"),
    "format.groups_then_knockout": ("小组循环后淘汰", "round-robin groups, then knockout"),
    "format.swiss": ("积分编排（瑞士制）", "Swiss rounds"),
    "toml.created": (
        "已从文件创建比赛 #{id}「{name}」。",
        "Tournament #{id} “{name}” created from the file.",
    ),
    "toml.error": ("文件有误，比赛未创建：{reason}", "The file has a problem; nothing was created: {reason}"),
    # --- groups and tables
    "group.linked": (
        "本群已设为比赛 #{id}「{name}」的通知群。",
        "This group is now the tournament group of #{id} “{name}”.",
    ),
    "table.registered": (
        "本群已加入比赛 #{id} 的比赛桌（共 {count} 个桌群）。",
        "This group is now a table group of #{id} ({count} table groups).",
    ),
    # --- registration
    "reg.announce": (
        "📣 {name} 开始报名！\n规程：{preset}\n参赛形式：{entrant}\n报名截止：{deadline}\n抽签：{draw}\n抽签密钥承诺（SHA-256，抽签时公开密钥，可复核）：{commitment}\n点击下方按钮，在私聊中报名。",
        "📣 Registration for {name} is open!\nRules: {preset}\nEntrants: {entrant}\nDeadline: {deadline}\nDraw: {draw}\nDraw secret commitment (SHA-256; the secret is revealed at the draw, anyone can check): {commitment}\nPress the button to register in a private chat.",
    ),
    "reg.public": (
        "公开页面（对阵、排名和成绩，无需登录）：{link}",
        "Public page (pairings, standings and results, no login): {link}",
    ),
    "reg.button": ("报名", "Register"),
    "reg.choose_group": (
        "「{name}」报名：请选择你的单位（工会小组）：",
        "Registering for “{name}”: choose your union group:",
    ),
    "reg.invite": (
        "已为你生成搭档邀请（一次性，{hours} 小时内有效）。请把下面的链接发给你的搭档，对方接受后你们就报名成功：\n{link}",
        "Here is your one-time partner invitation (valid {hours} hours). Send this link to your partner; you are registered as a pair when they accept:\n{link}",
    ),
    "reg.invite_from": (
        "{inviter} 邀请你作为搭档参加「{name}」（单位：{group}）。",
        "{inviter} invites you to partner them in “{name}” (union group: {group}).",
    ),
    "reg.accept": ("接受邀请", "Accept"),
    "reg.paired": (
        "报名成功！{pair}（{group}）已登记为第 {id} 号参赛对。",
        "Registered! {pair} ({group}) is entry no. {id}.",
    ),
    "reg.partner_joined": (
        "{partner} 接受了你的邀请，你们已报名成功（第 {id} 号）。",
        "{partner} accepted your invitation; you are registered (entry no. {id}).",
    ),
    "reg.closed_note": (
        "「{name}」报名已截止，共 {count} 个参赛{unit}。抽签时间：{draw}。",
        "Registration for “{name}” is closed: {count} entries. Draw at {draw}.",
    ),
    "reg.withdrawn": ("已退出：{entry}", "Withdrawn: {entry}"),
    "public.on": (
        "公开页面已开启：机器人网址 {path}（无需登录，只有对阵、排名和赛果）。",
        "The public page is on: the bot's address {path} (no login; pairings, standings and results only).",
    ),
    "public.off": ("公开页面已关闭。", "The public page is off."),
    "season.usage": (
        "/season 编号 编号 …… [export]：所列比赛的赛季积分榜（加 export 发送 CSV 与 Excel 文件）",
        "/season <id> <id> ... [export]: the season table over those tournaments (export: CSV and Excel files)",
    ),
    "season.title": (
        "🏆 赛季积分榜（{names}）\n积分 = 每场胜2平1负0之和；同分看胜场、最好名次",
        "🏆 Season table ({names})\npoints = win 2, draw 1, loss 0 per match; level: matches won, best place",
    ),
    "season.players": ("选手：", "Players:"),
    "season.groups": ("单位：", "Union groups:"),
    "season.row": (
        "{rank}. {name}（{group}）{points}分 · {won}胜{drawn}平{lost}负 · {t}场比赛{best}",
        "{rank}. {name} ({group}) {points} pts · {won}-{drawn}-{lost} · {t} tournaments{best}",
    ),
    "season.group_row": (
        "{rank}. {name} {points}分 · {won}胜{drawn}平{lost}负{best}",
        "{rank}. {name} {points} pts · {won}-{drawn}-{lost}{best}",
    ),
    "season.best": (" · 最好第{place}名", " · best place {place}"),
    "season.more": ("……另有 {n} 人，见导出文件", "... {n} more in the export"),
    "me.title": ("📇 {name} 的战绩", "📇 {name}'s record"),
    "me.ratings": (
        "等级分（? = 定级中，少于 {n} 局）：{ratings}",
        "Ratings (? = provisional, under {n} games): {ratings}",
    ),
    "me.rating": ("{game} {rating}（{games} 局）", "{game} {rating} ({games} games)"),
    "me.no_rating": ("还没有计分的比赛", "no rated games yet"),
    "me.tournaments": ("比赛：", "Tournaments:"),
    "me.none": ("还没有参加过比赛。", "No tournaments yet."),
    "me.line": (
        "#{id} {name} · {entry} · {won}胜{lost}负{extra}",
        "#{id} {name} · {entry} · {won}-{lost}{extra}",
    ),
    "me.place": (" · 第{place}名", " · place {place}"),
    "me.running": ("（进行中）", " (running)"),
    "me.chart": ("{name} 的等级分", "{name}'s ratings"),
    "game.shengji": ("双升", "Shengji"),
    "game.guandan": ("掼蛋", "Guandan"),
    "swiss.withdrawn": (
        "{entry} 已退出积分编排：此后不再编排，已赛结果保留。",
        "{entry} has withdrawn from the Swiss: not paired again; its results stand.",
    ),
    "swiss.ended": ("积分编排在第 {round} 轮后结束。", "The Swiss rounds end after round {round}."),
    "swiss.stalled": (
        "⚠️ 第 {round} 轮后无法再编排（不重复交手、不重复轮空）。请用 /end_swiss 在此结束积分编排。",
        "⚠️ No round can be paired after round {round} without a repeat or a second bye. End the Swiss rounds here with /end_swiss.",
    ),
    "reg.replaced": ("已替换队员：{entry}", "Player replaced: {entry}"),
    "reg.team_formed": ("团队已组成：{team}（第 {id} 号）", "Team formed: {team} (entry no. {id})"),
    "reg.team_list": (
        "你所在单位的已报名搭档（组队：/team 队名 编号1 编号2 ...，每队 {n} 对）：\n{pairs}",
        "Registered pairs of your union group (form a team: /team name no1 no2 ..., {n} pairs per team):\n{pairs}",
    ),
    "reg.entries": ("参赛名单（{counts}）：\n{lines}", "Entries ({counts}):\n{lines}"),
    "reg.count_pairs": ("{n} 对", "{n} pairs"),
    "reg.count_teams": ("{n} 队", "{n} teams"),
    "unit.pair": ("对", "pairs"),
    "unit.team": ("队", "teams"),
    # --- draw
    "draw.frozen": (
        "🔒 「{name}」参赛名单已冻结（{count} 个）。\n名单 SHA-256：{list_hash}\n密钥承诺（密钥的 SHA-256，报名开始时已公布）：{commitment}\n现在开始抽签。",
        "🔒 The entry list of “{name}” is frozen ({count} entries).\nList SHA-256: {list_hash}\nCommitment (SHA-256 of the secret, published when registration opened): {commitment}\nThe draw follows now.",
    ),
    "draw.done": (
        "🎲 抽签完成。公开密钥：{secret}\n抽签种子：{seed}\n任何人都可以用 python -m bot.verify_draw draw.json 复核（见 docs/draw.md）。\n\n{bracket}",
        "🎲 The draw is made. Secret revealed: {secret}\nDraw seed: {seed}\nAnyone can check it with python -m bot.verify_draw draw.json (docs/draw.md).\n\n{bracket}",
    ),
    "draw.caption": ("抽签复核数据（JSON）", "Draw verification data (JSON)"),
    "draw.failed": ("抽签未能进行：{reason}", "The draw could not be made: {reason}"),
}
