import { chromium } from '@playwright/test';
import { DatabaseSync } from 'node:sqlite';
const base = 'http://spetter.localhost:4400';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
await page.goto(base + '/pricing');
const email = `shot-${Date.now()}@example.nl`;
const res = await page.evaluate(async (email) => {
  const r = await fetch('/api/signup.php', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'geheim-wachtwoord-1', name: 'Jeroen', date_of_birth: '1988-03-12', gender: 'male', sexuality: 'hetero', country: 'NL', region: 'Utrecht' }) });
  return r.json();
}, email);
const pid = res.user.profile.id;
const db = new DatabaseSync('/tmp/demo/app.db');
const women = db.prepare("select id from profiles where tenant_id='spetter' and gender='female' and id != ? order by id limit 6").all(pid) as { id: number }[];
for (const [i, w] of women.entries()) db.prepare("insert or ignore into likes (tenant_id, from_profile_id, to_profile_id, is_new, created_at) values ('spetter', ?, ?, ?, ?)").run(w.id, pid, i < 3 ? 1 : 0, new Date(Date.now() - i * 3600_000).toISOString());
db.prepare("insert or ignore into likes (tenant_id, from_profile_id, to_profile_id, is_new, created_at) values ('spetter', ?, ?, 0, ?)").run(pid, women[4]!.id, new Date().toISOString());
const shoot = async (path: string, name: string, w = 1280, full = true) => {
  await page.setViewportSize({ width: w, height: w < 500 ? 812 : 900 });
  await page.goto(base + path);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `/tmp/shots/${name}-${w}.png`, fullPage: full });
};
for (const w of [1280, 375]) {
  await shoot('/likes', 'likes', w);
  await shoot(`/members/${women[0]!.id}`, 'profile', w);
  await shoot('/swipe-game', 'swipe', w, false);
  await shoot('/match-finder', 'finder', w);
  await shoot(`/complaints?profile=${women[1]!.id}`, 'complaint', w);
  await shoot('/members', 'members', w, false);
}
// Match dialog: like back the first one.
await page.setViewportSize({ width: 375, height: 812 });
await page.goto(base + `/members/${women[2]!.id}`);
await page.getByRole('button', { name: /like terug/i }).click();
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/shots/match-375.png' });
console.log('done', pid);
await browser.close();
