/* The table page: one WebSocket to the bot; every frame is the whole view for this viewer.
   No build step, no external resources (Telegram's telegram-web-app.js is loaded only inside Telegram). */
(function () {
  'use strict';
  var SEATS = { zh: ['南', '东', '北', '西'], en: ['S', 'E', 'N', 'W'] };
  var POS = ['bottom', 'right', 'top', 'left'];
  var S = { ws: null, texts: {}, lang: 'zh', seat: null, match: null, frame: null, sel: [], handKey: '',
            pending: null, fatal: false, retry: 0, offset: 0, overlay: null };
  window.__table = S;  // read by the browser tests

  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function tr(key, params) {
    var text = S.texts[key] || key;
    if (params) Object.keys(params).forEach(function (k) { text = text.split('{' + k + '}').join(String(params[k])); });
    return text;
  }
  function hashParams() { return new URLSearchParams((location.hash || '').replace(/^#/, '')); }
  function initData() {
    var tg = window.Telegram && window.Telegram.WebApp;
    if (tg && tg.initData) return tg.initData;
    return hashParams().get('tgWebAppData') || '';
  }
  function loadTelegram() {  // only inside Telegram; a page without it works the same
    if (!hashParams().get('tgWebAppPlatform')) return;
    var s = document.createElement('script');
    s.src = 'https://telegram.org/js/telegram-web-app.js';
    s.onload = function () { try { Telegram.WebApp.ready(); Telegram.WebApp.expand(); } catch (e) { /* tolerated */ } };
    s.onerror = function () { /* tolerated: initData comes from the URL too */ };
    document.head.appendChild(s);
  }

  // --- cards ------------------------------------------------------------------------------
  function cardParts(text) {
    if (text === 'BJ') return { rank: S.lang === 'zh' ? '大王' : 'BJ', suit: '', red: true, joker: true };
    if (text === 'SJ') return { rank: S.lang === 'zh' ? '小王' : 'SJ', suit: '', red: false, joker: true };
    var suit = text.charAt(0);
    return { rank: text.slice(1), suit: suit, red: suit === '♥' || suit === '♦', joker: false };
  }
  function cardLabel(text) { var p = cardParts(text); return p.joker ? p.rank : p.suit + p.rank; }
  function cardsLabel(texts) { return (texts || '').split(' ').filter(Boolean).map(cardLabel).join(' '); }
  function mini(text) {
    var p = cardParts(text);
    var c = el('span', 'mini' + (p.red ? ' red' : ''));
    c.appendChild(el('span', null, p.joker ? (S.lang === 'zh' ? p.rank.charAt(0) : p.rank) : p.rank));
    c.appendChild(el('span', null, p.joker ? '🃏' : p.suit));
    c.title = cardLabel(text);
    return c;
  }
  function cardsRow(texts) {
    var row = el('span');
    (Array.isArray(texts) ? texts : String(texts || '').split(' ')).filter(Boolean).forEach(function (t) { row.appendChild(mini(t)); });
    return row;
  }

  // --- connection ---------------------------------------------------------------------------
  function connect() {
    if (S.fatal) return;
    setConn(S.frame ? tr('web.reconnecting') : tr('web.connecting'), true);
    var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var ws = new WebSocket(proto + '//' + location.host + '/ws');
    S.ws = ws;
    ws.onopen = function () {
      S.retry = 0;
      var m = new URLSearchParams(location.search).get('m');
      ws.send(JSON.stringify({ type: 'hello', init: initData(), match: S.match || (m ? Number(m) : null),
                               version: S.frame ? S.frame.version : null }));
    };
    ws.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = function () {
      if (S.ws !== ws) return;
      S.ws = null;
      if (S.fatal) return;
      setConn(tr('web.reconnecting'), true);
      var delay = Math.min(5000, 250 * Math.pow(2, S.retry++));
      setTimeout(connect, delay);
    };
  }
  function send(obj) {
    if (!S.ws || S.ws.readyState !== 1) return false;
    S.ws.send(JSON.stringify(obj));
    return true;
  }
  function setConn(text, bad) { var c = $('conn'); c.textContent = text || ''; c.className = 'conn' + (bad ? ' bad' : ''); }

  function onMessage(msg) {
    if (msg.type === 'hello') {
      S.texts = msg.texts || {}; S.lang = msg.lang; S.seat = msg.seat; S.match = msg.match;
      document.documentElement.lang = S.lang === 'zh' ? 'zh' : 'en';
      if (msg.dev) { $('dev').hidden = false; $('dev').textContent = tr('web.dev'); }
      setConn(S.seat === null ? tr('web.spectating') : '', false);
      if (S.pending) send(S.pending);  // a request whose answer was lost: the same id is applied at most once
    } else if (msg.type === 'state') {
      S.offset = msg.now - Date.now();
      S.frame = msg;
      render();
    } else if (msg.type === 'ack') {
      if (S.pending && msg.id === S.pending.id) S.pending = null;
      if (!msg.ok) {
        if (msg.readings) chooseReading(msg.readings);
        else toast(msg.error);
      } else { S.sel = []; }
      render();
    } else if (msg.type === 'error') {
      toast(msg.message);
      if (msg.fatal) { S.fatal = true; setConn(msg.message, true); $('status').textContent = msg.message; }
    }
  }

  var counter = 0;
  function act(op, cards, arg) {
    if (!S.frame || S.pending) return;
    var req = { type: 'act', id: 'r' + Date.now().toString(36) + (counter++) + Math.random().toString(36).slice(2, 8),
                version: S.frame.version, op: op, cards: cards || [], arg: arg || null };
    S.pending = req;
    if (!send(req)) { /* sent again after the reconnect's hello */ }
    renderActions();
  }

  // --- rendering ----------------------------------------------------------------------------
  function seatName(seat) { return (SEATS[S.lang] || SEATS.zh)[seat]; }
  function pub() { return S.frame.table; }
  function handFlat() {
    var me = S.frame.me; if (!me) return [];
    var out = []; me.hand.forEach(function (g) { g.cards.forEach(function (c) { out.push(c); }); });
    return out;
  }
  function selectedCards() { var h = handFlat(); return S.sel.map(function (i) { return h[i]; }).filter(Boolean); }
  function requiredTurns() { return (pub().turns || []).filter(function (t) { return t.required !== false; }); }
  function levelText(x) { return ({ 11: 'J', 12: 'Q', 13: 'K', 14: 'A' })[x] || String(x); }

  function render() {
    var f = S.frame; if (!f) return;
    var p = pub(), sj = f.game === 'shengji';
    var key = JSON.stringify(f.me ? f.me.hand : null);
    if (key !== S.handKey) { S.handKey = key; S.sel = []; }
    // title
    var title = tr('table.deal_no', { n: sj ? p.deal : (p.deal_no || 0) });
    if (sj && p.level) title += ' · ' + tr('table.playing_level', { level: levelText(p.level) });
    if (!sj && p.level_text) title += ' · ' + tr('table.playing_level', { level: p.level_text });
    if (sj && (p.trump !== null && p.trump !== undefined)) title += ' · ' + tr('table.trump', { trump: ['♠', '♥', '♣', '♦'][p.trump] || p.trump });
    else if (sj && ['play', 'choose', 'late', 'bury', 'rebury'].indexOf(p.phase) >= 0) title += ' · ' + tr('table.no_trump');
    $('title').textContent = title;
    // info: levels, points, declaration, counts
    var info = $('info'); info.innerHTML = '';
    var lv = sj ? (p.levels || [2, 2]).map(levelText) : (p.level_texts || []);
    if (lv.length === 2) info.appendChild(el('span', null, tr('web.side0') + ' ' + lv[0] + ' · ' + tr('web.side1') + ' ' + lv[1]));
    if (sj && ['play', 'choose'].indexOf(p.phase) >= 0) info.appendChild(el('span', null, tr('web.points', { n: p.points || 0 })));
    if (sj && p.declaration && ['dealing', 'window', 'blackout', 'bury', 'late'].indexOf(p.phase) >= 0) {
      info.appendChild(el('span', null, tr('table.declared', { who: f.names[p.declaration.seat], cards: cardsLabel(p.declaration.cards) })));
    }
    if (!sj && p.table && p.phase === 'play') {
      info.appendChild(el('span', null, tr('gd.on_table', { who: f.names[p.table_seat] || '', label: p.table.label })));
    }
    renderSeats();
    renderTrick();
    renderStatus();
    renderExtra();
    renderHand();
    renderActions();
    tick();
  }

  function renderSeats() {
    var f = S.frame, p = pub(), sj = f.game === 'shengji';
    var base = S.seat === null ? 0 : S.seat;
    var turnSeats = requiredTurns().map(function (t) { return t.seat; });
    var places = {};
    (p.finish_order || []).forEach(function (s, i) { places[s] = tr('gd.place' + Math.min(i + 1, 4)); });
    for (var k = 0; k < 4; k++) {
      var seat = (base + k) % 4, box = $('seat-' + POS[k]);
      box.innerHTML = '';
      box.className = 'seat' + (turnSeats.indexOf(seat) >= 0 && f.status === 'playing' ? ' turn' : '');
      box.dataset.seat = seat;
      var name = seatName(seat) + ' ' + (f.names[seat] || '?');
      if (sj && p.dealer === seat) name += ' ★' + tr('web.dealer');
      box.appendChild(el('div', 'name', name));
      var meta = [];
      var count = sj ? (p.hand_sizes || [])[seat] : (p.counts ? p.counts[seat] : (S.seat === seat && f.me ? f.me.hand_size : null));
      if (count === 'more_than_10') count = '>10';
      if (count !== null && count !== undefined) meta.push(tr('web.cards_n', { n: count }));
      if (places[seat]) meta.push(places[seat]);
      var m = el('div', 'meta', meta.join(' · '));
      if (f.clock && f.clock.seat === seat && f.clock.deadline) {
        var c = el('span', 'clock'); c.dataset.deadline = f.clock.deadline; m.appendChild(document.createTextNode(' ')); m.appendChild(c);
      }
      box.appendChild(m);
    }
  }

  function lastPerSeat(entries) {
    var out = {};
    (entries || []).forEach(function (e) { if (Array.isArray(e)) e = { seat: e[0], cards: e[1] }; out[e.seat] = e; });
    return out;
  }
  function playNode(e, sj) {
    if (!sj && e.action === 'pass') return el('span', 'pass', tr('gd.pass'));
    var cards = sj ? e.cards : (e.play || {}).cards;
    return cardsRow(cards);
  }
  function renderTrick() {
    var f = S.frame, p = pub(), sj = f.game === 'shengji';
    var base = S.seat === null ? 0 : S.seat;
    var entries = lastPerSeat(p.trick);
    for (var k = 0; k < 4; k++) {
      var seat = (base + k) % 4, box = $('play-' + POS[k]);
      box.innerHTML = '';
      if (entries[seat]) box.appendChild(playNode(entries[seat], sj));
    }
  }

  function renderStatus() {
    var f = S.frame, p = pub(), sj = f.game === 'shengji', st = $('status');
    var text = '', mine = false;
    if (f.status === 'finished') {
      var r = p.result;
      text = r && r.winner !== undefined && r.winner !== null ? tr('web.match_over', { side: tr('web.side' + r.winner) }) : tr('web.match_stopped');
    } else if (p.phase === 'paused' || f.status === 'paused') text = tr('table.paused');
    else if (sj && p.phase === 'dealing') text = tr('table.dealing', { n: p.cards_dealt || 0, total: 100 });
    else {
      var turns = requiredTurns();
      mine = f.me && (f.me.actions.turns || []).length && turns.some(function (t) { return t.seat === S.seat; });
      if (mine) text = tr('web.your_turn') + ': ' + tr('turn.' + turns.filter(function (t) { return t.seat === S.seat; })[0].kind);
      else if (turns.length) text = tr('table.turn', { who: seatName(turns[0].seat) + ' ' + f.names[turns[0].seat], what: tr('turn.' + turns[0].kind) });
      else if (sj && (p.phase === 'window' || p.phase === 'blackout')) text = tr('table.bid_window');
      else if (p.phase === 'deal_over') text = tr('table.deal_over');
    }
    st.textContent = text;
    st.className = mine ? 'mine' : '';
  }

  function renderExtra() {
    var f = S.frame, p = pub(), box = $('extra');
    box.innerHTML = '';
    var me = f.me || {};
    if (me.kitty) box.appendChild(el('div', null, tr('web.kitty', { cards: me.kitty.map(cardLabel).join(' ') })));
    if (me.my_return) box.appendChild(el('div', null, tr('gd.my_return', { frm: f.names[me.my_return.from], to: f.names[me.my_return.to], card: cardLabel(me.my_return.card) })));
    if (p.tribute && p.tribute.paid && Object.keys(p.tribute.paid).length && (p.phase === 'tribute' || p.phase === 'return')) {
      box.appendChild(el('div', null, tr('gd.tribute_paid', { list: Object.keys(p.tribute.paid).map(function (s) { return f.names[s] + ' ' + cardLabel(p.tribute.paid[s]); }).join(', ') })));
    }
    if (p.counts_asked && p.counts_asked.answer && p.phase === 'play') {
      var ans = p.counts_asked.answer;
      box.appendChild(el('div', null, tr('gd.counts', { list: Object.keys(ans).sort().map(function (s) { return seatName(Number(s)) + ' ' + (ans[s] === 'more_than_10' ? '>10' : ans[s]); }).join(' · ') })));
    }
    if (me.actions && me.actions.bury) box.appendChild(el('div', null, tr('web.bury_hint', { n: me.actions.bury })));
  }

  function renderHand() {
    var f = S.frame, box = $('hand');
    box.innerHTML = '';
    if (!f.me) return;
    var i = 0;
    f.me.hand.forEach(function (g) {
      var grp = el('div', 'group');
      g.cards.forEach(function (text) {
        var p = cardParts(text), idx = i++;
        var c = el('div', 'card' + (p.red ? ' red' : '') + (g.label === 'trump' ? ' trump' : '') + (p.joker ? ' joker' : '') +
                   (S.sel.indexOf(idx) >= 0 ? ' sel' : ''));
        c.appendChild(el('span', 'r', p.rank));
        if (!p.joker) c.appendChild(el('span', 's', p.suit));
        c.dataset.card = text; c.dataset.i = idx;
        c.onclick = function () { toggle(idx); };
        grp.appendChild(c);
      });
      box.appendChild(grp);
    });
  }
  function toggle(idx) {
    var at = S.sel.indexOf(idx);
    if (at >= 0) S.sel.splice(at, 1); else S.sel.push(idx);
    renderHand(); renderActions();
  }

  function button(text, onclick, cls, disabled, op, extra) {
    var b = el('button', cls || '', text);
    b.onclick = onclick; b.disabled = !!disabled || !!S.pending;
    if (op) b.dataset.op = op;
    if (extra) b.dataset.arg = extra;
    return b;
  }
  function renderActions() {
    var f = S.frame, nav = $('actions');
    nav.innerHTML = '';
    if (!f) return;
    var p = pub(), sj = f.game === 'shengji', a = (f.me && f.me.actions) || {}, n = S.sel.length;
    if (f.me && f.status === 'playing') {
      (a.bids || []).forEach(function (b) {
        nav.appendChild(button(tr(b.verb === 'overturn' ? 'btn.overturn' : 'btn.bid', { cards: cardsLabel(b.cards) }),
          function () { act(b.verb, b.cards.split(' ')); }, '', false, b.verb, b.cards));
      });
      if (a.pass_bid) nav.appendChild(button(tr('btn.pass_bid'), function () { act('pass_bid'); }, 'secondary', false, 'pass_bid'));
      if (a.pass_overturn) nav.appendChild(button(tr('btn.pass_overturn'), function () { act('pass_bid'); }, 'secondary', false, 'pass_bid'));
      if (a.bury) nav.appendChild(button(tr('btn.bury', { n: n }), function () { act('bury', selectedCards()); }, '', n !== a.bury, 'bury'));
      if (a.play) nav.appendChild(button(tr('btn.play', { n: n }), function () { act('play', selectedCards()); }, '', !n, 'play'));
      if (a.pass) nav.appendChild(button(tr('btn.pass'), function () { act('pass'); }, 'secondary', false, 'pass'));
      (a.choose || []).forEach(function (opt) { nav.appendChild(button(tr('btn.choose_' + opt), function () { act('choose', [], opt); }, '', false, 'choose', opt)); });
      if (a.tribute) nav.appendChild(button(tr('btn.tribute', { n: n }), function () { act('tribute', selectedCards()); }, '', n !== 1, 'tribute'));
      if (a['return']) nav.appendChild(button(tr('btn.return', { n: n }), function () { act('tribute', selectedCards()); }, '', n !== 1, 'tribute'));
      if (a.ask_counts) nav.appendChild(button(tr('btn.ask_counts'), function () { act('ask_counts'); }, 'secondary', false, 'ask_counts'));
      if (n) nav.appendChild(button(tr('btn.clear'), function () { S.sel = []; render(); }, 'secondary', false, 'clear'));
    }
    var last = sj ? (p.last_trick && p.last_trick.plays) : p.last_trick;
    if (last && last.length) nav.appendChild(button(tr('web.last_trick'), function () { showLastTrick(); }, 'secondary', false, 'last_trick'));
  }

  function sheet(build) {
    var o = $('overlay'), s = $('sheet');
    s.innerHTML = ''; build(s); o.hidden = false;
    o.onclick = function (ev) { if (ev.target === o) o.hidden = true; };
  }
  function closeSheet() { $('overlay').hidden = true; }
  function showLastTrick() {
    var f = S.frame, p = pub(), sj = f.game === 'shengji';
    var entries = sj ? (p.last_trick.plays || []).map(function (e) { return { seat: e[0], cards: e[1] }; }) : p.last_trick;
    sheet(function (s) {
      s.appendChild(el('b', null, tr('web.last_trick')));
      entries.forEach(function (e) {
        var row = el('div', 'row');
        row.appendChild(el('span', null, seatName(e.seat) + ' ' + f.names[e.seat]));
        row.appendChild(playNode(e, sj));
        s.appendChild(row);
      });
      s.appendChild(button(tr('web.close'), closeSheet, 'secondary'));
    });
  }
  function chooseReading(options) {
    var cards = selectedCards();
    sheet(function (s) {
      s.appendChild(el('div', null, tr('web.choose_reading')));
      options.forEach(function (o) {
        var b = button(tr('btn.play_as', { label: o.label }), function () { closeSheet(); act('play', cards, o.id); });
        b.disabled = false; b.dataset.reading = o.id; s.appendChild(b);
      });
      var c = button(tr('web.close'), closeSheet, 'secondary'); c.disabled = false; s.appendChild(c);
    });
  }

  var toastTimer = null;
  function toast(text) {
    if (!text) return;
    S.lastError = text;
    var t = $('toast'); t.textContent = text; t.hidden = false;
    clearTimeout(toastTimer); toastTimer = setTimeout(function () { t.hidden = true; }, 3500);
  }

  function tick() {
    var nodes = document.querySelectorAll('.clock');
    for (var i = 0; i < nodes.length; i++) {
      var left = Math.max(0, Math.ceil((Number(nodes[i].dataset.deadline) - (Date.now() + S.offset)) / 1000));
      nodes[i].textContent = '⏱ ' + left + 's';
      nodes[i].className = 'clock' + (left <= 5 ? ' low' : '');
    }
  }
  setInterval(tick, 250);

  loadTelegram();
  connect();
})();
