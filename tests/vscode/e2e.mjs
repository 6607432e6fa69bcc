// Real VS Code (code-server) end-to-end test of the Beagle extension, driven by playwright-core in
// headless Debian Chromium. One browser session; every step takes a screenshot into the artifacts
// folder. Run by tests/vscode/run.sh:  node e2e.mjs <base-url> <workspace-folder> <artifacts-dir>
import { createRequire } from 'module';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { generateSeff, repositoryXml } from '../../benchmarks/diagram/generate.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PW_CORE || 'playwright-core');

const base = process.argv[2] || 'http://127.0.0.1:8080';
const folder = process.argv[3] || './fileshare';
const art = process.argv[4] || '.';
fs.mkdirSync(art, { recursive: true });
const t0 = Date.now();
const log = (m) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
let passed = 0, failed = 0;
const failures = [];
let page;
const shot = async (name) => {
  await page.screenshot({ path: path.join(art, `${name}.png`) }).catch((e) => log(`(screenshot ${name}: ${e.message})`));
};
// A step: passes when fn returns (its return value is logged), fails on a throw (with a screenshot).
// `needs` names a step that must have passed, else this one fails at once (no long waits on a dead run).
const ok = new Set();
const step = async (name, fn, needs = []) => {
  const missing = needs.filter((n) => !ok.has(n));
  if (missing.length) {
    failed++; failures.push(name); log(`FAIL ${name}: skipped, needs: ${missing.join(', ')}`);
    return;
  }
  const s = Date.now();
  try {
    const r = await fn();
    passed++; ok.add(name);
    log(`ok   ${name} (${((Date.now() - s) / 1000).toFixed(1)}s)${r ? '  ' + r : ''}`);
  } catch (e) {
    failed++; failures.push(name);
    log(`FAIL ${name}: ${String(e && e.message || e).split('\n').slice(0, 3).join(' | ')}`);
    await shot(`fail-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
    await page.keyboard.press('Escape').catch(() => {});
  }
};
// Retries fn (which throws when not there yet) until it returns or the time is up.
const retry = async (what, fn, { timeout = 30000, pause = 1000 } = {}) => {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try { return await fn(); } catch (e) { if (e && e.fatal) throw e; last = e; }
    if (Date.now() > end) throw new Error(`${what}: ${last && last.message.split('\n')[0]}`);
    await page.waitForTimeout(pause);
  }
};
const short = (s, n = 160) => JSON.stringify(s.replace(/\s+/g, ' ').trim().slice(0, n));

// Screen position of the middle of `needle` in the editor's rendered lines (Monaco renders only
// the visible lines; spaces may be U+00A0). Null when not on screen.
const textPos = (needle) => page.evaluate((needle) => {
  for (const line of document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')) {
    const text = line.textContent.replace(/\u00a0/g, ' ');
    const at = text.indexOf(needle);
    if (at < 0) continue;
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    let offset = 0, node, start = null, end = null;
    const mid = at + Math.floor(needle.length / 2);
    while ((node = walker.nextNode())) {
      const len = node.textContent.length;
      if (start === null && mid < offset + len) { start = [node, mid - offset]; end = [node, mid - offset + 1]; }
      offset += len;
    }
    if (!start) continue;
    const range = document.createRange();
    range.setStart(...start); range.setEnd(...end);
    const r = range.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const p = { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    // on screen, not scrolled away or covered
    if (!line.contains(document.elementFromPoint(p.x, p.y))) continue;
    return p;
  }
  return null;
}, needle);

// Puts `needle` on screen: Ctrl+G to a line that has it is not possible without knowing the line,
// so use the find widget (it scrolls and selects the match), then close it.
const reveal = async (needle) => {
  if (await textPos(needle)) return;
  await findNext(needle);
  // The editor scrolls to the match and renders it on its next frames: waited for, not assumed
  // done after findNext's fixed pauses (a busy machine renders late).
  await retry(`text on screen: ${needle}`, async () => {
    if (!(await textPos(needle))) throw new Error('not on screen');
  }, { timeout: 10000, pause: 200 });
};

// Selects the next match of `needle` through the find widget (Enter selects it; Escape closes the
// widget and leaves the selection) and scrolls it into view.
const findNext = async (needle) => {
  await editorFocus();
  await page.keyboard.press('Control+F');
  const input = page.locator('.editor-instance .find-widget textarea, .editor-instance .find-widget input').first();
  await input.waitFor({ timeout: 5000 });
  await input.fill(needle);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await closeFind();
};

// Puts the cursor on the first `needle`: no click, which could land on a code lens when lenses
// refresh and the lines move.
const cursorTo = async (needle) => {
  await editorFocus();
  await page.keyboard.press('Control+Home');
  await findNext(needle);
};

let editor;
const closeFind = async () => {
  const input = page.locator('.editor-instance .find-widget.visible textarea, .editor-instance .find-widget.visible input').first();
  for (let i = 0; i < 5 && await input.isVisible(); i++) {
    await input.focus();
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
  }
};
// Focuses the model's editor by clicking its tab (a click into the text could hit a code lens,
// which would start an analysis).
const editorFocus = async () => {
  await page.locator('.tab', { hasText: 'fileshare.repository' }).first().click();
  await page.mouse.move(5, 450); // no tab tooltip left over the editor's hovers
  await page.waitForTimeout(300);
};
// Count of `needle` in the whole document, from the find widget ("1 of 3" / "No results").
const countInEditor = async (needle) => {
  await editorFocus();
  await page.keyboard.press('Control+F');
  const input = page.locator('.editor-instance .find-widget textarea, .editor-instance .find-widget input').first();
  await input.waitFor({ timeout: 5000 });
  await input.fill(needle);
  await page.waitForTimeout(500);
  const count = (await page.locator('.editor-instance .find-widget .matchesCount').first().innerText()).trim();
  await closeFind();
  const m = count.match(/of (\d+)/);
  return m ? Number(m[1]) : 0;
};

// The hover over `needle` once it contains `want`: the mouse first; every other try, the keyboard
// (click on the text, then Ctrl+K Ctrl+I = editor.action.showHover).
const hoverText = async (needle, want, { timeout = 60000 } = {}) => {
  await reveal(needle);
  let i = 0;
  return retry(`hover over ${needle} showing ${want}`, async () => {
    await page.mouse.move(5, 450);
    await page.waitForTimeout(200);
    const p = await textPos(needle);
    if (!p) throw new Error('not on screen');
    if (i++ % 2 === 0) {
      await page.mouse.move(p.x, p.y);
    } else {
      await page.mouse.click(p.x, p.y);
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
    }
    const hover = page.locator('.monaco-hover:visible', { hasText: want }).first();
    await hover.waitFor({ timeout: 4000 });
    return hover.innerText();
  }, { timeout });
};

// Clicks a context-menu entry; a click while the menu is still settling is sometimes lost (the
// menu stays open with the entry highlighted), so click again, then try Enter, while it is open.
const clickMenuItem = async (item) => {
  for (let i = 0; i < 4; i++) {
    if (i === 3) { await page.keyboard.press('Enter'); }
    else { try { await item.click({ timeout: 5000 }); } catch (e) { if (!(await item.isVisible())) return; } }
    try { await item.waitFor({ state: 'hidden', timeout: 1500 }); return; } catch (e) { log(`(menu entry still open after try ${i + 1})`); }
  }
  throw new Error('the context menu entry does not react');
};

// Right-clicks `needle` in the editor until the context menu shows `entry` (context-menu
// contributions appear a few seconds after the workbench, when the extension host has scanned).
const editorMenu = async (needle, entry, shotName) => {
  await reveal(needle);
  const item = page.getByRole('menuitem', { name: entry });
  await retry(`editor context menu entry ${entry}`, async () => {
    const p = await textPos(needle);
    if (!p) throw new Error('not on screen');
    await page.mouse.click(p.x, p.y);
    await page.mouse.click(p.x, p.y, { button: 'right' });
    try { await item.first().waitFor({ timeout: 2500 }); } catch (e) { await page.keyboard.press('Escape'); throw e; }
  }, { timeout: 60000 });
  if (shotName) await shot(shotName);
  await clickMenuItem(item.first());
};

// Right-clicks fileshare.repository in the explorer until its context menu shows "Beagle: Analyse
// Repository"; returns that entry.
const openExplorerMenu = async () => {
  const file = page.getByRole('treeitem', { name: 'fileshare.repository' }).first();
  const item = page.getByRole('menuitem', { name: 'Beagle: Analyse Repository' });
  await retry('explorer menu entry', async () => {
    await file.click({ button: 'right' });
    try { await item.first().waitFor({ timeout: 2500 }); } catch (e) { await page.keyboard.press('Escape'); throw e; }
  }, { timeout: 60000 });
  return item;
};

// Runs a command through the command palette (F1), by its title.
const palette = async (title) => {
  await retry(`palette entry ${title}`, async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 5000 });
    await input.fill('>' + title);
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 3000 });
    await row.click();
  }, { timeout: 30000 });
};

const toast = (re) => page.locator('.notifications-toasts .notification-list-item', { hasText: re });

const udd = fs.mkdtempSync(path.join(os.tmpdir(), 'beagle-chromium-'));
const ctx = await chromium.launchPersistentContext(udd, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  viewport: { width: 1400, height: 900 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-dev-shm-usage',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
ctx.setDefaultTimeout(30000);
page = ctx.pages()[0] || await ctx.newPage();
const consoleLog = fs.createWriteStream(path.join(art, 'browser-console.log'));
page.on('console', (m) => consoleLog.write(`[${m.type()}] ${m.text()}\n`));
page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.message}\n`));

try {
  await step('workbench loads with the workspace', async () => {
    await page.goto(`${base}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 90000 });
    await page.getByRole('treeitem', { name: 'model' }).first().waitFor({ timeout: 60000 });
  });

  await step('open model/fileshare.repository', async () => {
    const aux = page.locator('.part.auxiliarybar');
    if (await aux.isVisible()) await page.keyboard.press('Control+Alt+B');
    const file = page.getByRole('treeitem', { name: 'fileshare.repository' }).first();
    await retry('expand model/', async () => {
      if (!(await file.isVisible())) await page.getByRole('treeitem', { name: 'model' }).first().click();
      await file.waitFor({ timeout: 3000 });
    });
    await file.click();
    editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines', { hasText: 'repository:Repository' }).waitFor({ timeout: 30000 });
  }, ['workbench loads with the workspace']);

  await step('language mode is PCM Repository', async () => {
    await page.locator('.statusbar').getByText('PCM Repository', { exact: true }).waitFor({ timeout: 60000 });
    await shot('01-editor');
  }, ['open model/fileshare.repository']);

  await step('the Beagle status bar item is there', async () => {
    const item = page.locator('.statusbar-item', { hasText: /Beagle/ }).first();
    await item.waitFor({ timeout: 60000 });
    return short(await item.innerText());
  }, ['open model/fileshare.repository']);

  await step('hover over a component shows a Beagle hover', async () => {
    const text = await hoverText('entityName="BusinessCore"', 'BusinessCore');
    await page.waitForTimeout(800); // the hover fades in
    await shot('02-hover-component');
    if (!/BasicComponent|SEFFs|Not analysed/.test(text)) throw new Error('hover text: ' + short(text));
    return short(text);
  }, ['language mode is PCM Repository']);
  await page.mouse.move(5, 450);

  await step('explorer context menu has "Beagle: Analyse Repository" on the .repository file', async () => {
    await openExplorerMenu();
    await shot('03-explorer-menu');
    await page.keyboard.press('Escape');
  }, ['open model/fileshare.repository']);

  await step('command palette lists the Beagle commands', async () => {
    const want = ['Beagle: Pause Analysis', 'Beagle: Resume Analysis', 'Beagle: Abort Analysis', 'Beagle: Analyse Workspace'];
    await page.keyboard.press('Escape');
    await editorFocus();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10000 });
    await input.fill('>Beagle');
    const missing = await retry('palette entries', async () => {
      const rows = await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts();
      const m = want.filter((w) => !rows.some((r) => r.includes(w)));
      if (m.length) throw new Error('missing ' + m.join(', ') + '; rows: ' + rows.join(' | '));
      return m;
    }, { timeout: 20000 });
    await shot('04-palette');
    await page.keyboard.press('Escape');
    return missing.length ? 'missing ' + missing : '';
  }, ['open model/fileshare.repository']);

  await step('editor context menu: "Beagle: Analyse Component" on BusinessCore', async () => {
    await editorMenu('entityName="BusinessCore"', 'Beagle: Analyse Component', '05-context-menu');
  }, ['language mode is PCM Repository']);

  let asked = false;
  await step('progress is shown (after "Allow and remember" if the server asks)', async () => {
    const allow = page.getByRole('button', { name: 'Allow and remember' });
    const progress = page.locator('.notifications-toasts .notification-list-item, .statusbar-item', { hasText: /Beagle: (analysing|.*\d+\s*%)/ });
    let seen = null;
    await retry('progress', async () => {
      if (!asked && await allow.first().isVisible()) {
        await shot('06-trust-question');
        await allow.first().click();
        asked = true;
      }
      if (await progress.first().isVisible()) { seen = await progress.first().innerText(); return; }
      if (await toast(/Beagle: .*done/).first().isVisible()) { seen = 'already done'; return; }
      throw new Error('no progress yet');
    }, { timeout: 90000, pause: 250 });
    await shot('07-progress');
    // a second look a bit later, for a screenshot with a percentage
    await page.waitForTimeout(3000);
    const pct = page.locator('.statusbar-item', { hasText: /Beagle: .*\d+\s*%/ }).first();
    if (await pct.isVisible()) { seen += ' / ' + await pct.innerText(); await shot('07-progress-percent'); }
    return (asked ? 'asked, allowed; ' : 'not asked; ') + short(seen);
  }, ['editor context menu: "Beagle: Analyse Component" on BusinessCore']);

  await step('the analysis ends with a "done" notification', async () => {
    const done = toast(/Beagle: .*done/).first();
    const bad = toast(/Beagle: .*(failed|aborted)/).first();
    await retry('done notification', async () => {
      if (await bad.isVisible()) throw Object.assign(new Error('outcome: ' + await bad.innerText()), { fatal: true });
      if (!asked && await page.getByRole('button', { name: 'Allow and remember' }).first().isVisible()) {
        await page.getByRole('button', { name: 'Allow and remember' }).first().click(); asked = true;
      }
      await done.waitFor({ timeout: 1000 });
    }, { timeout: 300000, pause: 500 });
    await page.waitForTimeout(1000); // the toast fades in
    await shot('08-done');
    return short(await done.innerText());
  }, ['editor context menu: "Beagle: Analyse Component" on BusinessCore']);

  await step('the editor holds fitted expressions (workspace edit applied)', async () => {
    const n = await retry('files.NUMBER_OF_ELEMENTS in the text', async () => {
      const c = await countInEditor('files.NUMBER_OF_ELEMENTS');
      if (!c) throw new Error('not found');
      return c;
    }, { timeout: 30000 });
    await reveal('entityName="file loop"');
    await shot('09-applied-edits');
    return `${n} occurrences of files.NUMBER_OF_ELEMENTS`;
  }, ['the analysis ends with a "done" notification']);

  const ACTION = 'entityName="partition files"';
  await step('hover over the analysed internal action shows the expression', async () => {
    const text = await hoverText(ACTION, 'files.NUMBER_OF_ELEMENTS', { timeout: 30000 });
    await page.waitForTimeout(800); // the hover fades in
    await shot('10-hover-expression');
    if (!/InternalAction/.test(text)) throw new Error('hover text: ' + short(text));
    return short(text, 240);
  }, ['the analysis ends with a "done" notification']);
  await page.mouse.move(5, 450);

  await step('hover over the analysed loop shows its iteration count', async () => {
    const text = await hoverText('entityName="file loop"', 'files.NUMBER_OF_ELEMENTS', { timeout: 30000 });
    await page.waitForTimeout(800); // the hover fades in
    await shot('10-hover-loop');
    if (!/LoopAction/.test(text)) throw new Error('hover text: ' + short(text));
    return short(text, 240);
  }, ['the analysis ends with a "done" notification']);
  await page.mouse.move(5, 450);

  // Waits until the results view's chart canvas has something painted; its size and pixels.
  const chartDrawn = (canvas) => retry('chart drawn', async () => {
    const d = await canvas.evaluate((c) => {
      if (!c.width || !c.height) return null;
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
      return { w: c.width, h: c.height, painted };
    });
    if (!d || d.painted < 500) throw new Error('canvas empty: ' + JSON.stringify(d));
    return d;
  }, { timeout: 20000 });

  // Show Results with the cursor on `needle`: a webview panel "Beagle Results: <name>" whose
  // inner iframe (code-server: iframe.webview > iframe#active-frame) has the chart and the table.
  const showResults = async (needle, name, shotName) => {
    await page.keyboard.press('Escape');
    await cursorTo(needle);
    await palette('Beagle: Show Results');
    const tab = page.locator('.tab', { hasText: `Beagle Results: ${name}` }).first();
    await tab.waitFor({ timeout: 30000 });
    const webview = page.frameLocator('iframe.webview.ready:visible').last().frameLocator('iframe#active-frame');
    const rows = webview.locator('#points tbody tr');
    await rows.first().waitFor({ timeout: 30000 });
    const canvas = webview.locator('canvas#chart');
    await canvas.waitFor({ timeout: 10000 });
    const drawn = await chartDrawn(canvas);
    const n = await rows.count();
    const title = await tab.innerText();
    const quality = await webview.locator('#quality').innerText().catch(() => '');
    await page.waitForTimeout(800); // chart animation
    await shot(shotName);
    if (n < 2) throw new Error(`only ${n} rows in #points`);
    // The evidence behind the result: distinct points, constants supported, held-out error.
    if (!/Points\s+\d+ distinct/.test(quality) || !/at most \d+ supported/.test(quality)) {
      throw new Error(`no evidence rows in #quality: ${short(quality, 300)}`);
    }
    const reasons = await webview.locator('#reasons li').allInnerTexts();
    if (/Preliminary/.test(quality) !== reasons.length > 0) {
      throw new Error(`status and reasons disagree: ${short(quality, 200)}; reasons ${JSON.stringify(reasons)}`);
    }
    return `tab ${short(title)}, ${n} rows, canvas ${drawn.w}x${drawn.h} with ${drawn.painted} painted pixels; quality ${short(quality, 300)}; reasons ${short(reasons.join(' | '), 200)}`;
  };

  await step('"Beagle: Show Results" on the internal action: chart and table', async () => {
    const r = await showResults(ACTION, 'partition files', '11-results-view');
    // A big screenshot for the README: side bar hidden, the sash between the groups dragged left.
    try {
      await page.keyboard.press('Escape');
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(800);
      const group = page.locator('.editor-group-container', { has: page.locator('.tab', { hasText: 'Beagle Results' }) }).first();
      const box = await group.boundingBox();
      await page.mouse.move(box.x, 450);
      await page.mouse.down();
      await page.mouse.move(box.x - 200, 450, { steps: 5 });
      await page.mouse.move(380, 450, { steps: 5 });
      await page.mouse.up();
      await page.mouse.move(700, 880); // off the sash (it is drawn highlighted under the mouse)
      await page.waitForTimeout(1500);
      await shot('12-results-view-wide');
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(500);
    } catch (e) { log('(no wide screenshot: ' + e.message.split('\n')[0] + ')'); await page.keyboard.press('Escape'); }
    return r;
  }, ['the analysis ends with a "done" notification']);

  await step('"Beagle: Show Results" on the loop: chart and table', async () => {
    await editorFocus();
    await page.keyboard.press('Control+Home');
    return showResults('entityName="file loop"', 'file loop', '13-results-view-loop');
  }, ['the analysis ends with a "done" notification']);

  // The whole repository from the explorer's context menu, then pause, resume and abort from the
  // palette, read off the status bar item and the outcome notification.
  const statusItem = page.locator('.statusbar-item', { hasText: /Beagle/ }).first();
  // Polls the status bar item until its text passes `ok`.
  const statusUntil = (what, ok) => retry(what, async () => {
    const t = await statusItem.innerText();
    if (!ok(t)) throw new Error('status bar: ' + t);
  }, { timeout: 30000, pause: 250 });
  await step('explorer menu "Beagle: Analyse Repository" starts an analysis', async () => {
    await page.keyboard.press('Escape');
    // dismiss old notifications, so that the next outcome is the one seen
    await palette('Notifications: Clear All Notifications').catch(() => {});
    const item = await openExplorerMenu();
    await clickMenuItem(item.first());
    await retry('running', async () => {
      const t = await statusItem.innerText();
      if (!/%/.test(t)) {
        const toasts = await page.locator('.notifications-toasts .notification-list-item').allInnerTexts();
        throw new Error('status bar: ' + t + '; notifications: ' + toasts.map((x) => short(x, 120)).join(' | '));
      }
    }, { timeout: 60000, pause: 250 });
    await shot('14-repository-running');
    return short(await statusItem.innerText());
  }, ['the analysis ends with a "done" notification']);

  await step('"Beagle: Pause Analysis" pauses it (status bar)', async () => {
    await palette('Beagle: Pause Analysis');
    await statusUntil('paused', (t) => /paused/i.test(t));
    await shot('15-paused');
    return short(await statusItem.innerText());
  }, ['explorer menu "Beagle: Analyse Repository" starts an analysis']);

  await step('"Beagle: Resume Analysis" resumes it', async () => {
    await palette('Beagle: Resume Analysis');
    await statusUntil('resumed', (t) => !/paused/i.test(t));
    return short(await statusItem.innerText());
  }, ['"Beagle: Pause Analysis" pauses it (status bar)']);

  await step('"Beagle: Abort Analysis" aborts it (notification)', async () => {
    await palette('Beagle: Abort Analysis');
    const aborted = toast(/Beagle: .*aborted/).first();
    await aborted.waitFor({ timeout: 60000 });
    await page.waitForTimeout(800);
    await shot('16-aborted');
    await statusUntil('idle', (t) => !/%|paused/.test(t));
    return short(await aborted.innerText());
  }, ['explorer menu "Beagle: Analyse Repository" starts an analysis']);

  // Issue 19: the whole repository analysed to the end (callees included, so the upload's
  // prediction is complete) and validated on fresh points; then the upload SEFF's lens and
  // results view show the whole service, its predicted total over the measured totals.
  await step('explorer menu "Beagle: Analyse Repository" runs to the end', async () => {
    await page.keyboard.press('Escape');
    await palette('Notifications: Clear All Notifications').catch(() => {});
    const item = await openExplorerMenu();
    await clickMenuItem(item.first());
    const done = toast(/Beagle: .*done/).first();
    const bad = toast(/Beagle: .*(failed|aborted)/).first();
    await retry('done notification', async () => {
      if (await bad.isVisible()) throw Object.assign(new Error('outcome: ' + await bad.innerText()), { fatal: true });
      await done.waitFor({ timeout: 1000 });
    }, { timeout: 420000, pause: 500 });
    return short(await done.innerText());
  }, ['"Beagle: Abort Analysis" aborts it (notification)']);

  await step('the upload SEFF\'s lens: predicted vs measured on fresh points', async () => {
    await editorFocus();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Escape');
    await reveal('id="_fs_upload_seff"');
    const lens = page.locator('.contentWidgets .codelens-decoration, .monaco-editor .codelens-decoration', { hasText: /predicted vs measured/ }).first();
    const text = await retry('validation lens', async () => {
      const t = await lens.innerText();
      if (!/\d/.test(t)) throw new Error('lens: ' + t);
      return t;
    }, { timeout: 60000, pause: 500 });
    const median = Number((/([\d.]+)\s*%\s*median/.exec(text) || [])[1]);
    // Every callee analysed: the composed laws predict the measured totals (issue 19's benchmark
    // gives 7 % median); a callee left at its 0 placeholder would give ~100 %.
    if (!(median < 40)) throw new Error('lens: ' + text);
    // Issue 41: the SEFF's state lens says what a reader needs first: how many results are final
    // and how many preliminary, and the service's validation error (no "R² ≥").
    const states = await page.locator('.contentWidgets .codelens-decoration, .monaco-editor .codelens-decoration', { hasText: /Beagle: \d+ results/ }).allInnerTexts();
    const form = /Beagle: (\d+) results, (\d+) final, (\d+) preliminary; (validation error (≤ )?[\d.]+ %|not validated)/;
    for (const t of states) {
      const m = form.exec(t);
      if (!m || /R²/.test(t) || Number(m[2]) + Number(m[3]) !== Number(m[1])) throw new Error('state lens: ' + t);
    }
    const stateText = states.find((t) => /validation error/.test(t));
    if (!stateText) throw new Error('no state lens with a validation error: ' + states.join(' | '));
    // A screenshot of the lenses for the docs: the results views closed, the side bar hidden.
    try {
      await editorFocus();
      await palette('View: Close Editors in Other Groups');
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(800);
      await reveal('id="_fs_upload_seff"');
      await page.keyboard.press('Home'); // the line's start: no horizontal scroll
      await page.keyboard.press('Home');
      await page.mouse.move(700, 880);
      await page.waitForTimeout(800);
      await shot('16b-lenses');
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(500);
    } catch (e) { log('(no lens screenshot: ' + e.message.split('\n')[0] + ')'); await page.keyboard.press('Escape'); }
    return short(text) + ' | ' + short(stateText);
  }, ['explorer menu "Beagle: Analyse Repository" runs to the end']);

  await step('"Beagle: Show Results" on the upload SEFF: the service prediction over its measured totals', async () => {
    await page.keyboard.press('Escape');
    await cursorTo('id="_fs_upload_seff"');
    await palette('Beagle: Show Results');
    const tab = page.locator('.tab', { hasText: 'Beagle Results: BusinessCore.upload' }).first();
    await tab.waitFor({ timeout: 30000 });
    const webview = page.frameLocator('iframe.webview.ready:visible').last().frameLocator('iframe#active-frame');
    const rows = webview.locator('#points tbody tr');
    await rows.first().waitFor({ timeout: 30000 });
    const chosen = await webview.locator('#result option:checked').innerText();
    if (!/BusinessCore\.upload: whole service/.test(chosen)) throw new Error(`selected result: ${chosen}`);
    // Over the input the total depends on most (the files, not the few already compressed).
    const parameter = await webview.locator('#parameter').inputValue();
    if (!/^files\./.test(parameter)) throw new Error(`shown over ${parameter}`);
    const canvas = webview.locator('canvas#chart');
    const drawn = await chartDrawn(canvas);
    const n = await rows.count();
    await page.waitForTimeout(800); // chart animation
    await shot('17-service-prediction');
    if (n < 2) throw new Error(`only ${n} measured points`);
    return `${short(chosen)} over ${parameter}, ${n} measured points, canvas ${drawn.w}x${drawn.h} with ${drawn.painted} painted pixels`;
  }, ['explorer menu "Beagle: Analyse Repository" runs to the end']);

  // Issue 22: the SEFF diagram. The upload SEFF from the editor's context menu: its actions
  // nested as in the model, with the laws the analyses above fitted; a click on a node selects
  // its element in the editor, the cursor in the editor highlights its node, the node's menu
  // opens its results; the repository overview from the explorer; a generated 200-action SEFF
  // for the layout time (benchmarks/diagram).
  // The frame of the diagram webview whose title matches (code-server: iframe.webview >
  // iframe#active-frame; several webviews may be open, so found by content).
  const diagramFrame = (title) => retry(`diagram ${title}`, async () => {
    for (const f of page.frames()) {
      if (!(await f.locator('svg#diagram').count().catch(() => 0))) continue;
      const t = await f.locator('#title').innerText().catch(() => '');
      if (title.test(t)) return f;
    }
    throw new Error('no such diagram frame yet');
  }, { timeout: 30000, pause: 500 });
  const nodeText = (f, id, cls) => f.locator(`g.node[data-id="${id}"] > text.${cls}`).first().textContent();
  let uploadDiagram;

  await step('editor context menu "Beagle: Show SEFF Diagram" opens the upload SEFF with its actions nested', async () => {
    await page.keyboard.press('Escape');
    await editorFocus();
    await page.keyboard.press('Control+Home');
    await editorMenu('id="_fs_upload_seff"', 'Beagle: Show SEFF Diagram', '18-diagram-menu');
    await page.locator('.tab', { hasText: 'Beagle SEFF: IUpload.upload' }).first().waitFor({ timeout: 30000 });
    const f = await diagramFrame(/IUpload\.upload/);
    await retry('nodes drawn', async () => {
      const n = await f.locator('g.node').count();
      if (n < 19) throw new Error(`${n} nodes`);
    }, { timeout: 30000, pause: 500 });
    const kinds = await f.locator('g.node').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-kind')));
    const count = (k) => kinds.filter((x) => x === k).length;
    if (count('LoopAction') !== 2 || count('StartAction') !== 5 || count('StopAction') !== 5 || count('ExternalCallAction') !== 4) {
      throw new Error('kinds: ' + JSON.stringify(kinds));
    }
    // nesting: the compress call inside a loop, the store call inside a branch transition
    if (!(await f.locator('g.node[data-kind="LoopAction"] g.node[data-id="_fs_compress_call"]').count())) throw new Error('compress call not inside its loop');
    if (!(await f.locator('g.node[data-id="_fs_accept"] g.container.body g.node[data-id="_fs_store_call"]').count())) throw new Error('store call not inside its transition');
    const name = await nodeText(f, '_fs_partition', 'name');
    // after the analyses the internal action shows its fitted law, not the model's placeholder 0
    // (with one repetition and no genetic programming it may be a constant), the loop its count
    const law = await retry('fitted laws', async () => {
      const l = await nodeText(f, '_fs_partition', 'law');
      const loop = await nodeText(f, '_fs_file_loop', 'law');
      if (l.trim() === '0' || l.trim() === '' || !/files\.NUMBER_OF_ELEMENTS/.test(loop)) throw new Error(`laws: ${l}; ${loop}`);
      return `${l}; file loop: ${loop}`;
    }, { timeout: 20000, pause: 500 });
    const status = await f.locator('g.node[data-id="_fs_partition"]').getAttribute('data-status');
    if (status === 'unmeasured') throw new Error('partition files is unmeasured');
    const edges = await f.locator('path.edge').count();
    const layoutMs = await f.locator('body').getAttribute('data-layout-ms');
    const prediction = await f.locator('#prediction').innerText();
    const inputs = await f.locator('#inputs input[data-input]').evaluateAll((xs) => xs.map((x) => `${x.dataset.input}=${x.value}`));
    const shares = await f.locator('text.share').allTextContents();
    await page.waitForTimeout(500);
    await shot('19-seff-diagram');
    // A wide screenshot for the README: the side bar hidden, the diagram fitted.
    try {
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(800);
      await f.locator('#fit').click();
      await page.mouse.move(700, 880);
      await page.waitForTimeout(500);
      await shot('19-seff-diagram-wide');
      await editorFocus();
      await page.keyboard.press('Control+B');
      await page.waitForTimeout(500);
    } catch (e) { log('(no wide screenshot: ' + e.message.split('\n')[0] + ')'); await page.keyboard.press('Escape'); }
    uploadDiagram = f;
    return `${kinds.length} nodes, ${edges} edges; ${short(name)}: ${short(law)} (${status}); layout ${layoutMs} ms; ${short(prediction)}; inputs ${inputs.join(', ')}; shares ${shares.join(' ')}`;
  }, ['the analysis ends with a "done" notification']);

  await step('a click on a diagram node selects its element in the editor', async () => {
    const f = uploadDiagram;
    const name = (await nodeText(f, '_fs_partition', 'name')).trim();
    await f.locator('g.node[data-id="_fs_partition"]').click();
    await retry('selected in the editor', async () => {
      // the find widget starts with the editor's selection
      await editorFocus();
      await page.keyboard.press('Control+F');
      const input = page.locator('.editor-instance .find-widget textarea, .editor-instance .find-widget input').first();
      await input.waitFor({ timeout: 5000 });
      const selected = await input.inputValue();
      await closeFind();
      if (selected !== name) throw new Error(`selection ${JSON.stringify(selected)}, node ${JSON.stringify(name)}`);
    }, { timeout: 15000 });
    await shot('20-diagram-click-selects');
    return `selected ${JSON.stringify(name)}`;
  }, ['editor context menu "Beagle: Show SEFF Diagram" opens the upload SEFF with its actions nested']);

  await step('the cursor in the editor highlights its node in the diagram', async () => {
    const f = uploadDiagram;
    await cursorTo('id="_fs_is_listed_call"'); // unique (the signature has the same entityName)
    const id = await retry('highlight', async () => {
      const sel = await f.locator('g.node.selected').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-id')));
      if (sel.length !== 1 || sel[0] !== '_fs_is_listed_call') throw new Error('selected: ' + JSON.stringify(sel));
      return sel[0];
    }, { timeout: 15000, pause: 300 });
    await shot('21-diagram-follows-cursor');
    return id;
  }, ['editor context menu "Beagle: Show SEFF Diagram" opens the upload SEFF with its actions nested']);

  await step('a node\'s context menu "Show results" opens its results', async () => {
    const f = uploadDiagram;
    await f.locator('g.node[data-id="_fs_partition"]').click({ button: 'right' });
    const menu = f.locator('#menu');
    await menu.waitFor({ state: 'visible', timeout: 5000 });
    const entries = await menu.locator('button').allInnerTexts();
    await shot('22-diagram-node-menu');
    await menu.getByText('Show results').click();
    await page.locator('.tab', { hasText: 'Beagle Results: partition files' }).first().waitFor({ timeout: 30000 });
    return `menu ${entries.join(' | ')}`;
  }, ['editor context menu "Beagle: Show SEFF Diagram" opens the upload SEFF with its actions nested']);

  await step('explorer menu "Beagle: Show SEFF Diagram" opens the repository overview; its SEFF opens the diagram', async () => {
    const file = page.getByRole('treeitem', { name: 'fileshare.repository' }).first();
    const item = page.getByRole('menuitem', { name: 'Beagle: Show SEFF Diagram' });
    // Menu, entry and tab again as a whole: in one CI run the entry was clicked and the menu
    // closed, but the command never ran (no tab, nothing in Beagle's log). Running it again
    // reveals the panel it opened, if it did.
    let tries = 0;
    await retry('overview from the explorer menu', async () => {
      tries += 1;
      await page.keyboard.press('Escape');
      await retry('explorer menu entry', async () => {
        await file.click({ button: 'right' });
        try { await item.first().waitFor({ timeout: 2500 }); } catch (e) { await page.keyboard.press('Escape'); throw e; }
      }, { timeout: 30000 });
      await clickMenuItem(item.first());
      await page.locator('.tab', { hasText: 'Beagle Repository: FileShare' }).first().waitFor({ timeout: 15000 });
    }, { timeout: 60000 });
    if (tries > 1) log(`(the overview opened on try ${tries})`);
    const f = await diagramFrame(/FileShare/);
    await retry('components drawn', async () => {
      if ((await f.locator('g.component').count()) < 7) throw new Error('components: ' + await f.locator('g.component').count());
    }, { timeout: 20000, pause: 500 });
    const components = await f.locator('g.component > text.name').allTextContents();
    const edges = await f.locator('path.edge').count();
    // The overview is laid out by ELK in the extension's layout thread.
    const laid = await f.locator('body').evaluate((b) => ({ engine: b.dataset.engine, threadMs: b.dataset.threadMs, warmUpRuns: b.dataset.warmUpRuns }));
    if (laid.engine !== 'elk' || !(Number(laid.threadMs) >= 0) || laid.threadMs === '') throw new Error(`overview layout: ${JSON.stringify(laid)}`);
    await f.locator('#fit').click(); // the whole overview in a narrow panel
    await page.waitForTimeout(500);
    await shot('23-repository-overview');
    await f.locator('text.seff[data-seff="_fs_store_seff"]').click();
    await page.locator('.tab', { hasText: 'Beagle SEFF: IStorage.store' }).first().waitFor({ timeout: 30000 });
    if (edges < 4) throw new Error(`${edges} edges`);
    return `${components.join(', ')}; ${edges} edges (ELK in the layout thread: ${laid.threadMs} ms after ${laid.warmUpRuns} warm-up layouts); opened IStorage.store`;
  }, ['open model/fileshare.repository']);

  await step('a generated 200-action SEFF: its diagram and layout time', async () => {
    await page.keyboard.press('Escape');
    const gen = generateSeff(200, 6); // the benchmark's 200-action SEFF
    fs.writeFileSync(path.join(folder, 'model', 'generated200.repository'), repositoryXml(gen, 'Generated200'));
    const file = page.getByRole('treeitem', { name: 'generated200.repository' }).first();
    await file.waitFor({ timeout: 30000 });
    const item = page.getByRole('menuitem', { name: 'Beagle: Show SEFF Diagram' });
    await retry('explorer menu entry', async () => {
      await file.click({ button: 'right' });
      try { await item.first().waitFor({ timeout: 2500 }); } catch (e) { await page.keyboard.press('Escape'); throw e; }
    }, { timeout: 30000 });
    await clickMenuItem(item.first());
    const overview = await diagramFrame(/Generated200/);
    await overview.locator('text.seff[data-seff="_g_seff"]').click();
    const f = await diagramFrame(/IGenerated\.run/);
    const drawn = await retry('200 nodes drawn', async () => {
      const n = await f.locator('g.node').count();
      const ms = await f.locator('body').getAttribute('data-layout-ms');
      if (n !== 200 || !ms) throw new Error(`${n} nodes, layout ${ms} ms`);
      const data = await f.locator('body').evaluate((b) => ({ ...b.dataset }));
      return {
        nodes: n,
        edges: await f.locator('path.edge').count(),
        layoutMs: Number(ms),
        engine: data.engine,
        convertMs: Number(data.convertMs),
        layoutOnlyMs: Number(data.layoutOnlyMs),
        drawMs: Number(data.drawMs),
      };
    }, { timeout: 60000, pause: 500 });
    await page.waitForTimeout(500);
    await shot('24-generated-200');
    fs.writeFileSync(path.join(art, 'diagram-layout.json'), JSON.stringify({ ...drawn, actions: gen.actions, seed: gen.seed, counts: gen.counts }, null, 1) + '\n');
    if (drawn.engine !== 'chains') throw new Error(`laid out by ${drawn.engine}, not as chains`);
    return `${drawn.nodes} nodes, ${drawn.edges} edges laid out and drawn in ${drawn.layoutMs} ms (webview performance.now: conversion ${drawn.convertMs} ms, layout ${drawn.layoutOnlyMs} ms as chains, SVG ${drawn.drawMs} ms)`;
  }, ['open model/fileshare.repository']);
} catch (e) {
  failed++; failures.push('driver');
  log('FAIL driver: ' + e.message.split('\n')[0]);
  await shot('fail-driver');
} finally {
  // The extension's output channel, as the workbench shows it, for the artifacts.
  consoleLog.end();
  await ctx.close().catch(() => {});
  fs.rmSync(udd, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed${failures.length ? ': ' + failures.join('; ') : ''}`);
process.exit(failed ? 1 : 0);
