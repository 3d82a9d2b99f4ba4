/**
 * The HTML of the sandbox's hosted payment pages: self-contained (inline CSS, no script, no external
 * asset), readable from 320 px up, every value escaped. The pages are the provider's, not the
 * portal's, so they are in English like a test-mode checkout.
 */

export interface THostedBrand {
  /** Provider id. */
  id: 'sandboxcard' | 'sandboxwallet';
  method: 'card' | 'ewallet';
  /** The provider's name as the page shows it. */
  name: string;
  /** The letter in the logo square. */
  logo: string;
  accent: string;
  sessionPrefix: string;
  refundPrefix: string;
}

export interface TPageSession {
  sessionId: string;
  depositId: string;
  amount: number;
  currency: string;
  merchantName: string;
  expiresAt: number;
  status: 'open' | 'processing' | 'succeeded' | 'failed' | 'cancelled';
  reason: string | null;
  instrument: string | null;
}

/** A test card or wallet login the page lists, and what it does. */
export interface TTestInstrument {
  value: string;
  effect: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** `$1,234.56` from integer minor units (2 decimals), without floating point. */
export function formatMinor(amount: number, currency: string): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const text = `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
      text as Intl.StringNumericLiteral,
    );
  } catch {
    // Not an ISO currency (USDT): the number and the code.
    return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(text as Intl.StringNumericLiteral)} ${currency}`;
  }
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#f3f4f8;color:#1a1f36;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
.sheet{max-width:440px;margin:0 auto;padding:24px 16px 40px}
.card{background:#fff;border-radius:14px;box-shadow:0 1px 3px rgba(26,31,54,.08),0 8px 24px rgba(26,31,54,.06);padding:24px 20px}
.brand{display:flex;align-items:center;gap:10px;font-weight:650;margin-bottom:18px}
.logo{display:inline-grid;place-items:center;width:32px;height:32px;border-radius:9px;background:var(--accent);color:#fff;font-weight:700}
.badge{margin-left:auto;font-size:12px;font-weight:600;color:#9a5b00;background:#fff4db;border:1px solid #f5d48a;border-radius:999px;padding:2px 10px}
.merchant{margin:0;color:#5b6275;font-size:15px}
.amount{margin:2px 0 0;font-size:32px;font-weight:700;letter-spacing:-.01em}
.ref{margin:2px 0 20px;color:#8a90a2;font-size:13px;overflow-wrap:anywhere}
label{display:block;font-size:14px;font-weight:600;color:#3c4257;margin:14px 0 6px}
input{width:100%;font:inherit;padding:11px 12px;border:1px solid #cfd5e2;border-radius:9px;background:#fff;color:inherit}
input:focus{outline:2px solid var(--accent);outline-offset:1px;border-color:transparent}
input[aria-invalid=true]{border-color:#df1b41}
.row{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.row label{margin-top:14px}
.field-error{color:#df1b41;font-size:13px;margin:4px 0 0}
.alert{background:#fdecef;color:#9b1230;border-radius:9px;padding:10px 12px;font-size:14px;margin:0 0 6px}
button{width:100%;font:inherit;font-weight:650;border:0;border-radius:9px;padding:13px 16px;cursor:pointer;margin-top:18px}
.pay{background:var(--accent);color:#fff}
.pay:focus-visible,.cancel:focus-visible{outline:3px solid #1a1f36;outline-offset:2px}
.cancel{background:transparent;color:#5b6275;margin-top:8px;padding:10px}
.help{margin-top:18px;font-size:14px;color:#3c4257}
.help summary{cursor:pointer;font-weight:600}
table{width:100%;border-collapse:collapse;margin-top:8px;font-size:13px}
td{padding:6px 4px;border-top:1px solid #eceef3;vertical-align:top}
td:first-child{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap}
.foot{color:#8a90a2;font-size:12px;text-align:center;margin-top:16px}
.result{text-align:center}
.title{font-size:22px;margin:0 0 6px}
.mark{display:inline-grid;place-items:center;width:56px;height:56px;border-radius:50%;font-size:28px;font-weight:700;margin:8px auto 12px;color:#fff}
.ok{background:#1f9d55}.bad{background:#df1b41}.wait{background:#c98a00}
.back{display:block;text-align:center;text-decoration:none;background:var(--accent);color:#fff;border-radius:9px;padding:13px 16px;font-weight:650;margin-top:20px}
@media (max-width:360px){.row{grid-template-columns:1fr}.amount{font-size:28px}}
`;

function layout(brand: THostedBrand, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)}</title>
<style>:root{--accent:${escapeHtml(brand.accent)}}${STYLE}</style></head>
<body><main class="sheet"><div class="card">
<div class="brand"><span class="logo" aria-hidden="true">${escapeHtml(brand.logo)}</span><span>${escapeHtml(brand.name)}</span><span class="badge">Test mode</span></div>
${body}
</div><p class="foot">${escapeHtml(brand.name)} sandbox: no real money moves.</p></main></body></html>`;
}

function summary(session: TPageSession): string {
  return `<p class="merchant">${escapeHtml(session.merchantName)}</p>
<p class="amount">${escapeHtml(formatMinor(session.amount, session.currency))}</p>
<p class="ref">Deposit ${escapeHtml(session.depositId)}</p>`;
}

function field(input: {
  name: string;
  label: string;
  value: string;
  error: string | undefined;
  attributes: string;
}): string {
  const errorId = `${input.name}-error`;
  return `<label for="${input.name}">${escapeHtml(input.label)}</label>
<input id="${input.name}" name="${input.name}" value="${escapeHtml(input.value)}" ${input.attributes}${input.error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''}>${input.error ? `<p class="field-error" id="${errorId}">${escapeHtml(input.error)}</p>` : ''}`;
}

/** The checkout form: card fields, or an e-wallet sign-in. */
export function renderCheckout(input: {
  brand: THostedBrand;
  session: TPageSession;
  values: Record<string, string>;
  errors: Record<string, string>;
  testInstruments: readonly TTestInstrument[];
}): string {
  const { brand, session, values, errors } = input;
  const price = formatMinor(session.amount, session.currency);
  const at = (name: string) => errors[name];
  const fields =
    brand.method === 'card'
      ? `${field({ name: 'number', label: 'Card number', value: values.number ?? '', error: at('number'), attributes: 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23" required' })}
<div class="row"><div>${field({ name: 'expiry', label: 'Expiry', value: values.expiry ?? '', error: at('expiry'), attributes: 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="7" required' })}</div>
<div>${field({ name: 'cvc', label: 'CVC', value: '', error: at('cvc'), attributes: 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4" required' })}</div></div>
${field({ name: 'holder', label: 'Name on card', value: values.holder ?? '', error: at('holder'), attributes: 'autocomplete="cc-name" maxlength="100"' })}`
      : `${field({ name: 'email', label: `${brand.name} email`, value: values.email ?? '', error: at('email'), attributes: 'type="email" autocomplete="email" placeholder="you@example.com" maxlength="254" required' })}
${field({ name: 'password', label: 'Password', value: '', error: at('password'), attributes: 'type="password" autocomplete="current-password" maxlength="200" required' })}`;
  const rows = input.testInstruments
    .map((t) => `<tr><td>${escapeHtml(t.value)}</td><td>${escapeHtml(t.effect)}</td></tr>`)
    .join('');
  const expires = new Date(session.expiresAt).toISOString().slice(11, 16);
  return layout(
    brand,
    `Pay ${session.merchantName} · ${brand.name}`,
    `${summary(session)}
${errors.form ? `<p class="alert" role="alert">${escapeHtml(errors.form)}</p>` : ''}
<form method="post" action="/sandbox/pay/${encodeURIComponent(session.sessionId)}">
${fields}
<button class="pay" type="submit" name="action" value="pay">Pay ${escapeHtml(price)}</button>
<button class="cancel" type="submit" name="action" value="cancel" formnovalidate>Cancel and return to ${escapeHtml(session.merchantName)}</button>
</form>
<details class="help" open><summary>${brand.method === 'card' ? 'Sandbox test cards' : 'Sandbox test accounts'}</summary>
<table>${rows}</table>
<p>${brand.method === 'card' ? 'Any future expiry date and any 3-digit CVC.' : 'Any password.'} This page expires at ${expires} UTC.</p></details>`,
  );
}

const RESULT_TEXT: Record<TPageSession['status'], { mark: string; tone: string; title: string }> = {
  succeeded: { mark: '✓', tone: 'ok', title: 'Payment successful' },
  failed: { mark: '!', tone: 'bad', title: 'Payment failed' },
  cancelled: { mark: '×', tone: 'bad', title: 'Payment cancelled' },
  processing: { mark: '…', tone: 'wait', title: 'Payment processing' },
  open: { mark: '…', tone: 'wait', title: 'Payment not finished' },
};

const REASON_TEXT: Record<string, string> = {
  declined: 'The card issuer declined the payment.',
  insufficient_funds: 'The account has insufficient funds.',
  expired: 'The payment page expired before the payment was made.',
  timeout: 'The bank did not answer in time.',
  cancelled: 'You cancelled the payment.',
};

/** The page of a finished (or still processing) session, with the way back to the merchant. */
export function renderResult(input: { brand: THostedBrand; session: TPageSession; backUrl: string }): string {
  const { brand, session } = input;
  const text = RESULT_TEXT[session.status];
  const detail =
    session.status === 'processing'
      ? 'Your bank is still confirming the payment. The merchant will be told when it is done.'
      : session.status === 'succeeded'
        ? `Paid${session.instrument ? ` with ${session.instrument}` : ''}.`
        : (REASON_TEXT[session.reason ?? ''] ?? 'The payment did not go through.');
  return layout(
    brand,
    `${text.title} · ${brand.name}`,
    `<div class="result"><span class="mark ${text.tone}" aria-hidden="true">${text.mark}</span>
<h1 class="title">${escapeHtml(text.title)}</h1>
${summary(session)}
<p>${escapeHtml(detail)}</p>
<a class="back" href="${escapeHtml(input.backUrl)}">Return to ${escapeHtml(session.merchantName)}</a></div>`,
  );
}

export function renderNotFound(brand: THostedBrand): string {
  return layout(
    brand,
    `Payment page not found · ${brand.name}`,
    '<div class="result"><h1 class="title">Payment page not found</h1><p>The link is wrong or the payment no longer exists. Go back to the merchant and start again.</p></div>',
  );
}
