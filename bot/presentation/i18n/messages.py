"""The source of the two .po catalogues: ``python -m bot.presentation.i18n.messages`` rewrites
``locale/*/LC_MESSAGES/bot.po`` from this table (msgid = key, msgstr = text).  Edit the .po
files directly or this table and regenerate; the bot reads the .po files at start-up."""

from __future__ import annotations

from bot.presentation.i18n.error_messages import ERRORS
from bot.presentation.i18n.page_messages import PAGE

# key: (中文, English)
UI: dict[str, tuple[str, str]] = {
    # start-up errors (bot/boot/startup.py): one line, no traceback
    "startup.no_token": (
        "没有设置 TELEGRAM_BOT_TOKEN:在 Telegram 里找 @BotFather(/newbot)申请一个令牌,再运行 TELEGRAM_BOT_TOKEN=<令牌> make run(没有令牌?先试 make demo)",
        "TELEGRAM_BOT_TOKEN is not set: talk to @BotFather in Telegram (/newbot), copy the token it gives you, then run: TELEGRAM_BOT_TOKEN=<token> make run   (no token? try `make demo`)",
    ),
    "startup.bad_token": (
        "Telegram 不接受这个 TELEGRAM_BOT_TOKEN({reason}):到 @BotFather 核对令牌(/token)或重新生成一个,再启动",
        "Telegram refused TELEGRAM_BOT_TOKEN ({reason}): check the token with @BotFather (/token) or make a new one, then start again",
    ),
    "startup.no_network": (
        "连不上 Telegram({url}:{reason}):请检查网络、代理或 TELEGRAM_API_BASE_URL,再启动",
        "Cannot reach Telegram at {url} ({reason}): check the network, the proxy or TELEGRAM_API_BASE_URL, then start again",
    ),
    "startup.no_database": (
        "连不上数据库 {where}({reason}):请检查 DATABASE_URL 的主机、端口、用户名和密码,以及数据库是否在运行",
        "Cannot reach the database {where} ({reason}): check the host, port, user and password in DATABASE_URL and that the database is running",
    ),
    "startup.no_font": (
        "找不到能显示中文的字体(对阵图要用):请安装 Python 包 noto-cjk-sans-otc(本项目的依赖,make install 会装上),或设置 BOT_CJK_FONT=含简体中文字形的字体文件(如 Noto Sans CJK SC)",
        "No font that draws Chinese was found (the bracket image needs one): install the Python package noto-cjk-sans-otc (a project dependency; make install brings it) or set BOT_CJK_FONT=/path/to/a/font with Simplified Chinese glyphs (e.g. Noto Sans CJK SC)",
    ),
    "startup.font_not_usable": (
        "BOT_CJK_FONT={path} 不是能显示中文的字体文件:请把它指向含简体中文字形的 .otf/.ttf/.ttc 字体(如 Noto Sans CJK SC),或去掉 BOT_CJK_FONT 以使用 Python 包 noto-cjk-sans-otc 的字体",
        "BOT_CJK_FONT={path} is not a font that draws Chinese: point it at an .otf/.ttf/.ttc font with Simplified Chinese glyphs (e.g. Noto Sans CJK SC), or unset BOT_CJK_FONT to use the font of the Python package noto-cjk-sans-otc",
    ),
    "cmd.start": ("开始 / 加入牌桌", "Start / join a table"),
    "cmd.help": ("帮助", "Help"),
    "cmd.newtable": (
        "在群里开一桌: /newtable <规则> [选项=值] [bots=N]",
        "Open a table in a group: /newtable <preset> [option=value] [bots=N]",
    ),
    "cmd.lang": (
        "切换语言 (中文/English); 在群里由管理员设置本群语言",
        "Language (中文/English); in a group, its admins set the group's",
    ),
    "cmd.leave": ("离开牌桌(开局前)", "Leave the table (before it starts)"),
    "cmd.stop": ("结束牌桌(开桌人)", "Stop the table (its creator)"),
    "help.text": (
        "🃏 双升 / 掼蛋 机器人\n"
        "• 群里: /newtable <规则> [选项=值 ...] [bots=N] 开一桌, 点「入座」坐下, 点「开始」开局(空位由电脑补上)。\n"
        "  例: /newtable shengji-17-deals deals=3 lead_clock=20 follow_clock=10\n"
        "• 私聊: 你的手牌消息随牌局更新; 点牌选中(✅), 再点「出牌」。也可以直接打字: ♥5 ♥5 / h5 h5 / 红桃5 红桃5 / 5h5h; 「不要」= 过。\n"
        "• /lang 切换语言, /leave 离座, /stop 结束牌桌(开桌人或群管理员); /review [第几副] 回顾一副牌, /replay 整场回放。",
        "🃏 Shengji / Guandan bot\n"
        "• In a group: /newtable <preset> [option=value ...] [bots=N] opens a table; press Join to sit, Start to play (empty seats get computer players).\n"
        "  e.g. /newtable shengji-17-deals deals=3 lead_clock=20 follow_clock=10\n"
        '• In this private chat: your hand message follows the game; tap cards to select (✅), then Play. Typing works too: ♥5 ♥5 / h5 h5 / 5h5h; "pass" passes.\n'
        "• /lang language, /leave leave your seat, /stop stop the table (its creator or a group admin); /review [deal] reviews a deal, /replay the whole match.",
    ),
    "help.presets": ("可用规则: {presets}", "Presets: {presets}"),
    "start.welcome": ("你好! 你已经可以接收手牌了。", "Hello! You can now receive your cards here."),
    "start.seated": (
        "✅ 你已入座 {seat} (牌桌 {table})。开局后手牌会发到这里。",
        "✅ You are seated at {seat} (table {table}). Your cards will arrive here when the game starts.",
    ),
    "resume.ok": ("继续打牌", "Resumed"),
    "start.ok": ("开局!", "Starting!"),
    "start.already": ("这桌已经开局了", "This table has started already"),
    "lang.set": ("语言: 中文", "Language: English"),
    "lang.group_set": ("本群语言: 中文", "This group's language: English"),
    "lang.choose": ("选择语言 / Choose a language", "Choose a language / 选择语言"),
    "newtable.usage": (
        "用法: /newtable <规则> [选项=值 ...] [bots=N]\n可用规则: {presets}",
        "Usage: /newtable <preset> [option=value ...] [bots=N]\nPresets: {presets}",
    ),
    "newtable.group_only": ("请在群里用 /newtable 开桌。", "Use /newtable in a group."),
    "newtable.exists": (
        "本群已有一桌进行中(牌桌 {table})。用 /stop 结束它。",
        "This group already has a table (table {table}). /stop ends it.",
    ),
    "lobby.title": ("🃏 {title} · 牌桌 {table}", "🃏 {title} · table {table}"),
    "lobby.empty": ("(空)", "(empty)"),
    "lobby.hint": (
        "点「入座」坐下; 坐好后点「开始」开局, 空位由电脑补上 (人齐也要点「开始」)。",
        "Press Join to sit, then Start to play; empty seats get computer players (a full table also waits for Start).",
    ),
    "name.computer": ("🤖 电脑", "🤖 Computer"),
    "name.computer_n": ("电脑{n}", "Bot{n}"),
    "btn.join": ("入座 {seat}", "Join {seat}"),
    "btn.start": ("▶️ 开始", "▶️ Start"),
    "btn.leave": ("离座", "Leave"),
    "btn.open_chat": ("打开私聊", "Open the private chat"),
    "btn.my_hand": ("🂠 我的手牌", "🂠 My hand"),
    "btn.play": ("出牌 ({n})", "Play ({n})"),
    "btn.play_as": ("出 {label}", "Play {label}"),
    "btn.clear": ("清除", "Clear"),
    "btn.bury": ("扣底 ({n}/8)", "Bury ({n}/8)"),
    "btn.bid": ("亮 {cards}", "Declare {cards}"),
    "btn.overturn": ("反 {cards}", "Overturn {cards}"),
    "btn.pass_bid": ("不亮", "No bid"),
    "btn.pass_overturn": ("不反", "No overturn"),
    "btn.pass": ("不要", "Pass"),
    "btn.tribute": ("进贡 ({n})", "Pay tribute ({n})"),
    "btn.return": ("还贡 ({n})", "Return ({n})"),
    "btn.resume": ("▶️ 继续", "▶️ Resume"),
    "btn.ask_counts": ("问张数", "Ask counts"),
    "btn.choose_pair": ("要他出对", "Make them play the pair"),
    "btn.choose_single": ("要他出单张", "Make them play the single"),
    "btn.choose_tractor": ("要他出拖拉机", "Make them play the tractor"),
    "join.ok": ("已入座 {seat}", "Seated at {seat}"),
    "join.need_start": (
        "请先打开与机器人的私聊并点「开始」, 才能入座(手牌要私发给你)。",
        "Open a private chat with the bot and press Start first: your cards are sent there.",
    ),
    "join.open_chat": (
        "{name}: 请先点下面的按钮打开私聊, 即可入座 {seat}。",
        "{name}: press the button below to open the private chat; you will be seated at {seat}.",
    ),
    "leave.ok": ("已离座", "You left your seat"),
    "table.deal_no": ("第 {n} 副", "deal {n}"),
    "table.playing_level": ("打 {level}", "level {level}"),
    "table.trump": ("主 {trump}", "trump {trump}"),
    "table.no_trump": ("无主", "no trump"),
    "table.dealer": ("庄", "dealer"),
    "table.levels": ("级数  {a} {la} · {b} {lb}", "Levels  {a} {la} · {b} {lb}"),
    "table.points": ("闲家得分 {n}", "Defenders {n} pts"),
    "table.dealing": ("发牌 {n}/{total}", "Dealing {n}/{total}"),
    "table.bid_window": ("发牌完毕 · 亮主/反主时间", "All cards dealt · last chance to declare"),
    "table.declared": ("亮主: {who} {cards}", "Declared: {who} {cards}"),
    "table.no_declaration": ("尚无人亮主", "No declaration yet"),
    "table.burying": (
        "庄家扣底中, 然后由庄家首先出牌",
        "The dealer is burying the kitty, then leads the first trick",
    ),
    "table.declaring": (
        "发牌 · 亮主/反主中 (各家手牌消息里可亮主)",
        "Dealing · declaring (in each player's hand message)",
    ),
    "table.trick": ("本轮", "Trick"),
    "table.last_trick": ("上轮", "Last trick"),
    "table.prev_trick": ("前一轮", "Trick before"),
    "table.paused": ("⏸ 牌桌暂停(多次无人亮主)。", "⏸ The table is paused (no declaration several times)."),
    "table.deal_over": ("本副结束", "Deal over"),
    "table.time_up": ("⏰ 比赛时间到: 打完本副结束", "⏰ Time is up: this is the last deal"),
    "table.time_up_stop": ("⏰ 比赛时间到", "⏰ Time is up"),
    "table.turn": ("轮到 {who} {what}", "{who} to {what}"),
    "table.until": ("(截止 {time})", "(until {time} China time)"),
    "table.stopped": ("牌桌 {table} 已结束。", "Table {table} was stopped."),
    "turn.bid": ("亮主", "declare"),
    "turn.kitty": ("扣底", "bury the kitty"),
    "turn.rebury": ("重新扣底", "re-bury the kitty"),
    "turn.lead": ("出牌", "lead"),
    "turn.follow": ("跟牌", "follow"),
    "turn.play": ("出牌", "play"),
    "turn.overturn": ("反主", "overturn"),
    "turn.choose": ("选择", "choose"),
    "turn.tribute": ("进贡", "pay tribute"),
    "turn.return": ("还贡", "return a card"),
    "hand.yours": ("你的牌 ({n}):", "Your cards ({n}):"),
    "hand.trump": ("主", "Trump"),
    "hand.you_are": ("你是 {seat}", "you are {seat}"),
    "hand.dealer_mark": ("(庄)", " (dealer)"),
    "hand.your_turn": ("轮到你", "Your turn"),
    "hand.kitty": ("你扣的底: {cards}", "Your kitty: {cards}"),
    "gd.pass": ("不要", "pass"),
    "gd.place1": ("头游", "1st"),
    "gd.place2": ("二游", "2nd"),
    "gd.place3": ("三游", "3rd"),
    "gd.place4": ("末游", "4th"),
    "gd.on_table": ("桌面: {who} {label}", "On the table: {who} {label}"),
    "gd.tribute_paid": ("已进贡: {list}", "Tribute paid: {list}"),
    "gd.phase_tribute": ("进贡中", "Tribute"),
    "gd.phase_return": ("还贡中", "Returning tribute"),
    "gd.my_return": ("还贡: {frm} → {to} {card}", "Returned: {frm} → {to} {card}"),
    "gd.hint_lead": ("轮到你出牌(首出)", "Your lead"),
    "gd.hint_play": ("轮到你: 管上或不要", "Your turn: beat it or pass"),
    "gd.hint_tribute": ("请进贡: 选一张最大的牌", "Pay tribute: select your highest card"),
    "gd.hint_return": ("请还贡: 选一张牌", "Return a card: select one"),
    "gd.counts": ("张数: {list}", "Counts: {list}"),
    "gd.more_than_10": (">10", ">10"),
    "note.timeout": (
        "⏱ {seat} {name} 超时, 自动出牌",
        "⏱ {seat} {name} ran out of time: played automatically",
    ),
    "note.autoplayed": ("⏱ 超时自动出牌: {list}", "⏱ Played automatically (out of time): {list}"),
    "note.timeout_forfeit": (
        "⏱ {seat} {name} 超时, 本副判负",
        "⏱ {seat} {name} ran out of time: the deal is forfeited",
    ),
    "note.cannot_dm": (
        "⚠️ 无法私信 {seat} {name}(未开始或已屏蔽机器人)。请点下面的按钮打开私聊。",
        "⚠️ Cannot message {seat} {name} privately (never started or blocked the bot). Press the button below to open the chat.",
    ),
    "ann.match_over": (
        "🏆 比赛结束 · {side} 获胜 · {a} {la} · {b} {lb} ({reason})",
        "🏆 Match over · {side} win · {a} {la} · {b} {lb} ({reason})",
    ),
    "ann.throw_failed": (
        "甩牌失败:{holder}有更大的 {beating},改出 {unit},罚 {penalty} 分",
        "Failed throw: {holder} holds higher {beating}; {unit} is played instead, {penalty} points charged",
    ),
    "ann.throw_failed_plain": (
        "甩牌失败: {who} {cards}, 罚 {penalty} 分",
        "Failed throw: {who} {cards}, penalty {penalty}",
    ),
    "ann.paused": (
        "⏸ 连续 {n} 次无人亮主, 牌桌暂停。",
        "⏸ {n} redeals in a row with no declaration: the table is paused.",
    ),
    "ann.redeal": ("无人亮主, 重新发牌。", "Nobody declared: redeal."),
    "ann.time_up": ("⏰ 比赛时间到: 打完本副结束。", "⏰ Time is up: the deal in progress is the last."),
    "ann.time_up_stop": ("⏰ 比赛时间到。", "⏰ Time is up."),
    "ann.deal_abandoned": (
        "⏰ 时间到, 第 {deal} 副停止, 不计结果。",
        "⏰ Time is up: deal {deal} stops and does not count.",
    ),
    "ann.counts": ("{who} 问张数: {list}", "{who} asked the counts: {list}"),
    "ann.blackout": ("停电: {side} 无人亮主。", "Blackout: {side} did not declare."),
    "ann.kitty_turned": ("翻底: {cards}", "Kitty turned: {cards}"),
    "reason.deals": ("打满副数", "all deals played"),
    "reason.time_up": ("时间到", "time up"),
    "reason.passed_a": ("过 A", "passed A"),
    "reason.a_rule": ("过 A", "passed A"),
    "reason.None": ("结束", "over"),
    "sum.sj_head": ("第 {deal} 副结束 · 闲家 {points} 分", "Deal {deal} over · defenders {points} pts"),
    "sum.sj_capture": ("(含抠底 {capture}, ×{mult})", " (kitty {capture}, ×{mult})"),
    "sum.sj_winner": ("{side} 升 {steps} 级", "{side} +{steps}"),
    "sum.sj_hold": ("{side} 保庄", "{side} keep the deal"),
    "sum.sj_takeover": ("{side} 上台", "{side} take the deal"),
    "sum.kitty": ("底牌: {cards}", "Kitty: {cards}"),
    "sum.levels": ("{a} {la} · {b} {lb}", "{a} {la} · {b} {lb}"),
    "sum.next_dealer": ("{who} 坐庄, 打 {level}", "{who} deals, level {level}"),
    "sum.gd_head": ("第 {deal} 副结束", "Deal {deal} over"),
    "sum.gd_gain": ("{side} 升 {gain} 级", "{side} +{gain}"),
    "typed.hint": (
        "打字出牌: ♥5 ♥5 / h5 h5 / 红桃5 红桃5 / 5h5h; 「不要」= 过。",
        'Type a play: ♥5 ♥5 / h5 h5 / 5h5h; "pass" passes.',
    ),
    "typed.no_match": (
        "你现在没有在打的牌局。在群里用 /newtable 开一桌。",
        "You are not playing now. Open a table in a group with /newtable.",
    ),
    "err.generic": ("不能这样做: {reason}", "Not allowed: {reason}"),
    "err.internal": ("出错了, 请再试一次。", "Something went wrong; please try again."),
    "err.stale": ("这个按钮已过期", "This button is out of date"),
    "err.stale_version": ("这个按钮已过期", "This button is out of date"),
    "err.busy": ("同时有太多更改，请稍后再试", "Too many changes at once; please try again"),
    "err.not_your_table": ("这不是你的牌桌", "This is not your seat"),
    "err.select_first": ("请先点选要出的牌", "Select cards first"),
    "err.card_played": (
        "这张牌已经出过了, 不在你手里",
        "You have played that card already: it is no longer in your hand",
    ),
    "tap.selected": ("已选 {cards}", "Selected: {cards}"),
    "tap.cleared": ("已清空", "Selection cleared"),
    "err.table_closed": ("这张牌桌不再接受入座", "This table no longer takes seats"),
    "err.cannot_leave": ("开局后不能离座", "You cannot leave once the game started"),
    "err.not_seated": ("你没有入座", "You have no seat here"),
    "err.no_table": ("本群没有牌桌。用 /newtable 开一桌。", "No table in this group. /newtable opens one."),
    "err.only_creator": ("只有开桌人可以结束牌桌", "Only the table's creator can stop it"),
    "err.only_admin": ("只有群管理员可以设置本群语言", "Only the group's admins can set its language"),
    "err.bad_link": ("链接无效", "This link is not valid"),
}


# issue 12 (fair deals, deal review, abuse limits, bad input): kept apart to merge cleanly
UI.update(
    {
        "review.heading": ("牌局回顾 · {title}", "Deal review · {title}"),
        "review.deal": ("第 {deal} 副", "Deal {deal}"),
        "review.in_progress": (
            "本副尚未结束 (仅裁判可见)",
            "This deal is still being played (referees only)",
        ),
        "review.redeals": (
            "本副重新发牌 {n} 次; 以下是最后一次发的牌",
            "Redealt {n} times; these are the cards of the last deal",
        ),
        "review.hands": ("起手牌", "Starting hands"),
        "review.kitty": ("底牌 (发牌时)", "Kitty (as dealt)"),
        "review.bids": ("亮主 / 反主", "Declarations / overturns"),
        "review.no_bids": ("无人亮主", "Nobody declared"),
        "review.overturn": ("反主", "overturn"),
        "review.trump": (
            "庄家 {dealer} · 打 {level} · 主 {trump}",
            "Dealer {dealer} · level {level} · trump {trump}",
        ),
        "review.buried": ("{who} 扣底", "{who} buried"),
        "review.tribute": ("进贡 / 还贡", "Tribute / return"),
        "review.tribute_paid": ("{who} 进贡", "{who} paid tribute"),
        "review.tribute_returned": ("{who} 还贡给 {to}", "{who} returned to {to}"),
        "review.tricks": ("每一轮出牌", "Every trick"),
        "review.trick_no": ("轮", "Trick"),
        "review.winner": ("赢家", "Winner"),
        "review.points": ("分", "Points"),
        "review.throw_failed": ("甩牌失败", "failed throw"),
        "review.result": ("计分与升级", "Scoring and level change"),
        "review.fairness": ("公平性核验", "Fairness check"),
        "review.f_commitment": ("发牌前公布的承诺", "Commitment published before the deal"),
        "review.f_deal_seed": ("本副种子 (发牌后公开)", "Deal seed (revealed after the deal)"),
        "review.f_mix": ("混入值", "Mixed-in value"),
        "review.f_verify": ("自行核验", "Check it yourself"),
        "opt.integer": ("整数", "an integer"),
        "opt.integer_range": ("整数 {lo}..{hi}", "an integer {lo}..{hi}"),
        "opt.unknown_preset": (
            "没有规则 {preset}; 可用规则: {presets}",
            "No preset {preset}; presets: {presets}",
        ),
        "opt.too_many": ("选项太多: 只看前 {n} 个", "Too many options: only the first {n} were read"),
        "opt.not_key_value": ("应写成 选项=值: {arg}", "Write option=value: {arg}"),
        "opt.bad_value": (
            "选项 {field}={value} 不允许; 可选: {allowed}",
            "Option {field}={value} is not allowed; allowed: {allowed}",
        ),
        "opt.unknown": ("没有选项 {fields}; 可用选项: {allowed}", "No option {fields}; options: {allowed}"),
        "opt.seed_admin_only": (
            "seed= 会让人预知所有牌: 只有机器人管理员可用, 或开练习桌 (加 practice=yes)",
            "seed= lets anyone who knows it see every hand: only bot admins may use it, or open a practice table (add practice=yes)",
        ),
        "opt.problems": ("有 {n} 处问题, 牌桌没有开:", "{n} problems, no table was opened:"),
        "lobby.practice": (
            "🧪 练习桌: 种子 {seed} 已公开, 每副牌都可预先算出 — 仅供练习",
            "🧪 Practice table: seed {seed} is public, every deal can be worked out in advance — for practice only",
        ),
        "lobby.fixed_seed": (
            "⚠️ 管理员固定了种子: 知道种子的人能算出每副牌",
            "⚠️ An admin fixed the seed: whoever knows it can work out every deal",
        ),
        "review.no_match": (
            "没有找到你的牌局: 在自己的私聊里用 /review 查看你坐过的牌桌, 或在牌桌所在的群里用",
            "No game of yours found: use /review in your private chat for tables you sat at, or in the table's group",
        ),
        "review.bad_deal": (
            "请写第几副, 例如 /review 3 (收到的是: {arg})",
            "Give the deal number, e.g. /review 3 (got: {arg})",
        ),
        "review.no_deal_yet": ("这局还没有发牌", "Nothing has been dealt yet"),
        "review.not_finished": (
            "这一副还没打完; 打完后可以回顾",
            "This deal is still being played; it can be reviewed once it is over",
        ),
        "review.no_such_deal": (
            "没有第 {deal} 副 (本局到第 {n} 副)",
            "There is no deal {deal} (this match is at deal {n})",
        ),
        "review.after_match": (
            "整场比赛结束后群里可以查看; 现在只有本桌的玩家可以查看 (会发到私聊)",
            "The group can see it once the whole match is over; until then only the table's players can (in private)",
        ),
        "review.not_seated": (
            "只有本桌的玩家 (或本赛事的裁判) 可以查看这一副",
            "Only the table's players (or the tournament's referees) can see this deal",
        ),
        "review.coach_title": (
            "教练点评 · 第 {deal} 副(只给你看; 电脑高手在你的位置、只看你当时能看到的牌):",
            "Coach · deal {deal} (for you only; the strong computer player in your seat, seeing only what you could see then):",
        ),
        "review.coach_line": (
            "• 你的第 {n} 手: 你出了 {played}, 电脑高手会出 {suggested}(估计少得 {cost} 级)",
            "• Your play {n}: you played {played}; the strong player would play {suggested} (about {cost} level steps given away)",
        ),
        "review.coach_none": (
            "教练点评 · 第 {deal} 副: 电脑高手没有找到明显更好的出法",
            "Coach · deal {deal}: the strong player found no clearly better play of yours",
        ),
        "review.coach_pass": ("过", "pass"),
        "review.sent_private": ("牌局回顾已发到你的私聊", "The deal review was sent to your private chat"),
        "review.caption_deal": (
            "牌局回顾 · {title} · 第 {deal} 副 (用浏览器打开)",
            "Deal review · {title} · deal {deal} (open it in a browser)",
        ),
        "review.caption_match": (
            "整场回放 · {title} (用浏览器打开)",
            "Match replay · {title} (open it in a browser)",
        ),
        "cmd.review": ("回顾一副牌", "Review a deal"),
        "cmd.replay": ("整场回放", "Replay the whole match"),
        "mix.usage": (
            "用法: /mix 任意文字 (比赛桌开局前, 入座的玩家可以混入自己的文字, 让开局种子不由主办方一方决定)",
            "Usage: /mix any words (before a tournament table starts, its seated players can mix in their own words so the organiser alone does not decide the seed)",
        ),
        "mix.added": ("已混入: {words}", "Mixed in: {words}"),
        "cmd.mix": ("比赛桌: 混入自己的文字", "Tournament table: mix in your own words"),
        "lobby.match_commitment": (
            "🔒 赛前承诺 {commitment} · 开局前入座玩家可用 /mix 混入文字 ({n} 条)",
            "🔒 Commitment {commitment} · before the start seated players can mix in words with /mix ({n} so far)",
        ),
        "table.commitment": ("🔒 本副承诺 {commitment}", "🔒 Deal commitment {commitment}"),
        "sum.reveal": (
            "🔑 种子 {seed} · salt {salt} (可用 /review 或 python -m bot.verify_deal 核验)",
            "🔑 Seed {seed} · salt {salt} (check with /review or python -m bot.verify_deal)",
        ),
        "sum.server_seed": (
            "🔑 赛前种子 {seed} (对照开局前的承诺, 可算出每副牌)",
            "🔑 Server seed {seed} (check it against the commitment shown before the start; it gives every deal)",
        ),
        "review.f_salt": ("salt (发牌后公开)", "Salt (revealed after the deal)"),
    }
)


# issue 21 (operations): alerts, members' data; kept apart to merge cleanly
UI.update(
    {
        # alerts to the bot's admins (bot/boot/alerts.py): at most one of each kind per 10 minutes
        "alert.rate_limited": (
            "⚠️ 运维提醒:Telegram 回了 {count} 次 429(请求过多),机器人已按要求等待。若反复出现,请减少同时进行的牌桌或检查多进程的共享限速(TELEGRAM_LIMITS_URL)。",
            "⚠️ Ops alert: Telegram answered 429 (Too Many Requests) {count} time(s); the bot waited as told. If it keeps happening, run fewer tables at once or check the shared limits of several processes (TELEGRAM_LIMITS_URL).",
        ),
        "alert.scheduler_late": (
            "⚠️ 运维提醒:计时器晚了 {seconds} 秒才触发({what})。机器人可能过载,或数据库很慢。",
            "⚠️ Ops alert: a timer fired {seconds} s late ({what}). The bot may be overloaded, or the database slow.",
        ),
        "alert.database": (
            "⚠️ 运维提醒:数据库出错({error})。机器人会自动重试;若持续,请检查数据库服务。",
            "⚠️ Ops alert: a database error ({error}). The bot retries by itself; if it goes on, check the database server.",
        ),
        "alert.redis": (
            "⚠️ 运维提醒:Redis 无法访问({error})。多进程之间的限速和实时更新受影响;请检查 Redis 服务。",
            "⚠️ Ops alert: Redis does not answer ({error}). Shared limits and live updates between processes are affected; check the Redis server.",
        ),
        "alert.outbox": (
            "⚠️ 运维提醒:待发消息积压 {queued} 条,超过上限 {bound}。Telegram 可能很慢或在限速。",
            "⚠️ Ops alert: {queued} messages are waiting to be sent, over the bound of {bound}. Telegram may be slow or limiting the bot.",
        ),
    }
)


# Members' data (issue 21): /privacy, /mydata, /forget (bot/edge/privacy.py)
UI.update(
    {
        "cmd.privacy": ("本机器人保存哪些数据", "What this bot keeps about you"),
        "cmd.mydata": ("把我的数据发给我(文件)", "Send me my data (a file)"),
        "cmd.forget": ("删除我的个人数据", "Delete my personal data"),
        "privacy.text": (
            "🔒 隐私说明\n"
            "本机器人保存:\n"
            "• 你的 Telegram 账号 id、名字、用户名、语言 —— 用来在牌桌和比赛中显示你、用你的语言回复你;\n"
            "• 你坐过的牌桌和座位、你在对局中的每个动作 —— 用来继续、复盘和核对牌局;\n"
            "• 比赛报名和成绩、积分 —— 用来编排比赛、公布名次、按积分排种子。\n"
            "保存期限: {retention} 比赛记录长期保存(赛果需要可核对)。\n"
            "查看: 私聊发送 /mydata, 机器人把你的全部数据发给你(JSON 文件)。\n"
            "删除: 私聊发送 /forget, 确认后删除你的名字、用户名和语言; 比赛记录里你会显示为匿名的「已注销玩家 #n」。"
            "正在牌桌上或报名的比赛还没结束时不能删除。",
            "🔒 Privacy\n"
            "This bot keeps:\n"
            "• your Telegram id, names, username and language, to show you at tables and in tournaments and to answer in your language;\n"
            "• the tables and seats you played and every action you made in a match, to continue, review and check deals;\n"
            "• your tournament entries and results, and your ratings, to run tournaments, publish standings and seed by rating.\n"
            "How long: {retention} Tournament records are kept (results must stay checkable).\n"
            "See it: send /mydata in a private chat and the bot sends you all of it (a JSON file).\n"
            "Delete it: send /forget in a private chat; once you confirm, your names, username and language are removed and "
            'tournament records show an anonymous "Deleted player #n" instead. Not while you sit at a live table or are '
            "registered in a tournament that has not ended.",
        ),
        "privacy.retention_keep": (
            "普通牌局在结束后保留(未设置自动删除)。",
            "casual matches are kept once finished (no automatic deletion is set).",
        ),
        "privacy.retention_days": (
            "普通牌局结束 {days} 天后自动删除。",
            "casual matches are deleted {days} days after they finish.",
        ),
        "privacy.private_only": (
            "请在与机器人的私聊中使用 {command}。",
            "Please use {command} in your private chat with the bot.",
        ),
        "privacy.mydata_caption": (
            "你的数据(本机器人保存的关于你的全部内容)。",
            "Your data (everything this bot keeps about you).",
        ),
        "privacy.forget_confirm": (
            "确定删除你的个人数据吗? 你的名字、用户名和语言会被删除, 比赛记录中你将显示为匿名玩家。此操作不能撤销。",
            "Delete your personal data? Your names, username and language are removed and tournament records show an "
            "anonymous player instead. This cannot be undone.",
        ),
        "privacy.forget_yes": ("确认删除", "Yes, delete"),
        "privacy.forget_no": ("取消", "Cancel"),
        "privacy.forget_kept": ("已取消, 你的数据没有改动。", "Cancelled: your data is unchanged."),
        "privacy.forget_expired": (
            "确认已过期, 请重新发送 /forget。",
            "This confirmation has expired; send /forget again.",
        ),
        "privacy.forgotten": (
            "你的个人数据已删除。如果你再次使用机器人, 它只会保存 Telegram 届时发送的信息, 作为新用户。",
            "Your personal data has been deleted. If you use the bot again, it stores only what Telegram sends then, as a new user.",
        ),
        "privacy.refused_table": (
            "现在不能删除: 你正坐在第 {ref} 桌(牌桌还没结束)。请先离开或打完这一桌。",
            "Not now: you are seated at table {ref}, which has not ended. Leave it or finish it first.",
        ),
        "privacy.refused_tournament": (
            "现在不能删除: 你报名了还没结束的比赛「{ref}」。比赛结束(或退赛)后再试。",
            'Not now: you are registered in the tournament "{ref}", which has not ended. Try again once it ends (or after withdrawing).',
        ),
        "privacy.placeholder": ("已注销玩家 #{n}", "Deleted player #{n}"),
    }
)


def _esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def write_po() -> None:
    from pathlib import Path

    here = Path(__file__).parent / "locale"
    for idx, (lang, folder) in enumerate((("zh_CN", "zh_CN"), ("en", "en"))):
        lines = [
            "# Shengji/Guandan bot messages.",
            'msgid ""',
            'msgstr ""',
            '"Content-Type: text/plain; charset=UTF-8\\n"',
            f'"Language: {lang}\\n"',
            "",
        ]
        for key, texts in list(UI.items()) + [("err." + k, v) for k, v in ERRORS.items()]:
            lines += [f'msgid "{_esc(key)}"', f'msgstr "{_esc(texts[idx])}"', ""]
        out = here / folder / "LC_MESSAGES" / "bot.po"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(lines), encoding="utf-8")


UI.update(PAGE)  # the table page's words (page_messages.py)

if __name__ == "__main__":
    write_po()
