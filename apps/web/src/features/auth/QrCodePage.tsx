import './auth.css';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { adoptTraderAppearance } from '../../lib/appearance';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';
import { safeRedirect } from './redirect';

/** An SVG QR code of a URL, drawn locally (no image service sees the ticket). */
async function qrSvg(url: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toString(url, {
    type: 'svg',
    margin: 1,
    errorCorrectionLevel: 'M',
    color: { dark: '#0b1530', light: '#ffffff' },
  });
}

function QrImage({
  svg,
  label,
  testId,
  url,
}: {
  svg: string | null;
  label: string;
  testId: string;
  url?: string;
}) {
  return svg ? (
    <div
      className="qr-svg"
      role="img"
      aria-label={label}
      data-testid={testId}
      data-ticket-url={url}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG produced locally by the qrcode library
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  ) : (
    <div className="qr-svg skeleton" data-testid={`${testId}-loading`} />
  );
}

type TQrLogin =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'waiting' | 'scanned' | 'expired' | 'confirmed'; url: string; svg: string; offline: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long one status request may wait on the server (it answers at once when the ticket changes). */
const POLL_MS = 20_000;

/**
 * QR sign-in: a one-time ticket (2 minutes) shown as a QR code of the confirm page; the page waits
 * on the server, which answers as soon as a signed-in device scans or confirms it. Leaving the
 * page aborts the wait, so a later confirmation cannot sign in a browser that moved on.
 */
function useQrLogin(redirect: string | null): TQrLogin {
  const { t, lang } = useI18n();
  const [state, setState] = useState<TQrLogin>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const move = (kind: 'waiting' | 'scanned' | 'expired' | 'confirmed', offline = false) =>
      setState((current) => ('url' in current ? { ...current, kind, offline } : current));
    (async () => {
      setState({ kind: 'loading' });
      const issued = await callRoute('qrticket', {}, lang, { signal });
      if (signal.aborted) return;
      if (!issued.succeed || !issued.Data) {
        setState({ kind: 'error', message: failureText(issued, t) });
        return;
      }
      const { ticket, expiresAt } = issued.Data;
      const url = `${window.location.origin}${paths.qrConfirm(lang, ticket)}`;
      const svg = await qrSvg(url);
      if (signal.aborted) return;
      setState({ kind: 'waiting', url, svg, offline: false });
      let failures = 0;
      while (!signal.aborted) {
        const left = expiresAt - Date.now();
        if (left <= 0) return move('expired');
        const answer = await callRoute('qrstatus', { ticket, waitMs: Math.min(POLL_MS, left + 250) }, lang, {
          signal,
        });
        if (signal.aborted) return;
        if (!answer.succeed || !answer.Data) {
          failures++;
          setState((current) => ('url' in current ? { ...current, offline: true } : current));
          await sleep(Math.min(1000 * failures, 5000));
          continue;
        }
        failures = 0;
        const { status } = answer.Data;
        move(status);
        if (status === 'expired') return;
        if (status === 'confirmed') {
          // The answer set this browser's session cookies: a full load shows the signed-in header,
          // in the trader's theme and kline colour.
          await adoptTraderAppearance(lang);
          window.location.assign(safeRedirect(redirect, lang, paths.home(lang)));
          return;
        }
      }
    })();
    return () => controller.abort();
  }, [lang, t, redirect]);

  return state;
}

/** One ticket's panel; a refresh mounts a new one (see the key in Component). */
function QrLoginPanel({ onRefresh }: { onRefresh(): void }) {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const state = useQrLogin(params.get('redirect'));
  const refresh = (
    <button type="button" className="btn btn-primary" data-testid="qr-refresh" onClick={onRefresh}>
      <Icon name="history" size={16} />
      {t('qr.login.refresh')}
    </button>
  );

  return (
    <div className="qr-card card qr-login" data-testid="qr-login" data-state={state.kind}>
      <div className="qr-copy">
        <span className="eyebrow">{t('qr.login.eyebrow')}</span>
        <h1>{t('qr.login.title')}</h1>
        <p>{t('qr.login.text', { minutes: 2 })}</p>
        <ol className="qr-steps">
          <li>{t('qr.login.step1')}</li>
          <li>{t('qr.login.step2')}</li>
          <li>{t('qr.login.step3')}</li>
        </ol>
      </div>
      <div className="qr-box">
        <div className="qr-frame">
          {state.kind === 'error' ? (
            <div className="qr-svg qr-svg-empty" />
          ) : (
            <QrImage
              svg={'svg' in state ? state.svg : null}
              label={t('qr.login.alt')}
              testId="qr-login-code"
              url={'url' in state ? state.url : undefined}
            />
          )}
          {state.kind === 'scanned' && (
            <div className="qr-overlay" data-testid="qr-scanned">
              <span className="qr-overlay-icon ok">
                <Icon name="check" size={26} />
              </span>
              <strong>{t('qr.login.scanned')}</strong>
              <span>{t('qr.login.scannedText')}</span>
            </div>
          )}
          {state.kind === 'confirmed' && (
            <div className="qr-overlay">
              <span className="spinner" />
              <strong>{t('qr.login.confirmed')}</strong>
            </div>
          )}
          {(state.kind === 'expired' || state.kind === 'error') && (
            <div className="qr-overlay" data-testid="qr-expired" role="alert">
              <span className="qr-overlay-icon">
                <Icon name={state.kind === 'error' ? 'alert' : 'clock'} size={26} />
              </span>
              <strong>{state.kind === 'error' ? state.message : t('qr.login.expired')}</strong>
              {refresh}
            </div>
          )}
        </div>
        <p className="qr-status" aria-live="polite">
          {state.kind === 'waiting' &&
            (state.offline ? (
              <>
                <span className="spinner spinner-sm" /> {t('qr.login.reconnecting')}
              </>
            ) : (
              <>
                <span className="qr-pulse" /> {t('qr.login.waiting')}
              </>
            ))}
          {state.kind === 'loading' && t('qr.login.loading')}
        </p>
      </div>
    </div>
  );
}

function SignedInPanel({ name }: { name: string }) {
  const { t, lang } = useI18n();
  return (
    <div className="card auth-done qr-signed-in" data-testid="qr-signed-in">
      <span className="auth-done-icon brand">
        <Icon name="user" size={26} />
      </span>
      <h1>{t('qr.login.signedIn', { name })}</h1>
      <p className="auth-sub">{t('qr.login.signedInText')}</p>
      <Link to={paths.personalCenter(lang, 'account')} className="btn btn-primary btn-lg">
        {t('qr.login.toAccount')}
      </Link>
    </div>
  );
}

/** The download panel: a QR code of this portal, to continue on a phone. */
function ContinueOnPhonePanel() {
  const { t, lang } = useI18n();
  const [svg, setSvg] = useState<string | null>(null);
  const [target, setTarget] = useState('');

  useEffect(() => {
    const url = `${window.location.origin}${paths.home(lang)}`;
    setTarget(url);
    let cancelled = false;
    void qrSvg(url).then((markup) => {
      if (!cancelled) setSvg(markup);
    });
    return () => {
      cancelled = true;
    };
  }, [lang]);

  return (
    <div className="qr-card card qr-download" data-testid="qr-download">
      <div className="qr-copy">
        <span className="eyebrow">{t('qr.eyebrow')}</span>
        <h2>{t('qr.title')}</h2>
        <p>{t('qr.text')}</p>
        <ol className="qr-steps">
          <li>{t('qr.step1')}</li>
          <li>{t('qr.step2')}</li>
          <li>{t('qr.step3')}</li>
        </ol>
      </div>
      <div className="qr-box" data-testid="qr-code">
        <QrImage svg={svg} label={t('qr.alt')} testId="qr-download-code" />
        <p className="qr-url num">{target || '\u00a0'}</p>
        <p className="qr-hint">
          <Icon name="phone" size={16} /> {t('qr.hint')}
        </p>
      </div>
    </div>
  );
}

/** /{lang}/qrcodePage: QR sign-in for visitors, then the continue-on-your-phone code. */
export function Component() {
  const { user } = useShell();
  const [round, setRound] = useState(0);
  return (
    <section className="qr-page">
      {user ? (
        <SignedInPanel name={user.name} />
      ) : (
        <QrLoginPanel key={round} onRefresh={() => setRound((r) => r + 1)} />
      )}
      <ContinueOnPhonePanel />
    </section>
  );
}
