// The unified local memory and the energy model in the app (issue 16; Unified MICRO'12): the
// unified pool view shows the model's partition and this cycle's bank columns, its capacity
// select re-partitions and re-runs the kernel, the Setup tab's occupancy calculator answers with
// the model's numbers (Table 1's dgemm), the energy view grows as the kernel runs, and the pool
// view names each cycle's arbitration loser (from the snapshot). Content,
// not pixels; screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, snapshot, stepUntil, settle } from './helpers.js';

async function openExample(page, id) {
  await open(page);
  await page.selectOption('#example', id);
  await expect(page.locator('#example')).toHaveValue(id);
  await expect(page.locator('#cycle')).toHaveText('0');
}

// The view's model against the snapshot's `stats.unified`, field by field.
function expectPartition(m, u) {
  expect(m).toMatchObject({
    mode: u.mode,
    capacityKb: u.capacity_kb,
    threads: u.threads,
    registersKb: u.registers_kb,
    sharedKb: u.shared_kb,
    cacheKb: u.cache_kb,
    cacheSets: u.cache_sets,
    arbitrationConflicts: u.arbitration_conflicts,
  });
}

test('unified pool view: the partition drawn is the model\'s, with this cycle\'s bank columns', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'needle-unified');
  await expect(page.locator('#view-unified')).toBeVisible();
  const first = await model(page, 'unified');
  const u0 = JSON.parse(await snapshot(page)).stats.unified;
  expectPartition(first, u0);
  // needle: 53 registers and 136.25 shared bytes a thread in 384 KB (docs/unified.md).
  expect(first).toMatchObject({ capacityKb: 384, threads: 1024, registersKb: 212 });
  expect(first.head).toBe('384 KB unified pool: 1024 threads');
  expect(first.split).toBe(`registers 212 KB · shared ${Number(u0.shared_kb.toFixed(2))} KB · cache ${Number(u0.cache_kb.toFixed(2))} KB (${u0.cache_sets} sets of 4 × 128 B)`);
  expect(await page.locator('#view-unified .unified-capacity').inputValue()).toBe('393216');

  // A cycle where a shared or cache access holds a bank column: the view names it.
  await stepUntil(page, '(s) => s.sm.register_banks.some((b) => b.kind === "memory") && s.sm.register_banks.some((b) => b.kind === "read")', 20_000);
  const snap = JSON.parse(await snapshot(page));
  const m = await model(page, 'unified');
  expectPartition(m, snap.stats.unified);
  expect(m.columns).toEqual(snap.sm.pool_columns.map((b) => b.kind));
  expect(m.columns).toContain('memory');
  await page.mouse.move(0, 0);
  await page.locator('#view-unified').screenshot({ path: '../target/e2e/view-unified.png' });

  // Conflicts counted so far keep up with the model as the run goes on.
  await stepUntil(page, '(s) => s.stats.unified.arbitration_conflicts > 50', 20_000);
  const later = await model(page, 'unified');
  expect(later.arbitrationConflicts).toBe(JSON.parse(await snapshot(page)).stats.unified.arbitration_conflicts);
  expect(later.arbitrationConflicts).toBeGreaterThan(50);

  // The partitioned SM has no pool: the view is not shown.
  await page.selectOption('#example', 'needle-partitioned');
  await expect(page.locator('#cycle')).toHaveText('0');
  await settle(page);
  expect(JSON.parse(await snapshot(page)).stats.unified).toBeUndefined();
  await expect(page.locator('#view-unified')).toBeHidden();
  expect(problems).toEqual([]);
});

// The pool view's losers against the snapshot's `sm.arbitration_losers`: the same accesses, the
// same columns crossed out, and each named in words from the snapshot's fields.
async function expectLosersShown(page) {
  const snap = JSON.parse(await snapshot(page));
  const losers = snap.sm.arbitration_losers;
  const m = await model(page, 'unified');
  expect(m.cycle).toBe(snap.cycle);
  expect(m.losers).toEqual(losers.map((l) => ({ warp: l.warp, pc: l.instr.pc, kind: l.kind, column: l.column, heldBy: l.held_by })));
  expect(m.lostColumns).toEqual(losers.map((l) => l.column));
  expect(m.loserText).toEqual(losers.map((l) => {
    const what = l.kind === 'shared' ? 'a shared pass' : 'a cache request';
    return `W${l.warp} pc ${l.instr.pc} ${l.instr.op} (L${l.instr.line}), ${what}, lost column ${l.column} to W${l.held_by.warp}'s register ${l.held_by.kind} of ${l.held_by.reg}`;
  }));
  for (const l of losers) {
    expect(['read', 'write']).toContain(l.held_by.kind);
    // The register access named is the one the column's register bank shows this cycle.
    expect(snap.sm.register_banks[l.register_bank]).toEqual(l.held_by);
  }
  return losers;
}

test('unified pool view: this cycle\'s arbitration losers are named and their columns crossed out, as the snapshot says', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'needle-unified');
  expect(await expectLosersShown(page)).toEqual([]);
  // needle's first loser is a global load's cache request; later its shared passes lose too.
  await stepUntil(page, '(s) => s.sm.arbitration_losers.length > 0', 20_000);
  const [cache] = await expectLosersShown(page);
  expect(cache.kind).toBe('cache');
  expect(cache.instr.op).toContain('.global');
  await stepUntil(page, '(s) => s.sm.arbitration_losers.some((l) => l.kind === "shared")', 20_000);
  const [shared] = await expectLosersShown(page);
  expect(shared.kind).toBe('shared');
  expect(shared.instr.op).toContain('.shared');
  await page.mouse.move(0, 0);
  await page.locator('#view-unified').screenshot({ path: '../target/e2e/view-unified-loser.png' });

  // The next cycle without a loser: nothing named, nothing crossed out.
  await stepUntil(page, '(s) => s.sm.arbitration_losers.length === 0', 1000);
  expect(await expectLosersShown(page)).toEqual([]);
  expect(problems).toEqual([]);
});

test('unified pool view: the capacity select re-partitions and re-runs as the model says', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'needle-unified');
  await stepUntil(page, '(s) => s.cycle >= 200', 1000);
  const at384 = await model(page, 'unified');
  const select = page.locator('#view-unified .unified-capacity');
  await select.scrollIntoViewIfNeeded();
  await select.selectOption('131072');
  await expect(page.locator('#cycle')).toHaveText('0');
  await expect(page.locator('#example')).toHaveValue('needle-unified');
  expect(await page.locator('#overrides').inputValue()).toContain('unified.capacity_bytes=131072');
  const at128 = await model(page, 'unified');
  const u = JSON.parse(await snapshot(page)).stats.unified;
  expectPartition(at128, u);
  // 128 KB / 348.25 bytes a thread = 376, rounded down to 23 whole CTAs of 16.
  expect(at128).toMatchObject({ capacityKb: 128, threads: 368, cacheSets: 5 });
  expect(at128.threads).toBeLessThan(at384.threads);
  expect(at128.cacheKb).toBeLessThan(at384.cacheKb);
  // The occupancy calculator (the same model code) agrees with the launch's division.
  await page.click('.tab[data-tab=setup]');
  await page.fill('#occ-regs', '53');
  await page.selectOption('#occ-per', 'cta');
  await page.fill('#occ-smem', '2180');
  await page.fill('#occ-block', '16');
  await page.selectOption('#occ-capacity', '131072');
  await page.selectOption('#occ-mode', 'full');
  const calc = JSON.parse(await page.locator('#occ-result').getAttribute('data-model'));
  await page.click('.tab[data-tab=code]');
  expect({ threads: calc.threads, registers_kb: calc.registers_kb, cache_sets: calc.cache_sets }).toEqual({ threads: u.threads, registers_kb: u.registers_kb, cache_sets: u.cache_sets });
  expect(await select.inputValue()).toBe('131072');
  await page.mouse.move(0, 0);
  await page.locator('#view-unified').screenshot({ path: '../target/e2e/view-unified-128k.png' });

  await select.selectOption('262144');
  await expect(page.locator('#cycle')).toHaveText('0');
  const at256 = await model(page, 'unified');
  expectPartition(at256, JSON.parse(await snapshot(page)).stats.unified);
  expect(at256.capacityKb).toBe(256);
  expect(at256.threads).toBeGreaterThan(at128.threads);
  expect(await page.locator('#overrides').inputValue()).not.toContain('unified.capacity_bytes=131072');
  expect(problems).toEqual([]);
});

test('occupancy calculator: Table 1\'s dgemm in 384 KB is 1024 threads, 228 / 66.5 / 89.5 KB', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.click('.tab[data-tab=setup]');
  const result = page.locator('#occ-result');
  await page.fill('#occ-regs', '57');
  await page.selectOption('#occ-per', 'thread');
  await page.fill('#occ-smem', '66.5');
  await page.fill('#occ-block', '');
  await page.selectOption('#occ-capacity', '393216');
  await page.selectOption('#occ-mode', 'full');
  await expect(result).toBeVisible();
  const out = JSON.parse(await result.getAttribute('data-model'));
  expect(out).toMatchObject({ threads: 1024, registers_kb: 228, shared_kb: 66.5, cache_kb: 89.5, cache_sets: 179, capacity_kb: 384, mode: 'full' });
  const shown = await result.textContent();
  for (const s of ['1024 threads', 'registers 228 KB', 'shared 66.5 KB', 'cache 89.5 KB']) expect(shown).toContain(s);
  await page.locator('#occupancy').scrollIntoViewIfNeeded();
  await page.locator('#tab-setup').screenshot({ path: '../target/e2e/setup-occupancy.png' });

  // Fermi-like: a fixed 256 KB register file beside 96/32 KB.
  await page.selectOption('#occ-mode', 'fermi');
  const fermi = JSON.parse(await result.getAttribute('data-model'));
  expect(fermi).toMatchObject({ mode: 'fermi', registers_kb: 256 });
  expect(fermi.shared_kb + fermi.cache_kb).toBe(128);

  // Bad input: the model's message, no result, no panic.
  await page.selectOption('#occ-mode', 'full');
  await page.selectOption('#occ-per', 'cta');
  await page.fill('#occ-smem', '0');
  await page.fill('#occ-regs', '255');
  await page.fill('#occ-block', '1024');
  await page.selectOption('#occ-capacity', '131072');
  await expect(page.locator('#occ-error')).toBeVisible();
  await expect(page.locator('#occ-error')).toContainText('a CTA of 1024 threads needs');
  await expect(result).toBeHidden();
  await page.fill('#occ-regs', '2.5');
  await expect(page.locator('#occ-error')).toContainText('--regs 2.5: expected a whole number');
  await page.fill('#occ-regs', '9');
  await expect(page.locator('#occ-error')).toBeHidden();
  expect(JSON.parse(await result.getAttribute('data-model')).threads).toBe(1024);
  expect(problems).toEqual([]);
});

test('energy view: the stacked bar is the snapshot\'s energy and grows as the kernel runs', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'needle-unified');
  await stepUntil(page, '(s) => s.cycle >= 100', 200);
  const a = await model(page, 'energy');
  const ea = JSON.parse(await snapshot(page)).stats.energy;
  expect(a.cycle).toBe(100);
  expect(a.totalPj).toBe(ea.total_pj);
  expect(a.unified).toBe(true);
  for (const [k, v] of Object.entries(a.parts)) expect(v).toBe(ea[k]);
  expect(Object.keys(a.parts)).toEqual(['register_file_pj', 'register_hierarchy_pj', 'shared_memory_pj', 'l1d_pj', 'dram_pj', 'sram_leakage_pj', 'sm_dynamic_pj', 'core_leakage_pj']);
  expect(a.scalePj).toBeGreaterThanOrEqual(a.totalPj);
  expect(a.label).toBe(`${(ea.total_pj / 1e6).toFixed(3)} µJ`);

  await stepUntil(page, '(s) => s.cycle >= 3000', 5000);
  const b = await model(page, 'energy');
  const eb = JSON.parse(await snapshot(page)).stats.energy;
  expect(b.cycle).toBe(3000);
  expect(b.totalPj).toBe(eb.total_pj);
  expect(b.totalPj).toBeGreaterThan(a.totalPj);
  expect(b.parts.sm_dynamic_pj).toBeGreaterThan(a.parts.sm_dynamic_pj);
  expect(b.parts.register_file_pj).toBeGreaterThan(0);
  await page.mouse.move(0, 0);
  await page.locator('#view-energy').screenshot({ path: '../target/e2e/view-energy.png' });

  // Every configuration is priced: the partitioned SM with partitioned prices.
  await page.selectOption('#example', 'needle-partitioned');
  await expect(page.locator('#cycle')).toHaveText('0');
  await stepUntil(page, '(s) => s.cycle >= 100', 200);
  const p = await model(page, 'energy');
  expect(p.unified).toBe(false);
  expect(p.totalPj).toBe(JSON.parse(await snapshot(page)).stats.energy.total_pj);
  await page.screenshot({ path: '../target/e2e/unified-app.png' });
  expect(problems).toEqual([]);
});
