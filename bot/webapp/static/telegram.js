// @ts-check
/* At home in Telegram: theme colours, safe areas, the stable viewport height, MainButton /
   SecondaryButton / BackButton, haptics, vertical swipes and the closing confirmation.  Every call is
   guarded: outside Telegram (or on an older client) ``tg()`` is null and the page uses its own buttons. */

/** @returns {any} Telegram.WebApp when the page runs inside Telegram (or a test's stub), else null */
export function tg() {
  const w = /** @type {any} */ (window);
  const app = w.Telegram && w.Telegram.WebApp;
  return app && (app.initData || app.platform && app.platform !== 'unknown') ? app : null;
}

/** Is a feature of Bot API ``version`` there? @param {any} app @param {string} version */
function atLeast(app, version) {
  try { return typeof app.isVersionAtLeast !== 'function' || app.isVersionAtLeast(version); } catch (e) { return false; }
}

const THEME_KEYS = ['bg_color', 'text_color', 'hint_color', 'link_color', 'button_color', 'button_text_color',
  'secondary_bg_color', 'header_bg_color', 'accent_text_color', 'section_bg_color', 'section_header_text_color',
  'subtitle_text_color', 'destructive_text_color', 'bottom_bar_bg_color'];

/** Copies themeParams, safe-area insets and the stable height into CSS variables. @param {any} app */
function applyEnvironment(app) {
  const root = document.documentElement.style;
  const theme = app.themeParams || {};
  for (const k of THEME_KEYS) {
    if (theme[k]) root.setProperty('--tg-theme-' + k.replace(/_/g, '-'), theme[k]);
  }
  document.documentElement.dataset.scheme = app.colorScheme === 'light' ? 'light' : 'dark';
  for (const [name, inset] of [['safe', app.safeAreaInset], ['content', app.contentSafeAreaInset]]) {
    for (const side of ['top', 'bottom', 'left', 'right']) {
      root.setProperty(`--tg-${name}-${side}`, ((inset && inset[side]) || 0) + 'px');
    }
  }
  if (app.viewportStableHeight) root.setProperty('--tg-stable-height', app.viewportStableHeight + 'px');
}

/** Starts the Telegram side once (ready, expand, no vertical swipe, theme and viewport followed). */
export function startTelegram() {
  const app = tg();
  if (!app) return null;
  try {
    applyEnvironment(app);
    for (const ev of ['themeChanged', 'viewportChanged', 'safeAreaChanged', 'contentSafeAreaChanged']) {
      // the hand's width follows the insets (app.js recomputes it on resize)
      app.onEvent && app.onEvent(ev, () => { applyEnvironment(app); window.dispatchEvent(new Event('resize')); });
    }
    app.ready && app.ready();
    app.expand && app.expand();
    if (atLeast(app, '7.7') && app.disableVerticalSwipes) app.disableVerticalSwipes();
  } catch (e) { /* an older client: the page works without it */ }
  document.documentElement.classList.add('in-telegram');
  return app;
}

/** @typedef {{text: string, onClick: () => void, enabled: boolean} | null} BarButton */

/** One of Telegram's bottom buttons (MainButton, SecondaryButton) showing ``want`` (null: hidden);
 *  returns false when the client has no such button (the page then shows its own). */
const bound = /** @type {Record<string, (() => void) | null>} */ ({ MainButton: null, SecondaryButton: null, BackButton: null });
/** @param {'MainButton' | 'SecondaryButton'} which @param {BarButton} want @returns {boolean} */
export function setBarButton(which, want) {
  const app = tg();
  const b = app && app[which];
  if (!b || (which === 'SecondaryButton' && !atLeast(app, '7.10'))) return false;
  try {
    if (bound[which]) { b.offClick(bound[which]); bound[which] = null; }
    if (!want) { b.hide(); return true; }
    b.setText(want.text);
    if (want.enabled) b.enable(); else b.disable();
    bound[which] = want.onClick;
    b.onClick(want.onClick);
    b.show();
    return true;
  } catch (e) { return false; }
}

/** BackButton: shown while a sheet is open; its press closes the sheet. @param {(() => void) | null} onBack */
export function setBackButton(onBack) {
  const app = tg();
  const b = app && app.BackButton;
  if (!b) return;
  try {
    if (bound.BackButton) { b.offClick(bound.BackButton); bound.BackButton = null; }
    if (onBack) { bound.BackButton = onBack; b.onClick(onBack); b.show(); } else b.hide();
  } catch (e) { /* tolerated */ }
}

/** @param {'select' | 'error' | 'turn' | 'success'} kind */
export function haptic(kind) {
  const app = tg();
  const h = app && app.HapticFeedback;
  if (!h) return;
  try {
    if (kind === 'select') h.selectionChanged();
    else if (kind === 'turn') h.impactOccurred('medium');
    else h.notificationOccurred(kind);
  } catch (e) { /* tolerated */ }
}

let confirming = false;
/** Asks before closing while ``on`` (the player's turn). @param {boolean} on */
export function closingConfirmation(on) {
  const app = tg();
  if (!app || on === confirming) return;
  confirming = on;
  try { if (on) app.enableClosingConfirmation(); else app.disableClosingConfirmation(); } catch (e) { /* tolerated */ }
}
