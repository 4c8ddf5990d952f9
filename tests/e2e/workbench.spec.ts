/**
 * The playground as a workbench: at 1400×900 the controls, the calls with their Stop buttons,
 * the timeline and the wire log share one screen (so Stop and the cancel it writes are seen
 * together), the rest is one tab away, a phone never scrolls sideways, a keyboard reaches Call
 * in a few Tabs, the timeline and the wire log agree on the selected frame, and a long run's
 * timeline accounts for every frame however many share a pixel, drawn to the whole run's scale
 * while a long replay is read in.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { defaultScenario, permalinkOf } from '../../src/scenario/index.ts';
import { libraryEntry } from '../../src/scenario/library.ts';

async function open(page: Page): Promise<void> {
  await page.goto('/playground/');
  await expect(page.locator('.playground')).toHaveAttribute('data-ready', 'true');
}

/** Calls slow_count slowly enough that Stop lands while it runs. */
async function callSlowCount(page: Page): Promise<Locator> {
  await page.locator('#arg-stepMs').fill('1000');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const row = page.locator('#calls-table tbody tr[data-call="#1"]');
  await expect(row.locator('td').nth(4)).toHaveText(/^1 \/ 5/);
  return row;
}

/** The element is drawn wholly inside the window, as it stands (not scrolled to). */
async function expectOnScreen(page: Page, what: Locator): Promise<void> {
  // A wire row the log redraws (its delivery or duration came in) is replaced by its new self, and
  // one found just before is gone when measured: measure again until one stands still for it.
  const measured: { box: Awaited<ReturnType<Locator['boundingBox']>> } = { box: null };
  await expect.poll(async () => (measured.box = await what.boundingBox()), { message: 'drawn' }).not.toBeNull();
  const { box } = measured;
  const size = page.viewportSize();
  if (!box || !size) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height);
}

test('at 1400×900 the controls, the calls, the timeline and the wire log are on one screen, and so is the cancel Stop sends', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  const row = await callSlowCount(page);
  const stop = row.getByRole('button', { name: 'Stop #1' });
  const wire = page.locator('section.wire');
  for (const part of [page.locator('section.setup'), page.locator('#call-form'), page.locator('#play'), stop, page.locator('#timeline svg'), page.getByRole('tablist', { name: 'Run details' })]) {
    await expectOnScreen(page, part);
  }
  // The calls pane shows the whole row, its Stop button not cut off at the pane's edge.
  const overflow = () => page.locator('.calls-scroll').evaluate((pane) => pane.scrollWidth - pane.clientWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  // The wire log starts on screen and its scrolling pane ends inside the window, not past it.
  await expectOnScreen(page, wire.getByRole('heading', { name: 'Wire log' }));
  await expectOnScreen(page, wire.locator('#wire-scroll'));
  await stop.click();
  const cancel = page.locator('#wire-table tbody td').filter({ hasText: /^notifications\/cancelled/ });
  await expect(cancel).toHaveCount(1);
  await expectOnScreen(page, cancel);
  // So is its request id, the column after the method, without scrolling the log sideways.
  const idCell = page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' }).locator('td').nth(7);
  await expect(idCell).toHaveText('1');
  const inPane = await idCell.evaluate((cell) => {
    const pane = cell.closest('.wire-scroll');
    if (pane === null) return false;
    const left = pane.getBoundingClientRect().left + pane.clientLeft;
    const box = cell.getBoundingClientRect();
    return box.left >= left && box.right <= left + pane.clientWidth;
  });
  expect(inPane).toBe(true);
  // A stopped call's row (its state history, Inject late) fits too.
  await expect(row.locator('.state').first()).toHaveText('STOPPED_LOCALLY');
  expect(await overflow()).toBeLessThanOrEqual(0);
  // The log follows its tail: the newest frame is wholly inside the pane, not cut off at its foot.
  await expect
    .poll(() =>
      page.locator('#wire-scroll').evaluate((pane) => {
        const newest = pane.querySelector('tbody tr:last-child')?.getBoundingClientRect();
        const box = pane.getBoundingClientRect();
        return newest !== undefined && newest.top >= box.top && newest.bottom <= box.top + pane.clientTop + pane.clientHeight + 0.5;
      }),
    )
    .toBe(true);
  // The cancel's arrow itself (its label may run on past the plot, which clips it).
  await expectOnScreen(page, page.locator('#timeline .tl-arrow.cancel path.line'));
  expect(await page.evaluate(() => [window.scrollX, window.scrollY])).toEqual([0, 0]);
});

test('the wire log keeps room for the message at every width: stdio drops the empty stream and framing columns, HTTP shows them', async ({ page }) => {
  /** Each column head's drawn width, by its text. */
  const widths = () =>
    page.locator('#wire-table thead th').evaluateAll((heads) => Object.fromEntries(heads.map((th) => [th.textContent?.trim() ?? '', th.getBoundingClientRect().width])));
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await open(page);
    const stdio = await widths();
    // Squeezed to what the other columns left, the message was 0 px wide up to 1,900 px.
    expect(stdio.Message).toBeGreaterThanOrEqual(300);
    expect([stdio.Stream, stdio.Framing]).toEqual([0, 0]);
  }
  await page.locator('#transport').selectOption('streamable-http');
  await expect(page.locator('#wire-caption')).toContainText('HTTP wire');
  const http = await widths();
  expect(http.Message).toBeGreaterThanOrEqual(300);
  expect(http.Stream).toBeGreaterThan(0);
  expect(http.Framing).toBeGreaterThan(0);
});

test('the wire log\'s method chips wrap beside the controls, so the one that hides progress is there to click; the calls\' strip keeps three in view', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  await page.locator('#arg-steps').fill('30');
  await page.locator('#arg-stepMs').fill('1000');
  for (let i = 1; i <= 6; i++) await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#6"] td').nth(4)).toHaveText(/^1 \/ 30/);
  const progress = page.locator('#wire-methods label').filter({ hasText: 'notifications/progress' });
  await expectOnScreen(page, progress);
  await progress.click();
  await expect(page.locator('#wire-table tbody td').filter({ hasText: /^notifications\/progress/ })).toHaveCount(0);
  // Six calls' progress bars take three rows of room, and the frames keep theirs.
  const strip = page.locator('#wire-calls');
  expect(await strip.evaluate((list) => list.scrollHeight > list.clientHeight)).toBe(true);
  const fifth = await page.locator('#wire-table tbody tr').nth(4).boundingBox();
  expect(fifth === null ? Infinity : fifth.y + fifth.height).toBeLessThanOrEqual(900);
});

test('Stop stays the button a user is on while progress comes in: focused from the keyboard, and pressed with the mouse between two steps', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  await page.locator('#arg-steps').fill('1000');
  await page.locator('#arg-stepMs').fill('50');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const row = page.locator('#calls-table tbody tr[data-call="#1"]');
  const stop = row.getByRole('button', { name: 'Stop #1' });
  await stop.focus();
  // Steps of 50 ms redraw the row: a row rebuilt each time took the focused button away.
  await expect(row.locator('td').nth(4)).toHaveText(/^([5-9]|\d\d+) \/ 1000/);
  await expect(stop).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row.locator('.state').first()).toHaveText('STOPPED_LOCALLY');
  // The disabled Stop hands its focus to what the row offers next, not to the page.
  await expect(row.getByRole('button', { name: 'Inject late result #1' })).toBeFocused();

  // A mouse press held 150 ms, across a few steps, is still one click on one button.
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  const second = page.locator('#calls-table tbody tr[data-call="#2"]');
  await expect(second.locator('td').nth(4)).toHaveText(/^([3-9]|\d\d+) \/ 1000/);
  const box = await second.getByRole('button', { name: 'Stop #2' }).boundingBox();
  if (!box) throw new Error('Stop #2 not drawn');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(150);
  await page.mouse.up();
  await expect(second.locator('.state').first()).toHaveText('STOPPED_LOCALLY');
});

test('the details are one tab away: arrow keys move between the tabs and each shows its panel', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  const faults = page.getByRole('tab', { name: 'Faults' });
  await expect(faults).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Crash server' })).toBeVisible();
  await faults.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Ledger' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Ledger' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#ledger-table')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Crash server' })).toBeHidden();
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Share' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Share', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Faults' })).toBeFocused();
  await page.getByRole('tab', { name: 'Verdict' }).click();
  await expect(page.locator('#verdict-counts')).toBeVisible();
});

test('at 390×844 the playground stacks and nothing scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page);
  await callSlowCount(page);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  for (const tab of ['Faults', 'Ledger', 'Verdict', 'Diagrams', 'Logs', 'Share']) {
    await page.getByRole('tab', { name: tab }).click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(390);
  }
  // The wire log keeps the method in view (the delivery time and the duration are the selected
  // frame's, below): the cancel's method began three screens to the right.
  const method = page.locator('#wire-table tbody tr').filter({ hasText: 'notifications/cancelled' }).locator('td').nth(6);
  const shown = await method.evaluate((cell) => {
    const pane = cell.closest('.wire-scroll');
    if (pane === null) return 0;
    const left = pane.getBoundingClientRect().left + pane.clientLeft;
    const box = cell.getBoundingClientRect();
    return Math.min(box.right, left + pane.clientWidth) - Math.max(box.left, left);
  });
  expect(shown).toBeGreaterThanOrEqual(120);
  // …and the Import panel's pickers stay inside their panel.
  const past = await page.locator('#import-format').evaluate((select) => {
    const panel = select.closest('section');
    return panel === null ? Infinity : select.getBoundingClientRect().right - panel.getBoundingClientRect().right;
  });
  expect(past).toBeLessThanOrEqual(0);
});

test('a keyboard reaches Call in a few Tabs: the skip link first, then the call form', async ({ page }) => {
  await open(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the call form' });
  await expect(skip).toBeFocused();
  await expectOnScreen(page, skip);
  await page.keyboard.press('Enter');
  let tabs = 1;
  while (!(await page.locator('#call').evaluate((b) => b === document.activeElement)) && tabs < 20) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  // The skip link, then the tool picker and slow_count's two arguments, then Call.
  expect(tabs).toBe(5);
  await page.keyboard.press('Enter');
  await expect(page.locator('#calls-table tbody tr[data-call="#1"]')).toHaveCount(1);
});

test('the calls table shows a stopped call’s client states inline, each with its time', async ({ page }) => {
  await open(page);
  const row = await callSlowCount(page);
  await row.getByRole('button', { name: 'Stop #1' }).click();
  await expect(row.locator('td').nth(2).locator('.state')).toHaveText('STOPPED_LOCALLY');
  const steps = row.getByRole('list', { name: '#1 client state history' }).getByRole('listitem');
  await expect(steps).toHaveText(['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY']);
  for (const step of await steps.all()) await expect(step).toHaveAttribute('title', /^\d+ ms: \S/);
  // Stop and the end of the local wait fall in one virtual millisecond, and are still two steps.
  const times = await steps.evaluateAll((items) => items.map((li) => li.getAttribute('title')?.split(' ms')[0]));
  expect(times[1]).toBe(times[2]);
  await expect(row).not.toContainText('changes');
});

test('a late answer ignored after Stop is no new state in the history: it joins STOPPED_LOCALLY’s title, and the late column says it', async ({ page }) => {
  const entry = libraryEntry('race-r1-cancel-after-response');
  if (!entry) throw new Error('library entry missing');
  await page.goto(`/playground/#${await permalinkOf(entry.scenario, entry.trace)}`);
  const row = page.locator('#calls-table tbody tr[data-call="A"]');
  const steps = row.getByRole('list', { name: 'A client state history' }).getByRole('listitem');
  await expect(steps).toHaveText(['RUNNING', 'CANCEL_REQUESTED', 'STOPPED_LOCALLY']);
  await expect(steps.last()).toHaveAttribute('title', /^\d+ ms: local wait ended; then \d+ ms: ignored: arrived after Stop$/);
  await expect(row.locator('td').nth(5)).toContainText('ignored: arrived after Stop');
});

test('clicking an arrow in the timeline selects its wire-log row; the trace slider takes the timeline back in time', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  await callSlowCount(page);
  const call = page.locator('#wire-table tbody tr').filter({ has: page.locator('td', { hasText: /^tools\/call/ }) });
  const frame = await call.getAttribute('data-frame');
  const arrow = page.locator(`#timeline .tl-arrow[data-frame="${frame}"]`);
  await arrow.locator('path.hit').click({ force: true });
  await expect(arrow).toHaveClass(/\bselected\b/);
  await expect(call).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#wire-table tbody tr[aria-current="true"]')).toHaveCount(1);
  await expect(page.locator('#wire-detail pre')).toContainText('"name": "slow_count"');
  // Back to the start of the run: the call's arrow is not drawn yet; at the slider's end it is again.
  await page.getByRole('button', { name: 'Pause' }).click();
  const arrows = await page.locator('#timeline .tl-arrow').count();
  await page.getByRole('tab', { name: 'Diagrams' }).click();
  const position = page.locator('#diagram-position');
  await position.fill('3');
  await expect(arrow).toHaveCount(0);
  expect(await page.locator('#timeline .tl-arrow').count()).toBeLessThan(arrows);
  await position.fill(await position.evaluate((r: HTMLInputElement) => r.max));
  await expect(arrow).toHaveCount(1);
  await expect(page.locator('#timeline .tl-arrow')).toHaveCount(arrows);
});

test('clicking a wire-log row selects its arrow in the timeline, and another row moves the selection', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  await callSlowCount(page);
  const rowOf = (method: RegExp) => page.locator('#wire-table tbody tr').filter({ has: page.locator('td:nth-child(7)', { hasText: method }) }).first();
  const call = rowOf(/^tools\/call$/);
  const progress = rowOf(/^notifications\/progress/);
  const callFrame = await call.getAttribute('data-frame');
  const progressFrame = await progress.getAttribute('data-frame');
  const selected = page.locator('#timeline .tl-arrow.selected');
  await expect(selected).toHaveCount(0);
  await call.click();
  await expect(call).toHaveAttribute('aria-current', 'true');
  await expect(page.locator(`#timeline .tl-arrow[data-frame="${callFrame}"]`)).toHaveClass(/\bselected\b/);
  await expect(selected).toHaveCount(1);
  await progress.click();
  await expect(page.locator(`#timeline .tl-arrow[data-frame="${progressFrame}"]`)).toHaveClass(/\bselected\b/);
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('data-frame', progressFrame ?? '');
});

test('the timeline marks a finding where its witnesses are: python-sdk 1.x answering a cancelled call', async ({ page }) => {
  await open(page);
  await page.getByLabel('Server', { exact: true }).selectOption('py-v1');
  await expect(page.locator('#conn-status')).toContainText('negotiated');
  await page.locator('#tool').selectOption('work');
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(3)).toContainText('running');
  const marks = page.locator('#timeline .tl-mark.kind-finding');
  await expect(marks).toHaveCount(0);
  await page.getByRole('button', { name: 'Stop #1' }).click();
  await expect(page.locator('#findings li[data-rule="CANCEL-NO-RESPONSE"]')).toHaveCount(1);
  await expect(marks.filter({ hasText: 'CANCEL-NO-RESPONSE' })).not.toHaveCount(0);
});

test('a run of thousands of frames draws each frame once on the timeline: arrows drawn over one another are one arrow that says how many it holds, and zooming in parts them', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const scenario = { ...defaultScenario(), steps: [{ at: 20, action: { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: 3000, stepMs: 1 } } }], endAt: 3200 };
  await page.goto(`/playground/#${await permalinkOf(scenario, 'not-recorded')}`);
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(4)).toHaveText(/^3000 \/ 3000/, { timeout: 60_000 });
  const frames = Number((await page.locator('#wire-count').textContent())?.match(/of (\d+) frames/)?.[1]);
  expect(frames).toBeGreaterThan(3000);
  /** Every frame the figure accounts for: each arrow, and the frames it says are drawn under it. */
  const accounted = async (): Promise<{ arrows: number; frames: number }> =>
    page.locator('#timeline .tl-arrow').evaluateAll((arrows) => ({
      arrows: arrows.length,
      frames: arrows.reduce((n, a) => n + 1 + Number(/(\d+) more frames? like it/.exec(a.querySelector('title')?.textContent ?? '')?.[1] ?? 0), 0),
    }));
  await expect.poll(async () => (await accounted()).frames).toBe(frames);
  const fitted = await accounted();
  expect(fitted.arrows).toBeLessThan(frames / 3);
  await expect(page.locator('#timeline .tl-arrow title', { hasText: /more frames like it are drawn under this arrow: zoom in/ }).first()).toBeAttached();
  // Zoomed in, the frames in view are drawn apart: more arrows, each holding fewer.
  for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  const zoomed = await accounted();
  expect(zoomed.frames / zoomed.arrows).toBeLessThan(fitted.frames / fitted.arrows);
});

test('an arrow at the plot’s right edge has its label drawn to its left, whole, not cut by the plot’s edge', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  // Stop last: its cancel is the run's last frame, at the right edge of an axis fitted to the run.
  const steps = [
    { at: 20, action: { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: 5, stepMs: 100 } } },
    { at: 240, action: { type: 'stop' as const, call: '#1' } },
  ];
  await page.evaluate((l) => void (location.hash = l), await permalinkOf({ ...defaultScenario(), steps, endAt: 250 }, 'not-recorded'));
  const cancel = page.locator('#timeline .tl-arrow.cancel text');
  await expect(cancel).toHaveText('notifications/cancelled id 1');
  const outside = await page.locator('#timeline svg').evaluate((svg) => {
    // The clip's rectangle is in the figure's own units (a clipPath draws nothing to measure).
    const rect = svg.querySelector<SVGRectElement>('clipPath rect');
    const ctm = (svg as SVGSVGElement).getScreenCTM();
    if (!rect || !ctm) return ['no clip'];
    const clip = { left: ctm.e + rect.x.baseVal.value * ctm.a, right: ctm.e + (rect.x.baseVal.value + rect.width.baseVal.value) * ctm.a };
    return [...svg.querySelectorAll('.tl-arrow text')].filter((t) => {
      const box = t.getBoundingClientRect();
      return box.left < clip.left - 0.5 || box.right > clip.right + 0.5;
    }).map((t) => t.textContent);
  });
  expect(outside).toEqual([]);
});

test('a long replay’s timeline is drawn to the scale of the whole run from its first arrows: the axis does not grow while the rest of the trace is read in', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await open(page);
  // Every paint: the time axis's range, and how many arrows were drawn at it.
  await page.evaluate(() => {
    const seen: [string, number][] = [];
    Object.assign(window, { __axis: seen });
    const sample = (): void => {
      const range = document.querySelector('#timeline .timeline-range')?.textContent ?? '';
      const arrows = document.querySelectorAll('#timeline .tl-arrow').length;
      const last = seen.at(-1);
      if (!last || last[0] !== range || last[1] !== arrows) seen.push([range, arrows]);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
  const scenario = { ...defaultScenario(), steps: [{ at: 20, action: { type: 'call' as const, call: '#1', tool: 'slow_count', args: { steps: 6600, stepMs: 1 } } }], endAt: 6700 };
  const link = await permalinkOf(scenario, 'not-recorded');
  await page.evaluate((l) => void (location.hash = l), link);
  await expect(page.locator('#calls-table tbody tr[data-call="#1"] td').nth(4)).toHaveText(/^6600 \/ 6600/, { timeout: 60_000 });
  const final = await page.locator('#timeline .timeline-range').textContent();
  // Fitted to the whole run: its last progress is at about 6,620 ms.
  expect(Number(/– (\d+) ms$/.exec(final ?? '')?.[1])).toBeGreaterThan(6620);
  const painted = await page.evaluate(() => (window as unknown as { __axis: [string, number][] }).__axis);
  // From the first paint with the replay's arrows (more than the handshake's), the range is the whole run's.
  const replayed = painted.slice(painted.findIndex(([, arrows]) => arrows > 20));
  expect(new Set(replayed.map(([r]) => r))).toEqual(new Set([final]));
  // …and it was painted at several stages of the reading, not all at once.
  expect(new Set(replayed.map(([, arrows]) => arrows)).size).toBeGreaterThan(1);
});
