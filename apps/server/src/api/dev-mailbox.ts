import type { FastifyInstance } from 'fastify';
import type { TServices } from '../http/context';
import { devMailbox } from '../modules/notify';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
  );
}

/**
 * The developer's mailbox: mail caught by the built-in SMTP catcher and text messages of the SMS
 * sandbox, at /dev/mailbox (HTML) and /dev/mailbox.json. Only mounted when no SMTP relay is set.
 */
export function registerDevMailbox(app: FastifyInstance, services: TServices) {
  const load = (to?: string) =>
    devMailbox({ db: services.database.db, mailCatcher: services.mailCatcher }, { to });
  app.get<{ Querystring: { to?: string } }>('/dev/mailbox.json', async (request) => load(request.query.to));
  app.get('/dev/mailbox', async (_request, reply) => {
    const { mails, texts } = await load();
    const rows = [
      ...mails.map((m) => ({
        at: m.receivedAt,
        kind: 'email',
        to: m.to.join(', '),
        title: m.subject,
        body: m.text,
        status: 'delivered',
      })),
      ...texts.map((t) => ({
        at: t.sentAt,
        kind: t.channel,
        to: t.to,
        title: '',
        body: t.body,
        status: t.status,
      })),
    ].sort((a, b) => b.at - a.at);
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Developer mailbox</title><meta http-equiv="refresh" content="5">
<style>body{font:14px/1.5 system-ui,sans-serif;margin:0;background:#0b1530;color:#eaf0ff}main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:20px}p.note{color:#9aa8cc}table{width:100%;border-collapse:collapse}td,th{padding:8px 10px;border-bottom:1px solid #23345f;text-align:left;vertical-align:top}
th{color:#9aa8cc;font-weight:600}.k{display:inline-block;padding:0 8px;border-radius:99px;background:#1b2c5a;font-size:12px}.failed{color:#f0475c}pre{margin:0;white-space:pre-wrap;font:inherit}</style></head>
<body><main><h1>Developer mailbox</h1><p class="note">Mail sent through the built-in SMTP catcher (port ${services.mailCatcher?.port ?? '-'}) and SMS/WhatsApp messages of the sandbox provider. Refreshes every 5 s. JSON: <a style="color:#7aa2ff" href="/dev/mailbox.json">/dev/mailbox.json</a></p>
<table><thead><tr><th>Time (UTC)</th><th>Channel</th><th>To</th><th>Message</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${new Date(r.at).toISOString().slice(0, 19).replace('T', ' ')}</td><td><span class="k">${escapeHtml(r.kind)}</span>${r.status === 'failed' ? ' <span class="failed">failed</span>' : ''}</td><td>${escapeHtml(r.to)}</td><td>${r.title ? `<strong>${escapeHtml(r.title)}</strong><br>` : ''}<pre>${escapeHtml(r.body)}</pre></td></tr>`).join('') || '<tr><td colspan="4">Nothing sent yet.</td></tr>'}
</tbody></table></main></body></html>`;
    return reply.type('text/html').header('cache-control', 'no-store').send(html);
  });
}
