/**
 * The page shell every dashboard page shares: navigation, the sign-out form, and one stylesheet
 * that reads at 1280 px and on a phone-width window (tables scroll sideways inside their box).
 */
import { type Html, html, raw } from './html.js';

export const BASE = '/dashboard';

export interface Shell {
  title: string;
  /** The signed-in organisation's name and the session's form token; absent on the sign-in page. */
  signedIn?: { orgName: string; csrf: string };
  body: Html;
}

export function page({ title, signedIn, body }: Shell): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · loanctl sandbox dashboard</title>
<link rel="stylesheet" href="${BASE}/assets/style.css">
<link rel="icon" href="${BASE}/assets/icon.svg" type="image/svg+xml">
</head>
<body>
<header>
  <a class="brand" href="${BASE}/loans">loanctl sandbox</a>
  ${
    signedIn &&
    html`<nav aria-label="Main">
    <a href="${BASE}/queue">Waiting for approval</a>
    <a href="${BASE}/loans">Loan requests</a>
    <a href="${BASE}/borrowers">Borrowers</a>
    <a href="${BASE}/log">Request log</a>
  </nav>
  <form method="post" action="${BASE}/sign-out" class="sign-out">
    <span>${signedIn.orgName}</span>
    ${csrfField(signedIn.csrf)}
    <button type="submit">Sign out</button>
  </form>`
  }
</header>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.text;
}

/** The form's token; named `token` so the request log hides it as it hides keys (../log/entry.ts). */
export function csrfField(csrf: string): Html {
  return html`<input type="hidden" name="token" value="${csrf}">`;
}

/** A message above a page's content: `error` for a refusal, `ok` for a done write. */
export function notice(kind: 'error' | 'ok', text: string): Html {
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

export const STYLE = raw(`
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,sans-serif;color:#1b1f24;background:#f6f7f9}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1.25rem;background:#123;color:#fff}
header a{color:#fff}
.brand{font-weight:700;text-decoration:none}
nav{display:flex;flex-wrap:wrap;gap:1rem}
.sign-out{margin-left:auto;display:flex;gap:.5rem;align-items:center}
main{max-width:1200px;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.5rem}
h2{font-size:1.15rem;margin-top:2rem}
.table{overflow-x:auto;background:#fff;border:1px solid #d0d5dc;border-radius:6px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.45rem .7rem;border-bottom:1px solid #e4e7eb}
td.num,th.num{text-align:right;white-space:nowrap}
tr.queue td{background:#fff8e1}
form.filters,form.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem 1rem;align-items:end;margin:1rem 0}
label{display:flex;flex-direction:column;gap:.2rem;font-weight:600;font-size:.9rem}
label.check{flex-direction:row;align-items:center;gap:.5rem}
input,select,textarea,button{font:inherit;padding:.4rem .5rem;border:1px solid #8a94a3;border-radius:4px;background:#fff}
button{background:#1d5fbf;color:#fff;border-color:#1d5fbf;cursor:pointer}
header button{background:transparent;border-color:#fff}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
dl{display:grid;grid-template-columns:minmax(10rem,max-content) 1fr;gap:.25rem 1rem;background:#fff;padding:.75rem 1rem;border:1px solid #d0d5dc;border-radius:6px;overflow-wrap:anywhere}
dt{font-weight:600}
dd{margin:0}
.notice{padding:.6rem .9rem;border-radius:4px}
.notice.error{background:#fde8e8;border:1px solid #d33}
.notice.ok{background:#e6f6ea;border:1px solid #2a8a3e}
.pager{display:flex;gap:1rem;margin:1rem 0}
.hint{color:#4a5563;font-size:.9rem;font-weight:400}
@media (max-width:600px){dl{grid-template-columns:1fr}.sign-out{margin-left:0}}
`);
