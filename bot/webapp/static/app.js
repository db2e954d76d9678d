//# allFunctionsCalledOnLoad
// @ts-check
/* The table page: one WebSocket to the bot; every frame is the whole view for this viewer.
   No build step and no external resource (Telegram's own telegram-web-app.js is loaded only inside Telegram). */
import {
  cardLabel, cardList, cardParts, clockText, comboLabel, completedTrick, dealBanner, followHint, freshDeal, handLayout, liveTrick,
  olderFrame, pointCards, rankText, secondsLeft, shownDealer, summaryRows, SUITS, tr as translate,
} from './view.js';
import { closingConfirmation, haptic, setBackButton, setBarButton, startTelegram, tg } from './telegram.js';

const SEATS = { zh: ['南', '东', '北', '西'], en: ['S', 'E', 'N', 'W'] };
const POS = ['bottom', 'right', 'top', 'left'];
const HOLD_MS = 1200;  // a completed trick stays on the table this long
const BANNER_MS = 2500;  // the dealing banner stays this long at least (Shengji: while dealing, too)

function readHint() {
  try { return localStorage.getItem('hint') !== 'off'; } catch (e) { return true; }
}
/** @type {any} */
const S = {
  ws: null, texts: {}, lang: 'zh', seat: null, match: null, frame: null, sel: [], handKey: '', pending: null,
  fatal: false, retry: 0, offset: 0, lastError: null, hold: null, holdUntil: 0, seenTrick: '', seenDeal: null,
  summary: null, sheetOpen: false, wasMyTurn: false, hint: true, referee: false, tables: [],
  banner: '', bannerUntil: 0, helloed: false, handCounts: null, handDeal: null, handSize: 0, suggestAt: -1, beatsKey: '',
  metrics: { frames: [], renders: [], taps: [], firstFrame: null },  // ms, the last 500 of each (docs/performance.md)
};

/** The frames received since the page was last drawn (when each arrived, ms): drawn together, once. */
/** @type {number[]} */ let arrived = [];
let renderQueued = 0;
/** The page drawn again at the next animation frame, once however many messages came before it (a state frame
 *  and its ack, or a computer player's move right after a person's, often arrive within one frame: each was
 *  drawn in turn, and only the last was seen). A hidden page draws at once (no animation frame runs then). */
function renderSoon() {
  if (document.hidden) { renderNow(); return; }
  if (!renderQueued) renderQueued = requestAnimationFrame(() => { renderQueued = -1; renderNow(); });
}
function renderNow() {
  // drawn in this animation frame (its callback runs before the frame's style, layout and paint): the paint
  // is over at the first task after it; a hidden page's render is not painted until it shows
  const inFrame = renderQueued === -1;
  if (renderQueued > 0) cancelAnimationFrame(renderQueued);
  renderQueued = 0;
  const start = performance.now();
  render();
  S.metrics.renders.push(performance.now() - start);
  if (S.metrics.renders.length > 500) S.metrics.renders.shift();
  arrived.forEach((at) => afterPaint(at, S.metrics.frames, inFrame));
  arrived = [];
}
/** After the next paint: ``into`` gets the ms since ``start``.  @param {number} start @param {number[]} into
 *  @param {boolean} [inFrame] called from an animation frame's callback: the paint comes after this callback */
function afterPaint(start, into, inFrame) {
  const done = () => setTimeout(() => {
    into.push(performance.now() - start);
    if (into.length > 500) into.shift();
  }, 0);
  if (inFrame) done(); else requestAnimationFrame(done);
}
/** @type {any} */ (window).__table = S;  // read by the browser tests

/** The page's own boxes by id, looked up once (a render asks for some forty of them). @type {Map<string, HTMLElement>} */
const boxes = new Map();
const $ = (/** @type {string} */ id) => {
  let e = boxes.get(id);
  if (!e || !e.isConnected) { e = /** @type {HTMLElement} */ (document.getElementById(id)); boxes.set(id, e); }
  return e;
};
/** @param {string} tag @param {string | null} [cls] @param {unknown} [text] @returns {HTMLElement} */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
/** @param {string} key @param {Record<string, unknown>} [params] */
function t(key, params) { return translate(S.texts, key, params); }

function hashParams() { return new URLSearchParams((location.hash || '').replace(/^#/, '')); }
function initData() {
  const app = tg();
  if (app && app.initData) return app.initData;
  return hashParams().get('tgWebAppData') || '';
}
function loadTelegram() {  // inside Telegram only; a page without it works the same
  if (tg()) { startTelegram(); return; }
  if (!hashParams().get('tgWebAppPlatform')) return;
  const s = document.createElement('script');
  s.src = 'https://telegram.org/js/telegram-web-app.js';
  s.onload = () => { startTelegram(); render(); };
  s.onerror = () => { /* tolerated: initData comes in the URL too */ };
  document.head.appendChild(s);
}

// --- cards ------------------------------------------------------------------------------------
/** @param {string} text @param {string} [extra] */
function mini(text, extra) {
  const p = cardParts(text, S.lang);
  const c = el('span', 'mini' + (p.red ? ' red' : '') + (p.joker ? ' joker ' + p.joker : '') + (extra || ''));
  c.appendChild(el('span', 'r', p.joker ? (S.lang === 'zh' ? p.rank.charAt(0) : 'J') : p.rank));
  c.appendChild(el('span', 's', p.joker ? (S.lang === 'zh' ? '王' : '★') : p.suit));
  c.title = cardLabel(text, S.lang);
  c.dataset.card = text;
  return c;
}
/** @param {string[]} cards */
function cardsRow(cards) {
  const row = el('span', 'cards');
  cards.forEach((c) => row.appendChild(mini(c, pointCards([c]).length ? ' pt' : '')));
  return row;
}
/** @param {string} s */
function cardsText(s) { return cardList(s).map((c) => cardLabel(c, S.lang)).join(' '); }

// --- connection -------------------------------------------------------------------------------
function connect() {
  if (S.fatal) return;
  setConn(S.frame ? t('web.reconnecting') : t('web.connecting'), true);
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(proto + '//' + location.host + '/ws');
  S.ws = ws;
  ws.onopen = () => {
    S.retry = 0;
    performance.mark('ws-open');
    const m = new URLSearchParams(location.search).get('m');
    // frame 'inline': the server's answer carries the first state frame (one message to the first paint)
    ws.send(JSON.stringify({ type: 'hello', init: initData(), match: S.match || (m ? Number(m) : null),
                             version: S.frame ? S.frame.version : null, frame: 'inline' }));
  };
  // named: compiled whole at load (the hint at the top), an arrow would be anonymous in a trace (the benchmark
  // finds each message's work by this name)
  ws.onmessage = function onSocketMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    onMessage(msg);
  };
  ws.onclose = () => {
    if (S.ws !== ws) return;
    S.ws = null;
    if (S.fatal) return;
    setConn(t('web.reconnecting'), true);
    setTimeout(connect, Math.min(5000, 250 * Math.pow(2, S.retry++)));
  };
}
/** @param {unknown} obj */
function send(obj) {
  if (!S.ws || S.ws.readyState !== 1) return false;
  S.ws.send(JSON.stringify(obj));
  return true;
}
/** @param {string} text @param {boolean} bad */
function setConn(text, bad) { const c = $('conn'); c.textContent = text || ''; c.className = 'conn' + (bad ? ' bad' : ''); }

/** @param {any} msg */
function onMessage(msg) {
  if (msg.type === 'hello') {
    performance.mark('hello');
    S.texts = msg.texts || {}; S.lang = msg.lang; S.seat = msg.seat; S.match = msg.match;
    S.referee = !!msg.referee; S.tables = msg.tables || [];
    const lang = S.lang === 'zh' ? 'zh' : 'en';
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;  // written again, the same value invalidates the root's style (a trace: 'Attribute')
    document.title = t('web.title');
    if (msg.dev) { $('dev').hidden = false; $('dev').textContent = t('web.dev'); }
    setConn(S.seat === null ? t('web.spectating') : '', false);
    S.helloed = true;  // the first frame after a hello is drawn whatever its version (a restored database)
    if (msg.state) onMessage(msg.state);  // the first frame, inside the hello
    if (S.pending) send(S.pending);  // a request whose answer was lost: the same id is applied at most once
  } else if (msg.type === 'state') {
    if (!S.helloed && olderFrame(S.frame, msg)) return;  // never back to an older version
    S.helloed = false;
    const start = performance.now();
    S.offset = msg.now - Date.now();
    noteMoments(S.frame, msg);
    S.frame = msg;
    if (S.metrics.firstFrame === null) S.metrics.firstFrame = start;
    arrived.push(start);
    renderSoon();
  } else if (msg.type === 'tables') {
    S.tables = msg.tables || [];
    if (S.sheetOpen && $('sheet').dataset.kind === 'tables') showTables();
    renderActions();
  } else if (msg.type === 'ack') {
    if (S.pending && msg.id === S.pending.id) S.pending = null;
    if (!msg.ok) {
      if (msg.readings) chooseReading(msg.readings);
      else refuse(msg.error);
    } else { S.sel = []; notice(''); haptic('success'); }
    renderSoon();
  } else if (msg.type === 'error') {
    refuse(msg.message);
    if (msg.fatal) { S.fatal = true; fatalPage(msg.message); }
  }
}

/** A refusal that ends the page (bad initData, no such match, not allowed to watch): one translated
 *  message in place of the table, and nothing of the table kept. @param {string} text */
function fatalPage(text) {
  S.frame = null;
  const app = $('app');
  app.replaceChildren(el('div', 'fatal', text));
  setBarButton('MainButton', null); setBarButton('SecondaryButton', null); setBackButton(null);
  closingConfirmation(false);
}

/** What changed between two frames that the page shows as a moment: a completed trick (held on the
 *  table), a finished deal (the summary sheet).  @param {any} before @param {any} after */
function noteMoments(before, after) {
  const p = after.table;
  const done = completedTrick(p, after.game);
  const sameDeal = before && (before.table.deal ?? before.table.deal_no) === (p.deal ?? p.deal_no);
  const inPlay = ['play', 'choose', 'deal_over'].indexOf(p.phase) >= 0 || after.status === 'finished';
  if (before && done && done.key !== S.seenTrick && before.version < after.version && sameDeal && inPlay) {
    const live = liveTrick(p, after.game);
    // hold the trick just completed unless the table shows a longer one already
    if (live.entries.length <= 1 || after.game === 'shengji') { S.hold = done; S.holdUntil = Date.now() + HOLD_MS; }
    setTimeout(render, HOLD_MS + 20);
  }
  if (done) S.seenTrick = done.key;
  const deal = p.last_deal;
  const dealKey = deal ? after.game + deal.deal_no + '.' + (p.deals_played ?? p.deal_no) : null;
  if (before && deal && dealKey !== S.seenDeal) {
    S.summary = deal;
    setTimeout(() => { if (S.summary === deal) showSummary(deal); }, before.version < after.version ? HOLD_MS : 0);
  }
  if (S.seenDeal === null || dealKey !== S.seenDeal) S.seenDeal = dealKey;
  const dealNo = after.game + ':' + (p.deal ?? p.deal_no) + '.' + (p.redeal || 0);
  if (dealNo !== S.banner && freshDeal(after)) {
    S.bannerUntil = Date.now() + BANNER_MS;
    setTimeout(render, BANNER_MS + 20);
  }
  S.banner = dealNo;
}


let counter = 0;
/** @param {string} op @param {string[]} [cards] @param {string | null} [arg] */
function act(op, cards, arg) {
  if (!S.frame || S.pending) return;
  const req = { type: 'act', id: 'r' + Date.now().toString(36) + (counter++) + Math.random().toString(36).slice(2, 8),
                version: S.frame.version, op, cards: cards || [], arg: arg || null };
  S.pending = req;
  send(req);  // else sent again after the reconnect's hello
  renderActions();
}

// --- rendering --------------------------------------------------------------------------------
/** @param {number} seat */
function seatName(seat) { return (SEATS[/** @type {'zh'} */ (S.lang)] || SEATS.zh)[seat]; }
function pub() { return S.frame.table; }
/** @returns {string[]} */
function handFlat() {
  const me = S.frame.me; if (!me) return [];
  /** @type {string[]} */ const out = [];
  me.hand.forEach((/** @type {any} */ g) => g.cards.forEach((/** @type {string} */ c) => out.push(c)));
  return out;
}
function selectedCards() { const h = handFlat(); return S.sel.map((/** @type {number} */ i) => h[i]).filter(Boolean); }
function requiredTurns() { return (pub().turns || []).filter((/** @type {any} */ x) => x.required !== false); }
function isMyTurn() {
  const f = S.frame;
  return !!(f && f.me && f.status === 'playing' && (f.me.actions.turns || []).length
    && requiredTurns().some((/** @type {any} */ x) => x.seat === S.seat));
}
function now() { return Date.now() + S.offset; }

function render() {
  const f = S.frame; if (!f) return;
  const p = pub(), sj = f.game === 'shengji';
  const key = JSON.stringify(f.me ? f.me.hand : null);
  if (key !== S.handKey) { S.handKey = key; S.sel = []; S.suggestAt = -1; }
  const beats = JSON.stringify(f.me && f.me.actions ? f.me.actions.beats || null : null);
  if (beats !== S.beatsKey) { S.beatsKey = beats; S.suggestAt = -1; }
  // the completed trick stays its 1.2 s, but never over a trick the player must answer now (a fast table can
  // lead and play to it within the hold: 'your turn' with the cards to beat hidden)
  if (S.hold && (Date.now() >= S.holdUntil || (isMyTurn() && liveTrick(p, f.game).entries.length > 0))) S.hold = null;
  if (document.body.dataset.game !== f.game) document.body.dataset.game = f.game;
  let title = t('table.deal_no', { n: sj ? p.deal : (p.deal_no || 0) });
  if (sj && p.level) title += ' · ' + t('table.playing_level', { level: rankText(p.level) });
  if (!sj && p.level_text) title += ' · ' + t('table.playing_level', { level: p.level_text });
  if (sj && p.trump !== null && p.trump !== undefined) title += ' · ' + t('table.trump', { trump: SUITS[p.trump] || p.trump });
  else if (sj && ['play', 'choose', 'late', 'bury', 'rebury'].indexOf(p.phase) >= 0) title += ' · ' + t('table.no_trump');
  setText($('title'), title);
  const ai = $('ai');  // the computer players' level (their seats are named so already)
  if (ai.hidden !== !f.ai) ai.hidden = !f.ai;
  if (f.ai) setText(ai, t('page.ai', { level: t('page.ai.' + f.ai) }));
  renderInfo();
  renderSeats();
  renderTrick();
  renderBanner();
  renderStatus();
  renderExtra();
  renderHand();
  renderActions();
  const mine = isMyTurn();
  if (mine && !S.wasMyTurn) haptic('turn');
  S.wasMyTurn = mine;
  closingConfirmation(mine);
  tick();
}

function renderInfo() {
  const f = S.frame, p = pub(), sj = f.game === 'shengji', info = $('info');
  // what the line shows, worked out first: drawn again only when that changed (not at every version)
  const lv = sj ? (p.levels || [2, 2]).map(rankText) : (p.level_texts || []);
  const dealer = shownDealer(f), dealing = dealer !== null ? dealer % 2 : null;
  const points = sj && ['play', 'choose'].indexOf(p.phase) >= 0 ? [t('web.points', { n: p.points || 0 }), pointSummary(p.point_cards || [])] : null;
  const declared = sj && p.declaration && ['dealing', 'window', 'blackout', 'bury', 'late'].indexOf(p.phase) >= 0
    ? t('table.declared', { who: seatName(p.declaration.seat) + ' ' + f.names[p.declaration.seat], cards: cardsText(p.declaration.cards) }) : null;
  if (!changed(info, [S.match, lv, dealing, points, declared, f.match_deadline || null, S.lang])) return;
  info.replaceChildren();
  if (lv.length === 2) {
    const span = el('span', 'levels');
    [0, 1].forEach((s) => { span.appendChild(el('b', 'side' + (dealing === s ? ' dealing' : ''), t('web.side' + s) + ' ' + lv[s])); });
    info.appendChild(span);
  }
  if (points) {
    const pts = el('span', 'points', points[0]);
    if (points[1]) pts.appendChild(el('small', 'won', ' (' + points[1] + ')'));
    info.appendChild(pts);
  }
  if (declared) info.appendChild(el('span', null, declared));
  if (f.match_deadline) { const c = el('span', 'clock match'); c.dataset.deadline = f.match_deadline; c.dataset.label = t('page.match_clock'); info.appendChild(c); }
}

/** "K×2 10×3 5×1": the point cards the defenders have won, by rank. @param {string[]} cards */
function pointSummary(cards) {
  /** @type {Record<string, number>} */ const n = {};
  cards.forEach((c) => { const r = c.slice(1); n[r] = (n[r] || 0) + 1; });
  return ['K', '10', '5'].filter((r) => n[r]).map((r) => r + '×' + n[r]).join(' ');
}

function renderSeats() {
  const f = S.frame, p = pub(), sj = f.game === 'shengji';
  const base = S.seat === null ? 0 : S.seat;
  const dealer = shownDealer(f);
  const turnSeats = requiredTurns().map((/** @type {any} */ x) => x.seat);
  /** @type {Record<number, string>} */ const places = {};
  (p.finish_order || []).forEach((/** @type {number} */ s, /** @type {number} */ i) => { places[s] = t('gd.place' + Math.min(i + 1, 4)); });
  for (let k = 0; k < 4; k++) {
    const seat = (base + k) % 4, box = $('seat-' + POS[k]);
    let count = sj ? (p.hand_sizes || [])[seat] : (p.counts ? p.counts[seat] : (S.seat === seat && f.me ? f.me.hand_size : null));
    if (count === 'more_than_10') count = '>10';
    const cls = 'seat' + (turnSeats.indexOf(seat) >= 0 && f.status === 'playing' ? ' turn' : '') + (places[seat] ? ' out' : '');
    const online = f.connected && !f.computers[seat] ? !!f.connected[seat] : null;
    const clock = f.clock && f.clock.seat === seat && f.clock.deadline ? f.clock : null;
    // drawn again only when what it shows changed (most frames change one seat or none)
    if (box.className !== cls) box.className = cls;  // the turn moving: a class, the seat's content stays
    const shown = count !== null && count !== undefined && !places[seat];
    const countText = shown ? String(count) : '', countCls = 'count' + (!sj && Number(count) <= 10 ? ' low' : '');
    if (!changed(box, [seat, f.names[seat], dealer === seat, shown, places[seat], online, clock, S.lang])) {
      // most frames change a seat's card count only: its text, in place (no node made again)
      const c = /** @type {HTMLElement | null} */ (box.querySelector('.count'));
      if (c) { setText(/** @type {HTMLElement} */ (c.querySelector('.n')), countText); if (c.className !== countCls) c.className = countCls; }
      continue;
    }
    box.replaceChildren();
    box.dataset.seat = String(seat);
    const name = el('div', 'name');
    name.appendChild(el('span', 'wind', seatName(seat)));
    name.appendChild(document.createTextNode(' ' + (f.names[seat] || '?')));
    box.appendChild(name);
    const meta = el('div', 'meta');
    if (dealer === seat) meta.appendChild(el('span', 'dealer', '★' + t('web.dealer')));
    if (shown) meta.appendChild(countNode(countCls, countText));
    if (places[seat]) meta.appendChild(el('span', 'place', places[seat]));
    if (online !== null) meta.appendChild(el('span', 'online ' + (online ? 'on' : 'off'), t(online ? 'page.online' : 'page.offline')));
    box.appendChild(meta);
    if (clock) {
      const c = el('div', 'bar'); c.dataset.deadline = clock.deadline; c.dataset.seconds = clock.seconds;
      c.appendChild(el('i')); const n = el('span', 'clock'); n.dataset.deadline = clock.deadline;
      c.appendChild(n); box.appendChild(c);
    }
  }
}

/** "25 张": the number in a box two digits wide (app.css), so a seat is as wide with 9 cards as with 25 (a seat
 *  that narrows moves: a layout shift at every card).  @param {string} cls @param {string} n */
function countNode(cls, n) {
  const [before, after] = t('web.cards_n', { n: '\u0001' }).split('\u0001');
  const c = el('span', cls);
  if (before) c.appendChild(document.createTextNode(before));
  c.appendChild(el('span', 'n', n));
  if (after) c.appendChild(document.createTextNode(after));
  return c;
}

/** ``node`` shows ``text`` (written only when it differs: the same text written again lays the line out again).
 *  @param {HTMLElement} node @param {string} text */
function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

/** Whether ``box`` must be drawn again to show ``what`` (a key kept on the element); false: it shows it already.
 *  @param {HTMLElement} box @param {unknown} what */
function changed(box, what) {
  const key = JSON.stringify(what);
  if (box.dataset.key === key) return false;
  box.dataset.key = key;
  return true;
}

/** @param {any} e @param {boolean} sj */
function playNode(e, sj) {
  if (e.pass) return el('span', 'pass', t('gd.pass'));
  const row = cardsRow(e.cards);
  if (!sj && e.label) row.title = comboLabel(S.texts, e.kind, e.label, S.lang);
  return row;
}
function renderTrick() {
  const f = S.frame, sj = f.game === 'shengji';
  const base = S.seat === null ? 0 : S.seat;
  const held = S.hold;
  const showLive = sj || pub().phase === 'play' || pub().phase === 'deal_over' || f.status === 'finished';
  const trick = held || (showLive ? liveTrick(pub(), f.game) : { entries: [], leader: null, winning: null });
  /** @type {Record<number, any>} */ const by = {};
  trick.entries.forEach((/** @type {any} */ e) => { by[e.seat] = e; });
  if ($('trick').className !== (held ? 'done' : '')) $('trick').className = held ? 'done' : '';
  for (let k = 0; k < 4; k++) {
    const seat = (base + k) % 4, box = $('play-' + POS[k]);
    const e = by[seat];
    if (!changed(box, [seat, e || null, trick.leader === seat, trick.winning === seat, !!held, S.lang])) continue;
    box.innerHTML = '';
    box.className = 'play';
    if (!e) continue;
    const play = playNode(e, sj);
    box.appendChild(play);
    // a play of three cards or more at a side seat (half the table's width): its cards closer together and its
    // tags over their foot, so it stays one row (two rows made the table taller and moved everything below it)
    const side = k === 1 || k === 3, n = e.pass ? 0 : e.cards.length, over = side && n >= 3;
    if (over) play.classList.add(n >= 5 ? 'tighter' : 'tight');
    else if (n >= 7) play.classList.add('tight');  // a Guandan bomb of 7 or 8 at the top or the bottom seat
    const tags = el('span', over ? 'tags over' : 'tags');
    if (trick.leader === seat && !e.pass) tags.appendChild(el('span', 'tag lead', t('page.lead')));
    if (trick.winning === seat && !e.pass) { tags.appendChild(el('span', 'tag win', t(held ? 'page.won' : 'page.winning'))); box.classList.add('winning'); }
    if (tags.childNodes.length) (over ? play : box).appendChild(tags);
  }
  let note = '';
  if (held && held.winning !== null) {
    note = t(sj && held.points ? 'page.trick_won_pts' : 'page.trick_won', { who: seatName(held.winning) + ' ' + f.names[held.winning], n: held.points });
  } else if (!sj && pub().table && pub().phase === 'play' && showLive) {
    note = comboLabel(S.texts, pub().table.kind, pub().table.label, S.lang);
  }
  setText($('trick-note'), note);
}

/** The start of a deal: its number, both sides' levels, who deals (Shengji; Guandan: who leads), over
 *  the middle of the table while no card is on it (it never hides a play, a turn or a button). */
function renderBanner() {
  const f = S.frame, p = pub(), sj = f.game === 'shengji', box = $('deal-banner');
  const dealing = sj && p.phase === 'dealing';
  const empty = !liveTrick(p, f.game).entries.length && !S.hold;
  if (!(dealing || Date.now() < S.bannerUntil) || !empty || S.sheetOpen) { if (!box.hidden) box.hidden = true; return; }
  const lines = dealBanner(S.texts, f, seatName);
  if (box.hidden || box.dataset.lines !== lines.join('|')) {
    box.replaceChildren(...lines.map((line, i) => el(i ? 'span' : 'b', null, line)));
    box.dataset.lines = lines.join('|');
  }
  if (box.hidden) box.hidden = false;
}

function renderStatus() {
  const f = S.frame, p = pub(), sj = f.game === 'shengji', st = $('status');
  let text = '';
  const mine = isMyTurn();
  if (f.status === 'finished') {
    const r = p.result;
    text = r && r.winner !== undefined && r.winner !== null ? t('web.match_over', { side: t('web.side' + r.winner) }) : t('web.match_stopped');
  } else if (p.phase === 'paused' || f.status === 'paused') text = t('table.paused');
  else if (sj && p.phase === 'dealing') text = t('table.dealing', { n: p.cards_dealt || 0, total: 100 });
  else {
    const turns = requiredTurns();
    if (mine) text = t('web.your_turn') + ': ' + t('turn.' + turns.filter((/** @type {any} */ x) => x.seat === S.seat)[0].kind);
    else if (turns.length) text = t('table.turn', { who: seatName(turns[0].seat) + ' ' + f.names[turns[0].seat], what: t('turn.' + turns[0].kind) });
    else if (sj && (p.phase === 'window' || p.phase === 'blackout')) text = t('table.bid_window');
    else if (p.phase === 'deal_over') text = t('table.deal_over');
  }
  if (!changed(st, [S.match, text, f.window_deadline || null, mine])) return;  // drawn again only when it changed
  st.textContent = text;
  if (f.window_deadline) { const c = el('span', 'clock window'); c.dataset.deadline = f.window_deadline; st.appendChild(document.createTextNode(' ')); st.appendChild(c); }
  st.className = mine ? 'mine' : '';
}

function renderExtra() {
  const f = S.frame, p = pub(), box = $('extra');
  // the lines, worked out first ([class, text, cards]): drawn again only when they changed
  /** @type {[string | null, string, string[] | null][]} */ const lines = [];
  const me = f.me || {};
  const sj = f.game === 'shengji';
  // the declarer's kitty line (its cards) takes the place of the bury hint, both of one height (app.css .kitty):
  // the hand below does not move when the kitty is buried
  if (me.kitty) lines.push(['kitty', t('page.kitty_mine') + ' ', me.kitty]);
  else if (sj && p.kitty_buried_by !== null && p.kitty_buried_by !== undefined && p.phase === 'play') {
    lines.push([null, t('page.kitty_held', { who: seatName(p.kitty_buried_by) + ' ' + f.names[p.kitty_buried_by] }), null]);
  }
  if (me.my_return) lines.push([null, t('gd.my_return', { frm: f.names[me.my_return.from], to: f.names[me.my_return.to], card: cardLabel(me.my_return.card, S.lang) }), null]);
  if (!sj && p.tribute && (p.phase === 'tribute' || p.phase === 'return')) {
    const tb = p.tribute;
    const paid = Object.keys(tb.paid || {});
    if (paid.length) lines.push([null, t('gd.tribute_paid', { list: paid.map((s) => f.names[Number(s)] + ' ' + cardLabel(tb.paid[s], S.lang)).join(', ') }), null]);
    const a = me.actions || {};
    if (a.tribute) lines.push(['rule', t('page.tribute_rule', { to: (tb.payers || []).length > 1 ? t('page.tribute_upstream') : seatName(tb.upstream) + ' ' + f.names[tb.upstream] }), null]);
    if (a['return']) lines.push(['rule', t('page.return_rule', { to: seatName(a.return_to) + ' ' + f.names[a.return_to] }), null]);
  }
  if (p.counts_asked && p.counts_asked.answer && p.phase === 'play') {
    const ans = p.counts_asked.answer;
    lines.push([null, t('gd.counts', { list: Object.keys(ans).sort().map((s) => seatName(Number(s)) + ' ' + (ans[s] === 'more_than_10' ? '>10' : ans[s])).join(' · ') }), null]);
  }
  if (me.actions && me.actions.bury) lines.push(['rule kitty', t('web.bury_hint', { n: me.actions.bury }), null]);
  if (S.hint && f.hints !== false && me.actions && me.actions.beats && !me.actions.beats.length && isMyTurn()) {
    lines.push(['rule', t('page.nothing_beats'), null]);
  }
  if (!changed(box, [S.match, lines])) return;
  box.replaceChildren(...lines.map(([cls, text, cards]) => {
    const d = el('div', cls, text);
    if (cards) d.appendChild(cardsRow(cards));
    return d;
  }));
}

/** The cards that may be played now (for the hint), as indexes; null: no hint. */
function hinted() {
  const f = S.frame, p = pub();
  if (!S.hint || f.hints === false || !f.me || !isMyTurn()) return null;
  const a = f.me.actions || {};
  const hand = handFlat();
  if (f.game === 'guandan' && a.beats) {  // what beats the table: the cards of any such play
    const cards = new Set(a.beats.flat());
    return hand.map((c, i) => (cards.has(c) ? i : -1)).filter((i) => i >= 0);
  }
  if (f.game === 'shengji' && (a.turns || []).indexOf('follow') >= 0 && p.trick && p.trick.length) {
    return followHint(hand, p.trick[0].cards, p.trump, p.level);
  }
  if (f.game === 'guandan' && (a.tribute || a['return'])) {
    const allowed = a.tribute || a['return'];
    return hand.map((c, i) => (allowed.indexOf(c) >= 0 ? i : -1)).filter((i) => i >= 0);
  }
  return null;
}

let handWidth = 0;  // measured once and on resize (a read after a DOM change would force a layout)
let handDrawn = '';  // what the hand shows now: drawn again only when that changes
let handCardW = 46;
let handHint = /** @type {number[] | null} */ (null);  // the hint the hand was last drawn with (a tap does not work it out again)
/** The hand's cards (their slots) by key (text, occurrence, what is drawn on them): kept from frame to frame,
 *  so a played card removes one node and a hint or a selection changes classes only (no node is made again,
 *  no layout of the other cards: each slot is placed by a transform inside a box of fixed size, app.css).
 *  @type {Map<string, HTMLElement>} */
let handNodes = new Map();
/** What each node's inline style was last set to by ``setStyle`` (reading it back serialises the CSS value: a
 *  transform, for every card at every redraw of the hand). @type {WeakMap<HTMLElement, Record<string, string>>} */
const styled = new WeakMap();
/** @param {HTMLElement} node @param {string} name @param {string} value */
function setStyle(node, name, value) {
  let set = styled.get(node);
  if (!set) { set = {}; styled.set(node, set); }
  if (set[name] === value) return;
  set[name] = value;
  node.style.setProperty(name, value);
}
function renderHand() {
  const f = S.frame, box = $('hand');
  if (!f.me) {
    if (handDrawn !== 'none') { box.replaceChildren(); box.className = 'empty'; box.style.removeProperty('height'); styled.delete(box); handNodes = new Map(); }
    handDrawn = 'none';
    return;
  }
  const p = pub(), sj = f.game === 'shengji';
  const hand = handFlat();
  if (!handWidth) handWidth = handBoxWidth();
  const width = handWidth;
  const wide = window.innerWidth >= 900 ? 2 : window.innerWidth >= 700 ? 1 : 0;
  const cardW = [46, 60, 72][wide], cardH = [64, 84, 100][wide];  // app.css: --card-w, --card-h
  handCardW = cardW;
  const hint = hinted();
  handHint = hint;
  const drawn = handDrawnKey(hint, width, cardW);
  if (drawn === handDrawn) return;
  handDrawn = drawn;
  const fresh = arrivals(hand, sj ? p.deal : p.deal_no);
  if (box.className) box.className = '';
  let fan = /** @type {HTMLElement | null} */ (box.firstElementChild);
  if (!fan || fan.className !== 'fan') { box.replaceChildren(); fan = el('div', 'fan'); box.appendChild(fan); handNodes = new Map(); }
  const usable = width - 8;  // room for the lifted card's ring and the shadow at both edges
  const lay = handLayout(hand.length, usable, cardW, Math.max(27, Math.round(cardW / 2)));
  // each card's place: rows of lay.perRow, 3 px between groups (taken out of the row's step), centred
  /** @type {{text: string, gi: number, gap: boolean}[]} */ const cards = [];
  f.me.hand.forEach((/** @type {any} */ g, /** @type {number} */ gi) => {
    g.cards.forEach((/** @type {string} */ text, /** @type {number} */ k) => { cards.push({ text, gi, gap: gi > 0 && k === 0 }); });
  });
  /** @type {number[]} */ const xs = [];
  for (let r0 = 0; r0 < cards.length; r0 += lay.perRow) {
    const row = cards.slice(r0, r0 + lay.perRow), n = row.length;
    const gaps = row.filter((c, k) => k > 0 && c.gap).length;
    const step = gaps && n > 1 ? Math.min(lay.step, Math.floor((usable - cardW - 3 * gaps) / (n - 1))) : lay.step;
    let x = 0;
    const at = row.map((c, k) => { if (k > 0) x += step + (c.gap ? 3 : 0); return x; });
    at.forEach((v) => xs.push(v - Math.round((x + cardW) / 2)));
  }
  const rowH = cardH - 16, rows = Math.max(1, lay.rows);
  setStyle(fan, 'height', ((rows - 1) * rowH + cardH) + 'px');
  setStyle(box, 'height', (14 + (rows - 1) * rowH + cardH + 2) + 'px');
  /** @type {Map<string, HTMLElement>} */ const next = new Map();
  /** @type {Record<string, number>} */ const seen = {};
  /** @type {HTMLElement[]} */ const order = [];
  cards.forEach((card, idx) => {
    const text = card.text, c = cardParts(text, S.lang);
    const level = p.level === rankValue(text);
    const wild = !sj && text === '♥' + rankText(p.level);
    const badge = wild ? 'wild' : (!sj && level && !c.joker ? 'lvl' : '');
    seen[text] = (seen[text] || 0) + 1;
    const key = text + '#' + seen[text] + '|' + S.lang + '|' + badge;
    let slot = fresh[idx] ? undefined : handNodes.get(key), node;
    if (slot) { handNodes.delete(key); node = /** @type {HTMLElement} */ (slot.firstChild); }
    else {
      slot = el('div', 'slot');
      node = el('div', 'card');
      slot.appendChild(node);
      node.appendChild(el('span', 'r', c.joker ? (S.lang === 'zh' ? c.rank.charAt(0) : (c.joker === 'big' ? 'Big' : 'Small')) : c.rank));
      node.appendChild(el('span', 's', c.joker ? (S.lang === 'zh' ? '王' : 'joker') : c.suit));
      if (badge) node.appendChild(el('span', badge === 'wild' ? 'badge' : 'badge lvl', t(badge === 'wild' ? 'page.wild' : 'page.level_card')));
      node.dataset.card = text;
      if (fresh[idx]) node.dataset.arrive = '1';  // dealt just now: it slides in (CSS only; none with reduced motion)
    }
    next.set(key, slot);
    order.push(slot);
    const cls = 'card' + (c.red ? ' red' : '') + (f.me.hand[card.gi].label === 'trump' ? ' trump' : '') + (c.joker ? ' joker ' + c.joker : '')
      + (level && !c.joker ? ' level' : '') + (wild ? ' wild' : '') + (S.sel.indexOf(idx) >= 0 ? ' sel' : '')
      + (hint && hint.indexOf(idx) < 0 ? ' dim' : '') + (idx === cursor ? ' cursor' : '') + (node.dataset.arrive ? ' arrive' : '');
    if (node.className !== cls) node.className = cls;
    if (node.dataset.i !== String(idx)) node.dataset.i = String(idx);
    // placed by its slot's transform: no layout, and a card closing up after a play is not a layout shift
    setStyle(slot, 'transform', 'translate(' + xs[idx] + 'px,' + (Math.floor(idx / lay.perRow) * rowH) + 'px)');
  });
  handNodes.forEach((node) => node.remove());  // played, or drawn differently now
  handNodes = next;
  // the document's order is the drawing order (a card covers the one before it): moved only where it changed
  let arriving = 0;
  /** @type {ChildNode | null} */ let cur = fan.firstChild;
  for (const slot of order) {
    if (slot === cur) { cur = cur.nextSibling; continue; }
    const node = /** @type {HTMLElement} */ (slot.firstChild);
    if (slot.isConnected && node.dataset.arrive) { delete node.dataset.arrive; node.classList.remove('arrive'); }  // no second flight
    if (node.dataset.arrive === '1' && !slot.isConnected) {
      node.style.animationDelay = Math.min(arriving++ * 14, 360) + 'ms';
      node.dataset.arrive = '2';
    }
    fan.insertBefore(slot, cur);
  }
}
/** The hand's width from the window and the stylesheet's own numbers (#app's padding and safe-area insets,
 *  the desktop's actions column): no layout is forced in the middle of a render (the first frame's cost). */
function handBoxWidth() {
  const root = document.documentElement.style;
  const inset = (/** @type {string} */ side) => parseFloat(root.getPropertyValue('--tg-safe-' + side)) || 0;
  let w = Math.min(window.innerWidth, 1100) - 12 - inset('left') - inset('right');
  if (window.innerWidth >= 900) w -= 240 + 12;  // app.css: grid-template-columns 1fr 240px, column-gap 12px
  return Math.max(120, w);
}
/** What the hand shows, as a key: drawn again only when it changes (a tap's lifted card is toggled in place).
 *  @param {number[] | null} hint @param {number} width @param {number} cardW */
function handDrawnKey(hint, width, cardW) {
  return JSON.stringify([S.handKey, S.sel.slice().sort((a, b) => a - b), hint, width, cardW, cursor, pub().level, S.lang]);
}
/** Which cards of the hand arrived since it was last drawn (the hand grew while dealing, or a new deal):
 *  true at their indexes.  @param {string[]} hand @param {number} deal @returns {boolean[]} */
function arrivals(hand, deal) {
  const before = S.handCounts, out = hand.map(() => false);
  /** @type {Record<string, number>} */ const now = {};
  hand.forEach((c) => { now[c] = (now[c] || 0) + 1; });
  const newDeal = S.handDeal !== deal;
  if (!before && freshDeal(S.frame)) out.fill(true);  // the page opened as the deal began
  else if (before && (newDeal || hand.length > S.handSize)) {
    /** @type {Record<string, number>} */ const seen = {};
    hand.forEach((c, i) => { seen[c] = (seen[c] || 0) + 1; out[i] = newDeal || seen[c] > (before[c] || 0); });
  }
  S.handCounts = now; S.handDeal = deal; S.handSize = hand.length;
  return out;
}
/** @param {string} text */
function rankValue(text) {
  if (text === 'BJ' || text === 'SJ') return -1;
  const r = text.slice(1);
  return ({ J: 11, Q: 12, K: 13, A: 14 })[/** @type {'J'} */ (r)] || Number(r);
}

// selection by tap and by sliding a finger across the cards
let sweep = /** @type {{on: boolean, seen: Set<number>} | null} */ (null);
/** Lifts or lowers one card: its class only (the hand's other cards, the hint and the buttons are not looked at).
 *  @param {number} idx @param {boolean} on @param {Element | null} [card] the card's node when the caller has it */
function setSel(idx, on, card) {
  const at = S.sel.indexOf(idx);
  if (on && at < 0) S.sel.push(idx);
  if (!on && at >= 0) S.sel.splice(at, 1);
  const node = card || document.querySelector('#hand .card[data-i="' + idx + '"]');
  if (node) node.classList.toggle('sel', on);
  handDrawn = node && S.frame ? handDrawnKey(handHint, handWidth, handCardW) : '';
}
let actionsLater = false;
/** The buttons after a tap ("出牌 (2)", Clear, Telegram's MainButton): drawn once the lifted card is on screen
 *  (after the next frame), so a tap's frame styles and lays out one card; a frame arriving first draws them. */
function renderActionsAfterPaint() {
  if (actionsLater) return;
  actionsLater = true;
  requestAnimationFrame(() => setTimeout(() => { actionsLater = false; if (S.frame) renderActions(); }, 0));
}
/** @param {EventTarget | null} target @returns {HTMLElement | null} */
function cardNode(target) {
  return target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest('#hand .card')) : null;
}
function bindHand() {
  const box = $('hand');
  // a card that has landed drops its arrival (class and mark): a card still carrying the animation was styled
  // through it again at every later change of its classes (a hint, a lift), ~1 ms a card at CPU x4
  box.addEventListener('animationend', (ev) => {
    const card = /** @type {HTMLElement} */ (ev.target);
    if (!card.classList || !card.classList.contains('arrive')) return;
    delete card.dataset.arrive;
    card.classList.remove('arrive');
  });
  box.addEventListener('pointerdown', (ev) => {
    const card = cardNode(ev.target);
    if (!card) return;
    ev.preventDefault();
    const start = ev.timeStamp || performance.now();  // from the touch itself, input delay included
    const idx = Number(card.dataset.i), on = S.sel.indexOf(idx) < 0;
    sweep = { on, seen: new Set([idx]) };
    setSel(idx, on, card);
    haptic('select');
    afterPaint(start, S.metrics.taps);  // first: its mark is not held up by the buttons drawn after the paint
    renderActionsAfterPaint();
  });
  box.addEventListener('pointermove', (ev) => {
    if (!sweep) return;
    const card = cardNode(document.elementFromPoint(ev.clientX, ev.clientY));
    const idx = card ? Number(card.dataset.i) : null;
    if (idx === null || sweep.seen.has(idx)) return;
    sweep.seen.add(idx);
    setSel(idx, sweep.on, card);
    haptic('select');
    renderActionsAfterPaint();
  });
  const end = () => { sweep = null; };
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}

/** Keyboard play (a desktop): Enter the main action, P pass, Esc closes a sheet or clears the selection,
 *  ← → move the cursor over the hand and Space lifts the card under it. */
let cursor = -1;
function bindKeys() {
  document.addEventListener('keydown', (ev) => {
    if (!S.frame || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const n = handFlat().length;
    if (ev.key === 'Escape') { if (S.sheetOpen) closeSheet(); else { S.sel = []; render(); } }
    else if (S.sheetOpen) return;
    else if (ev.key === 'Enter') { const m = mainActions().find((x) => !x.secondary); if (m && m.enabled && !S.pending) m.run(); }
    else if (ev.key === 'p' || ev.key === 'P') { const m = mainActions().find((x) => x.secondary); if (m && !S.pending) m.run(); }
    else if ((ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') && n) {
      cursor = ev.key === 'ArrowRight' ? (cursor + 1) % n : (cursor - 1 + n) % n;
      document.querySelectorAll('#hand .card.cursor').forEach((c) => c.classList.remove('cursor'));
      const c = document.querySelector('#hand .card[data-i="' + cursor + '"]');
      if (c) c.classList.add('cursor');
    } else if (ev.key === ' ' && cursor >= 0 && cursor < n) { ev.preventDefault(); setSel(cursor, S.sel.indexOf(cursor) < 0); renderActions(); }
    else return;
    ev.preventDefault();
  });
}

/** @param {string} text @param {() => void} onclick @param {string} [cls] @param {boolean} [disabled]
 *  @param {string} [op] @param {string} [extra] */
function button(text, onclick, cls, disabled, op, extra) {
  const b = /** @type {HTMLButtonElement} */ (el('button', cls || '', text));
  b.onclick = onclick; b.disabled = !!disabled || !!S.pending;
  if (op) b.dataset.op = op;
  if (extra) b.dataset.arg = extra;
  return b;
}

/** The primary and secondary action of the moment (Telegram's bottom buttons when present). */
function mainActions() {
  const f = S.frame, a = (f.me && f.me.actions) || {}, n = S.sel.length;
  /** @type {any[]} */ const out = [];
  if (!f.me || f.status !== 'playing') return out;
  if (a.bury) out.push({ op: 'bury', text: t('btn.bury', { n }), enabled: n === a.bury, run: () => act('bury', selectedCards()) });
  if (a.play) out.push({ op: 'play', text: t('btn.play', { n }), enabled: n > 0, run: () => act('play', selectedCards()) });
  if (a.tribute) out.push({ op: 'tribute', text: t('btn.tribute', { n }), enabled: n === 1, run: () => act('tribute', selectedCards()) });
  if (a['return']) out.push({ op: 'tribute', text: t('btn.return', { n }), enabled: n === 1, run: () => act('tribute', selectedCards()) });
  if (a.pass) out.push({ op: 'pass', text: t('btn.pass'), enabled: true, secondary: true, run: () => act('pass') });
  return out;
}

function renderActions() {
  const f = S.frame, nav = $('actions');
  if (!f) { nav.innerHTML = ''; nav.dataset.key = ''; return; }
  const p = pub(), sj = f.game === 'shengji', a = (f.me && f.me.actions) || {}, n = S.sel.length;
  const last = sj ? (p.last_trick && p.last_trick.plays) : p.last_trick;
  // what the buttons show (not the version: most frames change none of it): drawn again, and Telegram's
  // buttons set again, only when it changed; their handlers read the frame when pressed
  if (!changed(nav, [S.match, f.status, a, n, !!S.pending, S.sheetOpen, S.hint, (S.tables || []).length, S.lang,
    !!(last && last.length), !!p.last_deal, isMyTurn(), f.hints, S.seat])) return;
  /** @type {HTMLElement[]} */ const out = [];
  const main = mainActions();
  const primary = main.find((x) => !x.secondary) || null, secondary = main.find((x) => x.secondary) || null;
  const onBar = setBarButton('MainButton', primary && !S.sheetOpen ? { text: primary.text, enabled: primary.enabled && !S.pending, onClick: primary.run } : null);
  const onBar2 = onBar && setBarButton('SecondaryButton', secondary && !S.sheetOpen ? { text: secondary.text, enabled: !S.pending, onClick: secondary.run } : null);
  // in a fixed order, for a row whose buttons do not move (docs/webapp.md "Buttons that stay put"): the main
  // action and Pass first (the row runs from the right edge: under the thumb), their places kept by a hidden
  // twin while the trick goes round; then the buttons that stay for the deal; last the ones of the moment
  const trickPlay = f.me && f.status === 'playing' && p.phase === 'play';
  /** @type {HTMLElement[]} */ const later = [];
  if (f.me && f.status === 'playing') {
    (a.bids || []).forEach((/** @type {any} */ b) => {
      later.push(button(t(b.verb === 'overturn' ? 'btn.overturn' : 'btn.bid', { cards: cardsText(b.cards) }),
        () => act(b.verb, b.cards.split(' ')), '', false, b.verb, b.cards));
    });
    if (a.pass_bid) later.push(button(t('btn.pass_bid'), () => act('pass_bid'), 'secondary', false, 'pass_bid'));
    if (a.pass_overturn) later.push(button(t('btn.pass_overturn'), () => act('pass_bid'), 'secondary', false, 'pass_bid'));
    (a.choose || []).forEach((/** @type {string} */ opt) => { later.push(button(t('btn.choose_' + opt), () => act('choose', [], opt), '', false, 'choose', opt)); });
    if (primary && !onBar) out.push(button(primary.text, primary.run, 'primary', !primary.enabled, primary.op));
    else if (trickPlay && !onBar) out.push(keep('primary'));
    if (secondary && !onBar2) out.push(button(secondary.text, secondary.run, 'secondary pass', !secondary.enabled, secondary.op));
    else if (trickPlay && !sj && !onBar2) out.push(keep('pass'));
    if (a.ask_counts) later.push(button(t('btn.ask_counts'), () => act('ask_counts'), 'secondary', false, 'ask_counts'));
    const suggesting = f.hints !== false && isMyTurn() && a.beats && a.beats.length;
    // Guandan's Hint lifts the next play that beats the table, and after the last one none (it clears)
    if (suggesting) later.push(button(t('page.suggest'), suggest, 'secondary compact', false, 'suggest'));
    if (f.hints !== false && isMyTurn() && (sj ? (a.turns || []).indexOf('follow') >= 0 : a.tribute || a['return'])) {
      const h = button(t(S.hint ? 'page.hint_on' : 'page.hint_off'), toggleHint, 'secondary', false, 'hint');
      h.disabled = false; later.push(h);
    }
    if (n) later.push(button(t('btn.clear'), () => { S.sel = []; render(); }, 'secondary compact', false, 'clear'));
  }
  if (last && last.length) out.push(button(t('web.last_trick'), showLastTrick, 'secondary', false, 'last_trick'));
  if (p.last_deal) out.push(button(t('page.last_deal'), () => showSummary(pub().last_deal), 'secondary', false, 'summary'));
  if (S.seat === null && (S.tables || []).length > 1) {
    const b = button(t('page.tables'), showTables, 'secondary', false, 'tables'); b.disabled = false; out.push(b);
  }
  out.push(...later);
  keepButtons(nav, out);
}

/** A hidden twin keeping a main button's place in the row while that button is not there: a button of the same
 *  size (the same text and class), invisible, disabled, out of the tab order and not read aloud.
 *  @param {string} kind 'primary' or 'pass' */
function keep(kind) {
  const k = button(kind === 'pass' ? t('btn.pass') : t('btn.play', { n: 0 }), () => {}, 'keep ' + kind, true, 'keep-' + kind);
  k.tabIndex = -1;
  k.setAttribute('aria-hidden', 'true');
  return k;
}

/** ``nav`` shows ``want``: a button that stays (same kind, same place) keeps its node, its text, state and
 *  handler updated; only the others are replaced (a tap changing "出牌 (1)" to "出牌 (2)" lays out one button).
 *  @param {HTMLElement} nav @param {HTMLElement[]} want */
function keepButtons(nav, want) {
  const have = /** @type {HTMLElement[]} */ (Array.from(nav.children));
  want.forEach((w, i) => {
    const h = have[i];
    if (h && h.className === w.className && h.dataset.op === w.dataset.op && h.dataset.arg === w.dataset.arg) {
      setText(h, w.textContent || '');
      if (h instanceof HTMLButtonElement && w instanceof HTMLButtonElement) {
        if (h.disabled !== w.disabled) h.disabled = w.disabled;
        h.onclick = w.onclick;
      }
    } else if (h) nav.replaceChild(w, h);
    else nav.appendChild(w);
  });
  for (let i = want.length; i < have.length; i++) have[i].remove();
}

/** Guandan's hint: select the next play that beats the table (weakest first, bombs last), round and round. */
function suggest() {
  const beats = (S.frame.me.actions || {}).beats || [];
  if (!beats.length) return;
  S.suggestAt = (S.suggestAt + 2) % (beats.length + 1) - 1;  // 0, 1, … the last, then -1: none lifted
  const hand = handFlat(), used = new Set();
  S.sel = [];
  for (const c of S.suggestAt >= 0 ? beats[S.suggestAt] : []) {
    const i = hand.findIndex((x, k) => x === c && !used.has(k));
    if (i >= 0) { used.add(i); S.sel.push(i); }
  }
  haptic('select');
  render();
}

function toggleHint() {
  S.hint = !S.hint;
  try { localStorage.setItem('hint', S.hint ? 'on' : 'off'); } catch (e) { /* private mode */ }
  render();
}

/** @param {(s: HTMLElement) => void} build @param {string} [kind] */
function sheet(build, kind) {
  const o = $('overlay'), s = $('sheet');
  s.innerHTML = ''; s.dataset.kind = kind || ''; build(s); o.hidden = false;
  s.querySelectorAll('button').forEach((b) => { /** @type {HTMLButtonElement} */ (b).disabled = false; });
  S.sheetOpen = true;
  o.onclick = (ev) => { if (ev.target === o) closeSheet(); };
  setBackButton(closeSheet);
  renderActions();
}
function closeSheet() {
  $('overlay').hidden = true; S.sheetOpen = false; S.summary = null;
  setBackButton(null);
  if (S.frame && freshDeal(S.frame)) { S.bannerUntil = Date.now() + BANNER_MS; renderBanner(); setTimeout(render, BANNER_MS + 20); }
  renderActions();
}
function showLastTrick() {
  const f = S.frame, sj = f.game === 'shengji';
  const done = completedTrick(pub(), f.game);
  if (!done) return;
  sheet((s) => {
    s.appendChild(el('b', null, t('web.last_trick')));
    done.entries.forEach((e) => {
      const row = el('div', 'row');
      row.appendChild(el('span', 'who', seatName(e.seat) + ' ' + f.names[e.seat]));
      row.appendChild(playNode(e, sj));
      if (done.winning === e.seat) row.appendChild(el('span', 'tag win', t('page.won')));
      s.appendChild(row);
    });
    s.appendChild(button(t('web.close'), closeSheet, 'secondary'));
  }, 'last_trick');
}
/** @param {any} d the engine's summary of the deal */
function showSummary(d) {
  const f = S.frame;
  const sum = summaryRows(S.texts, f.game, d, f.names, S.lang, seatName);
  sheet((s) => {
    s.appendChild(el('b', 'title', sum.title));
    const table = el('table', 'summary');
    sum.rows.forEach(([k, v]) => { const tr_ = el('tr'); tr_.appendChild(el('th', null, k)); tr_.appendChild(el('td', null, v)); table.appendChild(tr_); });
    s.appendChild(table);
    if (sum.result) s.appendChild(el('div', 'result', sum.result));
    if (f.status === 'finished') s.appendChild(el('div', 'result', $('status').textContent));
    s.appendChild(button(t('web.close'), closeSheet, 'secondary', false, 'close'));
  }, 'summary');
}
/** The tournament's running tables (a spectator or a referee moves between them). */
function showTables() {
  sheet((s) => {
    s.appendChild(el('b', 'title', t('page.tables')));
    (S.tables || []).forEach((/** @type {any} */ x) => {
      const left = x.deadline ? ' · ' + clockText(secondsLeft(x.deadline, now())) : '';
      const label = x.name + ' · ' + t('web.side0') + ' ' + x.levels[0] + ' · ' + t('web.side1') + ' ' + x.levels[1]
        + ' · ' + t('table.deal_no', { n: x.deal }) + left;
      const b = button(label, () => watch(x.match), x.match === S.match ? '' : 'secondary', false, 'watch', String(x.match));
      s.appendChild(b);
    });
    s.appendChild(button(t('web.close'), closeSheet, 'secondary', false, 'close'));
  }, 'tables');
}
/** Watch another match of the tournament: the same socket says hello again. @param {number} match */
function watch(match) {
  closeSheet();
  if (match === S.match) return;
  S.match = match; S.frame = null; S.seenDeal = null; S.seenTrick = ''; S.hold = null;
  send({ type: 'hello', init: initData(), match });
}
setInterval(() => { if (S.seat === null && S.ws && (S.tables || []).length) send({ type: 'tables' }); }, 30000);

/** @param {any[]} options */
function chooseReading(options) {
  const cards = selectedCards();
  sheet((s) => {
    s.appendChild(el('div', null, t('web.choose_reading')));
    options.forEach((o) => {
      const b = button(t('btn.play_as', { label: comboLabel(S.texts, o.kind, o.label, S.lang) }), () => { closeSheet(); act('play', cards, o.id); });
      b.disabled = false; b.dataset.reading = o.id; s.appendChild(b);
    });
    const c = button(t('web.close'), closeSheet, 'secondary'); c.disabled = false; s.appendChild(c);
  }, 'reading');
}

/** A refused move: one line where the eye is (above the hand, never over it) and a haptic. @param {string} text */
function refuse(text) {
  if (!text) return;
  S.lastError = text;
  notice(text, true);
  haptic('error');
}
let noticeTimer = /** @type {any} */ (null);
/** @param {string} text @param {boolean} [bad] */
function notice(text, bad) {
  const n = $('notice');
  n.textContent = text || '';
  n.className = bad ? 'bad' : '';
  clearTimeout(noticeTimer);
  if (text) noticeTimer = setTimeout(() => { n.textContent = ''; n.className = ''; }, 6000);
}

function tick() {
  const nodes = document.querySelectorAll('.clock');
  for (const node of Array.from(nodes)) {
    const e = /** @type {HTMLElement} */ (node);
    const left = secondsLeft(Number(e.dataset.deadline), now());
    const text = e.dataset.label ? e.dataset.label + ' ' + clockText(left)
      : (left >= 60 ? clockText(left) : t('page.sec', { n: left }));
    if (e.textContent !== text) e.textContent = text;  // the same text written again would lay the line out again
    const low = left <= (e.classList.contains('match') ? 300 : 5);
    if (e.classList.contains('low') !== low) e.classList.toggle('low', low);
  }
  for (const node of Array.from(document.querySelectorAll('.bar'))) {
    const e = /** @type {HTMLElement} */ (node);
    const total = Number(e.dataset.seconds) * 1000;
    const frac = total ? Math.max(0, Math.min(1, (Number(e.dataset.deadline) - now()) / total)) : 0;
    const fill = /** @type {HTMLElement} */ (e.firstChild);
    setStyle(fill, 'transform', 'scaleX(' + frac.toFixed(3) + ')');
    const low = frac * total <= 5000;
    if (e.classList.contains('low') !== low) e.classList.toggle('low', low);
  }
  if (S.hold && Date.now() >= S.holdUntil) { S.hold = null; renderTrick(); }
  if (S.frame && !$('deal-banner').hidden && Date.now() >= S.bannerUntil) renderBanner();
}
setInterval(tick, 250);

// the socket first: everything else here runs while it opens (the first localStorage read alone is ~14 ms of a
// CPU x4 profile's samples); nothing of it is needed before the hello's answer
connect();
S.hint = readHint();
document.body.dataset.dev = document.body.dataset.dev || 'false';
bindHand();
bindKeys();
window.addEventListener('resize', () => { handWidth = 0; if (S.frame) renderHand(); });
loadTelegram();
