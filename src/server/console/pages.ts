import type { FastifyRequest } from 'fastify';
import { ConsoleMembersQuery, may } from '../../contract/console.ts';
import { html, redirect, type Result } from '../http/routes.ts';
import type { Services } from '../services/index.ts';
import type { StaffSession } from '../services/console.ts';

/**
 * The console's first pages, server-rendered and minimal (issue 22, first part): log in with a
 * TOTP code (enrolment by QR code at first login), set a password from an enrolment link, and
 * find members. The console's Astro pages and React islands replace them later; the JSON API
 * (console/routes.ts) is what they call.
 */
export const CONSOLE_PAGES = ['', 'login', 'enrol', 'members'] as const;
export type ConsolePage = (typeof CONSOLE_PAGES)[number];

const escape = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)} · Console</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1rem 2rem;color:#1b1b1f}
label{display:block;margin:.5rem 0}input,select{font:inherit;padding:.35rem .5rem}button{font:inherit;padding:.4rem 1rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #ddd}
.error{color:#b00020}[hidden]{display:none}code{font-size:1.05em}</style></head>
<body><main><h1>${escape(title)}</h1>${body}</main>${script ? `<script type="module">${script}</script>` : ''}</body></html>`;
}

const LOGIN_SCRIPT = `
const form = document.querySelector('#login'), error = document.querySelector('#error'), enrol = document.querySelector('#enrol');
async function post(path, body) {
  const res = await fetch('/api/console/' + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const data = res.status === 204 ? {} : await res.json();
  if (!res.ok) throw new Error(data.error?.message ?? res.statusText);
  return data;
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const body = { email: form.email.value, password: form.password.value, code: form.code.value || undefined };
  try {
    if (!enrol.hidden) {
      const done = await post('enrol', { ...body, code: form.code.value });
      enrol.hidden = true; form.hidden = true;
      const codes = document.querySelector('#codes');
      codes.hidden = false;
      codes.querySelector('pre').textContent = done.recovery_codes.join('\\n');
      return;
    }
    const result = await post('login', body);
    if (result.enrol) {
      enrol.hidden = false;
      enrol.querySelector('.qr').innerHTML = result.qr_svg;
      enrol.querySelector('code').textContent = result.secret;
      form.code.required = true;
      form.code.focus();
      return;
    }
    location.href = '/console/members';
  } catch (e) { error.textContent = e.message; }
});`;

const ENROL_SCRIPT = `
const form = document.querySelector('#password'), error = document.querySelector('#error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const res = await fetch('/api/console/enrol/password', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password: form.password.value }) });
  const data = await res.json();
  if (!res.ok) { error.textContent = data.error?.message ?? res.statusText; return; }
  location.href = '/console/login';
});`;

export async function consolePage(page: ConsolePage, ctx: { services: Services; session: StaffSession | null; request: FastifyRequest }): Promise<Result> {
  const { session } = ctx;
  if (page === '') return redirect(session ? '/console/members' : '/console/login', 303);
  if (page === 'login') {
    return html(
      layout(
        'Log in',
        `<form id="login"><label>E-mail <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<div id="enrol" hidden><p>Scan this code with an authenticator app, or type the secret <code></code>, then enter the first code.</p><div class="qr" style="width:220px"></div></div>
<label>Code (authenticator or recovery code) <input name="code" autocomplete="one-time-code" inputmode="numeric"></label>
<button>Log in</button><p id="error" class="error" role="alert"></p></form>
<div id="codes" hidden><p>Your recovery codes, each good for one login. They are shown only now: keep them safe.</p><pre></pre><a href="/console/members">Continue</a></div>`,
        LOGIN_SCRIPT,
      ),
    );
  }
  if (page === 'enrol') {
    return html(
      layout(
        'Set your password',
        `<form id="password"><label>New password <input name="password" type="password" minlength="8" autocomplete="new-password" required></label><button>Save</button><p id="error" class="error" role="alert"></p></form>`,
        ENROL_SCRIPT,
      ),
    );
  }
  // members
  if (!session) return redirect('/console/login', 303);
  if (!may(session.staff.role, 'members.read')) return html(layout('Members', '<p>Your role does not show members.</p>'), 403);
  const params = Object.fromEntries(new URL(ctx.request.url, 'http://localhost').searchParams);
  const parsed = ConsoleMembersQuery.safeParse(params);
  const input = parsed.success ? parsed.data : ConsoleMembersQuery.parse({});
  const scope = session.staff.brands;
  const { members } = await ctx.services.console.members(session.staff, input);
  const rows = members
    .map((m) => `<tr><td>${m.id}</td><td>${escape(m.brand)}</td><td>${escape(m.email)}</td><td>${escape(m.name)}</td><td>${escape(m.status)}</td><td>${m.credits}</td><td>${escape(m.signup_date.slice(0, 10))}</td></tr>`)
    .join('');
  return html(
    layout(
      'Members',
      `<p>${escape(session.staff.email)} · ${escape(session.staff.role)} · ${scope === null ? 'all brands' : escape(scope.join(', '))}</p>
<form method="get"><label>Find <input name="q" value="${escape(input.q)}" placeholder="e-mail, name or id"></label><button>Search</button></form>
<table><thead><tr><th>Id</th><th>Brand</th><th>E-mail</th><th>Name</th><th>Status</th><th>Credits</th><th>Signed up</th></tr></thead><tbody>${rows}</tbody></table>`,
    ),
  );
}
