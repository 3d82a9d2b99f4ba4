import './auth.css';
import type { TUnwrapped } from '@broker/contracts/envelope';
import { AppErrorCode } from '@broker/domain/result-codes';
import type { TTranslate } from '@broker/i18n/translator';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { useShell } from '../../lib/store';

const TICKET = /^[A-Za-z0-9_-]{22}$/;

type TConfirmState =
  | { kind: 'scanning' | 'ready' | 'approving' | 'cancelling' | 'approved' | 'cancelled' | 'expired' }
  | { kind: 'error'; message: string };

/**
 * One scan per ticket and page load: a ticket moves to "scanned" once, so the effect's second run
 * (React's strict mode) must share the first call rather than be refused.
 */
const scans = new Map<string, Promise<TUnwrapped<unknown>>>();
function scanOnce(ticket: string, lang: string) {
  let scan = scans.get(ticket);
  if (!scan) {
    scan = callRoute('qrscan', { ticket }, lang);
    scans.set(ticket, scan);
  }
  return scan;
}

/** The state after a call: `done`, or expired (the server's answer for a ticket no longer live), or failed. */
function outcome(answer: TUnwrapped<unknown>, done: TConfirmState, t: TTranslate): TConfirmState {
  if (answer.succeed) return done;
  if (answer.ErrorCode === AppErrorCode.CODE_EXPIRED) return { kind: 'expired' };
  return { kind: 'error', message: failureText(answer, t) };
}

/** /{lang}/qrConfirm?ticket=…: the signed-in device approves or refuses a QR sign-in. */
export function Component() {
  const { t, lang } = useI18n();
  const { user } = useShell();
  const [params] = useSearchParams();
  const ticket = params.get('ticket') ?? '';
  const valid = TICKET.test(ticket);
  const [state, setState] = useState<TConfirmState>({ kind: valid ? 'scanning' : 'expired' });

  useEffect(() => {
    if (!valid) return;
    let current = true;
    void scanOnce(ticket, lang).then((answer) => {
      if (current) setState(outcome(answer, { kind: 'ready' }, t));
    });
    return () => {
      current = false;
    };
  }, [ticket, valid, lang, t]);

  const decide = async (approve: boolean) => {
    setState({ kind: approve ? 'approving' : 'cancelling' });
    const answer = await callRoute('qrconfirm', { ticket, approve }, lang);
    setState(outcome(answer, { kind: approve ? 'approved' : 'cancelled' }, t));
  };

  const home = (
    <Link to={paths.home(lang)} className="btn btn-secondary btn-lg btn-block">
      {t('qr.confirm.home')}
    </Link>
  );

  let body: ReactNode;
  switch (state.kind) {
    case 'scanning':
      body = (
        <div className="auth-state" role="status">
          <span className="spinner" />
          <p>{t('qr.confirm.scanning')}</p>
        </div>
      );
      break;
    case 'ready':
    case 'approving':
    case 'cancelling':
      body = (
        <>
          <span className="auth-done-icon brand">
            <Icon name="platform" size={28} />
          </span>
          <h1>{t('qr.confirm.title')}</h1>
          <p className="auth-sub">{t('qr.confirm.question', { name: user?.name ?? '' })}</p>
          <div className="alert alert-info auth-warning">
            <Icon name="shield" size={16} />
            <span>{t('qr.confirm.warning')}</span>
          </div>
          <div className="auth-actions">
            <button
              type="button"
              className="btn btn-primary btn-lg btn-block"
              disabled={state.kind !== 'ready'}
              aria-busy={state.kind === 'approving'}
              data-testid="qr-approve"
              onClick={() => void decide(true)}
            >
              {state.kind === 'approving' ? <span className="spinner" /> : t('qr.confirm.approve')}
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-lg btn-block"
              disabled={state.kind !== 'ready'}
              aria-busy={state.kind === 'cancelling'}
              data-testid="qr-cancel"
              onClick={() => void decide(false)}
            >
              {state.kind === 'cancelling' ? <span className="spinner" /> : t('qr.confirm.cancel')}
            </button>
          </div>
        </>
      );
      break;
    case 'approved':
    case 'cancelled':
      body = (
        <>
          <span className={`auth-done-icon${state.kind === 'cancelled' ? ' muted' : ''}`}>
            <Icon name={state.kind === 'approved' ? 'check' : 'close'} size={28} />
          </span>
          <h1>{t(state.kind === 'approved' ? 'qr.confirm.approved' : 'qr.confirm.cancelled')}</h1>
          <p className="auth-sub">
            {t(state.kind === 'approved' ? 'qr.confirm.approvedText' : 'qr.confirm.cancelledText')}
          </p>
          {home}
        </>
      );
      break;
    case 'expired':
      body = (
        <>
          <span className="auth-done-icon warn">
            <Icon name="clock" size={28} />
          </span>
          <h1>{t('qr.confirm.expired')}</h1>
          <p className="auth-sub">{t('qr.confirm.expiredText')}</p>
          {home}
        </>
      );
      break;
    case 'error':
      body = (
        <>
          <span className="auth-done-icon warn">
            <Icon name="alert" size={28} />
          </span>
          <h1>{t('qr.confirm.failed')}</h1>
          <div className="alert alert-error" role="alert">
            {state.message}
          </div>
          {home}
        </>
      );
      break;
  }

  return (
    <section className="auth-page">
      <div className="auth-card card auth-done" data-testid="qr-confirm" data-state={state.kind}>
        {body}
      </div>
    </section>
  );
}
