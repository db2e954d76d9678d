//# allFunctionsCalledOnLoad
// @ts-check
/* The page's view logic, without the DOM: what a card, a combination, a trick or a deal's summary shows.
   Pure functions of a frame and the page texts, unit-tested in the browser (tests/webapp/test_view_logic.py). */

/** @typedef {Record<string, string>} Texts */
/** @typedef {{rank: string, suit: string, red: boolean, joker: string}} CardParts */

/** A text from the page texts with {name} fields filled. @param {Texts} texts @param {string} key
 *  @param {Record<string, unknown>} [params] @returns {string} */
export function tr(texts, key, params) {
  let text = texts[key] || key;
  if (params) for (const k of Object.keys(params)) text = text.split('{' + k + '}').join(String(params[k]));
  return text;
}

export const SUITS = ['♠', '♥', '♣', '♦'];

/** @param {number | null | undefined} x @returns {string} */
export function rankText(x) {
  return ({ 11: 'J', 12: 'Q', 13: 'K', 14: 'A' })[/** @type {number} */ (x)] || String(x);
}

/** @param {string} text a canonical card ("♠10", "BJ") @param {string} lang @returns {CardParts} */
export function cardParts(text, lang) {
  if (text === 'BJ') return { rank: lang === 'zh' ? '大王' : 'Joker', suit: '', red: true, joker: 'big' };
  if (text === 'SJ') return { rank: lang === 'zh' ? '小王' : 'joker', suit: '', red: false, joker: 'small' };
  const suit = text.charAt(0);
  return { rank: text.slice(1), suit, red: suit === '♥' || suit === '♦', joker: '' };
}

/** @param {string} text @param {string} lang */
export function cardLabel(text, lang) {
  const p = cardParts(text, lang);
  return p.joker ? p.rank : p.suit + p.rank;
}

/** @param {string | string[] | null | undefined} texts @returns {string[]} */
export function cardList(texts) {
  if (Array.isArray(texts)) return texts.filter(Boolean);
  return String(texts || '').split(' ').filter(Boolean);
}

/** A Guandan combination's name in the page's language: the engine's label ("炸弹 9×4") keeps its
 *  language-free tail, the kind is translated ("Bomb 9×4").
 *  @param {Texts} texts @param {string | undefined} kind @param {string | undefined} label @param {string} lang */
export function comboLabel(texts, kind, label, lang) {
  const raw = String(label || '');
  const space = raw.indexOf(' ');
  let tail = space >= 0 ? raw.slice(space + 1) : '';
  if (lang === 'zh') tail = tail.replace(/\bBJ\b/g, '大王').replace(/\bSJ\b/g, '小王');
  else tail = tail.replace(/\bBJ\b/g, 'Joker').replace(/\bSJ\b/g, 'joker');
  const name = kind ? tr(texts, 'page.kind.' + kind) : raw.slice(0, space >= 0 ? space : raw.length);
  return tail ? name + ' ' + tail : name;
}

/** Is a Shengji card a trump under (trump suit, level)? @param {string} text
 *  @param {number | null | undefined} trump @param {number | null | undefined} level */
export function isShengjiTrump(text, trump, level) {
  if (text === 'BJ' || text === 'SJ') return true;
  const rank = text.slice(1);
  const value = ({ J: 11, Q: 12, K: 13, A: 14 })[/** @type {'J'} */ (rank)] || Number(rank);
  if (level !== null && level !== undefined && value === level) return true;
  return trump !== null && trump !== undefined && SUITS[trump] === text.charAt(0);
}

/** Shengji's hint while following: the cards of the led suit (trumps when a trump was led), or every
 *  card when none is held (then anything may be played).  Indexes into the flat hand.
 *  @param {string[]} hand @param {string | undefined} led the lead's cards
 *  @param {number | null | undefined} trump @param {number | null | undefined} level @returns {number[]} */
export function followHint(hand, led, trump, level) {
  const first = cardList(led)[0];
  if (!first) return hand.map((_, i) => i);
  const trumpLed = isShengjiTrump(first, trump, level);
  const same = (/** @type {string} */ c) => trumpLed ? isShengjiTrump(c, trump, level)
    : !isShengjiTrump(c, trump, level) && c.charAt(0) === first.charAt(0);
  const idx = hand.map((c, i) => (same(c) ? i : -1)).filter((i) => i >= 0);
  return idx.length ? idx : hand.map((_, i) => i);
}

/** Where the hand's cards go: rows of overlapping cards that fill the width without scrolling.
 *  @param {number} n cards @param {number} width px available @param {number} cardW px
 *  @param {number} [minStep] the narrowest visible strip of a card @returns {{rows: number, perRow: number, step: number}} */
export function handLayout(n, width, cardW, minStep = 27) {
  if (n <= 0) return { rows: 0, perRow: 0, step: cardW };
  let rows = 1;
  for (; rows < 4; rows++) {
    const per = Math.ceil(n / rows);
    if (per <= 1 || (width - cardW) / (per - 1) >= minStep) break;
  }
  const perRow = Math.ceil(n / rows);
  const step = perRow <= 1 ? cardW : Math.min(cardW + 4, Math.floor((width - cardW) / (perRow - 1)));
  return { rows, perRow, step };
}

/** The trick to show: the live one, or the one just completed (held for ``holdMs`` after the fourth
 *  card, so everybody sees it) with its winner.  Entries: {seat, cards?, pass?, label?, kind?}.
 *  @param {any} table the frame's table @param {string} game
 *  @returns {{entries: {seat: number, cards: string[], pass: boolean, kind?: string, label?: string}[], leader: number | null, winning: number | null}} */
export function liveTrick(table, game) {
  if (game === 'shengji') {
    const entries = (table.trick || []).map((/** @type {any} */ e) => ({ seat: e.seat, cards: cardList(e.cards), pass: false }));
    return { entries, leader: entries.length ? entries[0].seat : null, winning: table.winning ?? null };
  }
  const entries = (table.trick || []).map((/** @type {any} */ e) => ({
    seat: e.seat, cards: e.action === 'pass' ? [] : cardList((e.play || {}).cards), pass: e.action === 'pass',
    kind: (e.play || {}).kind, label: (e.play || {}).label,
  }));
  return { entries, leader: table.leader ?? (entries.length ? entries[0].seat : null),
           winning: table.table ? (table.table_seat ?? null) : null };
}

/** The trick just completed (None while none): Shengji's last trick with its winner and points;
 *  Guandan's last round of plays (its winner: the seat of the last play that stood).
 *  @param {any} table @param {string} game */
export function completedTrick(table, game) {
  if (game === 'shengji') {
    const last = table.last_trick;
    if (!last || !last.plays || !last.plays.length) return null;
    return { entries: last.plays.map((/** @type {any[]} */ p) => ({ seat: p[0], cards: cardList(p[1]), pass: false })),
             leader: last.leader, winning: last.winner, points: last.points || 0,
             key: 's' + table.deal + '.' + (table.tricks_played || 0) };
  }
  const last = table.last_trick || [];
  if (!last.length) return null;
  const plays = last.filter((/** @type {any} */ e) => e.action !== 'pass');
  const winner = plays.length ? plays[plays.length - 1].seat : null;
  return { entries: last.map((/** @type {any} */ e) => ({ seat: e.seat, cards: e.action === 'pass' ? [] : cardList((e.play || {}).cards),
                                    pass: e.action === 'pass', kind: (e.play || {}).kind, label: (e.play || {}).label })),
           leader: last[0].seat, winning: winner, points: 0,
           key: 'g' + table.deal_no + '.' + (table.trick_no || 0) + '.' + last.length };
}

/** The point cards (5, 10, K) among cards. @param {string[]} cards */
export function pointCards(cards) {
  return cards.filter((c) => /^[♠♥♣♦](5|10|K)$/.test(c));
}

/** The rows of a deal's summary sheet, from the engine's deal summary (``last_deal``); every number is
 *  the engine's.  @param {Texts} texts @param {string} game @param {any} d @param {string[]} names
 *  @param {string} lang @param {(seat: number) => string} seatName
 *  @returns {{title: string, rows: [string, string][], result: string}} */
export function summaryRows(texts, game, d, names, lang, seatName) {
  const who = (/** @type {number} */ s) => seatName(s) + ' ' + (names[s] || '');
  const side = (/** @type {number} */ s) => tr(texts, 'web.side' + s);
  /** @type {[string, string][]} */
  const rows = [];
  if (game === 'shengji') {
    const before = d.levels_before || [2, 2], after = d.levels_after || before;
    const charges = (d.charges || []).reduce((/** @type {number} */ a, /** @type {any} */ c) => a + Number(c.signed || 0), 0);
    rows.push([tr(texts, 'page.sum.dealer'), who(d.dealer) + ' · ' + tr(texts, 'page.sum.level', { level: rankText(d.level) })
      + (d.trump !== null && d.trump !== undefined ? ' · ' + SUITS[d.trump] : '')]);
    rows.push([tr(texts, 'page.sum.tricks'), String(d.trick_points)]);
    const kitty = cardList(d.kitty).map((c) => cardLabel(c, lang)).join(' ');
    rows.push([tr(texts, 'page.sum.kitty'), kitty + (d.capture ? ' · ' + tr(texts, 'page.sum.capture', { mult: d.capture_multiplier, n: d.capture })
      : ' · ' + tr(texts, 'page.sum.kitty_kept'))]);
    if (charges) rows.push([tr(texts, 'page.sum.charges'), (charges > 0 ? '+' : '') + charges]);
    rows.push([tr(texts, 'page.sum.points'), String(d.points)]);
    let result;
    if (d.forfeit !== null && d.forfeit !== undefined) result = tr(texts, 'page.sum.forfeit', { who: who(d.forfeit) }) + ' · ';
    else result = '';
    const role = d.winner_role === 'dealer' ? 'dealers' : 'defenders';
    if (role === 'defenders') result += tr(texts, d.steps ? 'page.sum.takeover_up' : 'page.sum.takeover', { side: side(d.winner), steps: d.steps });
    else result += d.steps ? tr(texts, 'page.sum.up', { side: side(d.winner), steps: d.steps }) : tr(texts, 'page.sum.hold', { side: side(d.winner) });
    rows.push([tr(texts, 'page.sum.levels'), side(0) + ' ' + rankText(before[0]) + '→' + rankText(after[0]) + ' · '
      + side(1) + ' ' + rankText(before[1]) + '→' + rankText(after[1])]);
    if (d.next_dealer !== null && d.next_dealer !== undefined) rows.push([tr(texts, 'page.sum.next'), who(d.next_dealer)]);
    return { title: tr(texts, 'page.sum.title', { n: d.deal_no }), rows, result };
  }
  const order = d.order || [];
  order.forEach((/** @type {number} */ s, /** @type {number} */ i) => rows.push([tr(texts, 'gd.place' + Math.min(i + 1, 4)), who(s)]));
  const lv = (d.levels || []).map((/** @type {number} */ x) => rankText(x));
  rows.push([tr(texts, 'page.sum.levels'), side(0) + ' ' + (lv[0] || '') + ' · ' + side(1) + ' ' + (lv[1] || '')]);
  if ((d.reset_sides || []).length) rows.push([tr(texts, 'page.sum.a_rule'), d.reset_sides.map(side).join(', ')]);
  if (order.length) rows.push([tr(texts, 'page.sum.next_tribute'), tr(texts, 'page.sum.tribute_' + (d.result || '1-4'))]);
  const result = d.winner_side !== null && d.winner_side !== undefined
    ? tr(texts, 'page.sum.gd_up', { side: side(d.winner_side), gain: d.gain, why: tr(texts, 'page.sum.why_' + d.result) }) : '';
  return { title: tr(texts, 'page.sum.title', { n: d.deal_no }), rows, result };
}

/** Seconds left until ``deadline`` (epoch ms) at ``now`` (epoch ms, server time). @param {number} deadline @param {number} now */
export function secondsLeft(deadline, now) {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** "1:05:09", "4:05", "9" @param {number} s */
export function clockText(s) {
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  if (h) return h + ':' + String(m).padStart(2, '0') + ':' + String(r).padStart(2, '0');
  if (m) return m + ':' + String(r).padStart(2, '0');
  return String(r);
}

/** A state frame of the match the page shows at an older version than it shows: not drawn (the server sends a
 *  socket no frame older than one it sent it; this is the page's own guard). @param {any} shown the frame on
 *  the page, or null @param {any} next */
export function olderFrame(shown, next) {
  return !!shown && shown.match === next.match && next.version < shown.version;
}

/** Shengji: the seat with the dealer's star (null: none yet, or Guandan). Once a deal is over it stays on that
 *  deal's dealer until the next deal begins: the engine names the next dealer at once, so the star moved, and
 *  the seats' boxes with it, as the last trick was won, before the summary said why.  @param {any} f a frame
 *  @returns {number | null} */
export function shownDealer(f) {
  if (f.game !== 'shengji') return null;
  const p = f.table;
  const over = p.phase === 'deal_over' || p.phase === 'match_over' || f.status === 'finished';
  const seat = over && p.last_deal ? p.last_deal.dealer : p.dealer;
  return seat === undefined ? null : seat;
}

/** Nobody has played a card of this deal yet (its start: the page shows the dealing banner).
 *  @param {any} f a frame */
export function freshDeal(f) {
  const p = f.table;
  if (f.status !== 'playing') return false;
  if (f.game === 'shengji') return ['dealing', 'window', 'blackout'].indexOf(p.phase) >= 0;
  return (p.trick_no || 1) === 1 && !(p.trick || []).length && !(p.last_trick || []).length
    && !(p.finish_order || []).length && ['play', 'tribute', 'return'].indexOf(p.phase) >= 0;
}

/** The dealing banner's lines: the deal's number, both sides' levels, who deals (Shengji; the first
 *  deal: whoever declares first) or who leads (Guandan).  @param {Texts} texts @param {any} f a frame
 *  @param {(seat: number) => string} seatName @returns {string[]} */
export function dealBanner(texts, f, seatName) {
  const p = f.table, sj = f.game === 'shengji';
  const lines = [tr(texts, 'page.deal_start', { n: sj ? p.deal : p.deal_no })];
  const lv = sj ? (p.levels || [2, 2]).map(rankText) : (p.level_texts || []);
  if (lv.length === 2) lines.push(tr(texts, 'web.side0') + ' ' + lv[0] + ' · ' + tr(texts, 'web.side1') + ' ' + lv[1]);
  const who = (/** @type {number} */ s) => seatName(s) + ' ' + (f.names[s] || '');
  if (sj) lines.push(p.dealer !== null && p.dealer !== undefined ? tr(texts, 'page.deal_by', { who: who(p.dealer) }) : tr(texts, 'page.deal_open'));
  else if (p.leader !== null && p.leader !== undefined) lines.push(tr(texts, 'page.deal_lead', { who: who(p.leader) }));
  return lines;
}
