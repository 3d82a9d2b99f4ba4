import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useState } from 'react';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { ConfirmDialog, SettingsCard } from './controls';
import { deviceName, isHandheld, useSettingsCall } from './settings-api';

type TSession = TRouteOutput<'sessionlist'>[number];
type TLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; sessions: TSession[] };
type TTarget = { kind: 'one'; session: TSession } | { kind: 'others'; count: number };

const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

/** The trader's live sessions; any but this one can be signed out, one by one or all at once. */
export function SessionsCard() {
  const { t, formatDate } = useI18n();
  const call = useSettingsCall();
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [target, setTarget] = useState<TTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);

  const fetchSessions = useCallback(async () => {
    const answer = await call('sessionlist', {});
    if (!answer.succeed || !answer.Data) setLoad({ status: 'failed', message: failureText(answer, t) });
    else {
      // This device first, then the most recently active.
      const sessions = [...answer.Data].sort((a, b) => Number(b.current) - Number(a.current));
      setLoad({ status: 'ready', sessions });
    }
  }, [call, t]);

  useEffect(() => {
    void fetchSessions();
  }, [fetchSessions]);

  const revoke = async () => {
    if (!target) return;
    setBusy(true);
    const answer = await call(
      'sessionrevoke',
      target.kind === 'one' ? { id: target.session.id } : { allOthers: true },
    );
    setBusy(false);
    setTarget(null);
    setNotice(
      answer.succeed && answer.Data
        ? { kind: 'info', text: t('settings.sessions.revoked', { count: answer.Data.revoked }) }
        : { kind: 'error', text: failureText(answer, t) },
    );
    await fetchSessions();
  };

  const others = load.status === 'ready' ? load.sessions.filter((s) => !s.current).length : 0;

  return (
    <SettingsCard
      title={t('settings.sessions.title')}
      text={t('settings.sessions.text')}
      testId="sessions-card"
      aside={
        others > 0 ? (
          <button
            type="button"
            className="btn btn-secondary btn-sm st-danger-outline"
            onClick={() => setTarget({ kind: 'others', count: others })}
            data-testid="sessions-revoke-others"
          >
            <Icon name="logout" size={14} />
            {t('settings.sessions.signOutOthers')}
          </button>
        ) : null
      }
    >
      {notice && (
        <div
          className={`alert alert-${notice.kind} st-alert`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </div>
      )}
      {load.status === 'loading' && (
        <div className="st-sessions" aria-busy="true">
          <div className="skeleton st-skeleton-session" />
          <div className="skeleton st-skeleton-session" />
        </div>
      )}
      {load.status === 'failed' && (
        <div className="st-inline-error" role="alert">
          <span>{load.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void fetchSessions()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {load.status === 'ready' && (
        <>
          <ul className="st-sessions" data-testid="sessions">
            {load.sessions.map((session) => (
              <li
                key={session.id}
                className="st-session"
                data-testid="session"
                data-session={session.id}
                data-current={session.current}
              >
                <span className="st-session-icon" aria-hidden="true">
                  <Icon name={isHandheld(session.device) ? 'phone' : 'platform'} size={20} />
                </span>
                <div className="st-session-main">
                  <div className="st-session-title">
                    <strong>{deviceName(session.device, t)}</strong>
                    {session.current && (
                      <span className="badge st-badge-on" data-testid="session-current">
                        {t('settings.sessions.current')}
                      </span>
                    )}
                  </div>
                  <div className="st-session-meta">
                    <span className="num">{session.ip ?? t('settings.sessions.unknownIp')}</span>
                    <span>
                      {t('settings.sessions.created', {
                        date: formatDate(new Date(session.createdAt), WHEN),
                      })}
                    </span>
                    <span>
                      {t('settings.sessions.lastSeen', {
                        date: formatDate(new Date(session.lastSeenAt), WHEN),
                      })}
                    </span>
                  </div>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm st-session-action"
                    onClick={() => setTarget({ kind: 'one', session })}
                    data-testid="session-revoke"
                  >
                    {t('settings.sessions.signOut')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others === 0 && <p className="st-muted">{t('settings.sessions.onlyThis')}</p>}
        </>
      )}
      {target && (
        <ConfirmDialog
          title={t(
            target.kind === 'one'
              ? 'settings.sessions.confirmOneTitle'
              : 'settings.sessions.confirmOthersTitle',
          )}
          text={
            target.kind === 'one'
              ? t('settings.sessions.confirmOneText', { device: deviceName(target.session.device, t) })
              : t('settings.sessions.confirmOthersText', { count: target.count })
          }
          confirmLabel={t(
            target.kind === 'one' ? 'settings.sessions.signOut' : 'settings.sessions.signOutOthers',
          )}
          busy={busy}
          onConfirm={() => void revoke()}
          onCancel={() => setTarget(null)}
        />
      )}
    </SettingsCard>
  );
}
