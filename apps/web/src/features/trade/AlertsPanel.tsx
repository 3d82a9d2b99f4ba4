import { useEffect, useState } from 'react';
import { Icon } from '../../components/Icon';
import { callRoute } from '../../lib/api';
import { TRADE_TIME, useI18n } from '../../lib/i18n';
import { ConfirmDialog } from './dialogs';
import { type TAlert, useAlerts, useConditionText } from './useAlerts';

/** Where the portal's push service worker is served (the server's `/push-sw.js`, scope `/`). */
const PUSH_WORKER = '/push-sw.js';

type TPushState = 'unknown' | 'unsupported' | 'blocked' | 'off' | 'on' | 'busy' | 'failed';

/** Whether this browser can take Web Push, and whether it already has this portal's subscription. */
async function pushState(): Promise<TPushState> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  if (Notification.permission === 'denied') return 'blocked';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

/**
 * Subscribes this browser to Web Push: asks for permission, registers the service worker, subscribes
 * with the server's VAPID key and stores the subscription (`pushinsert`).
 */
async function subscribePush(lang: string): Promise<TPushState> {
  if ((await Notification.requestPermission()) !== 'granted') return 'blocked';
  const registration = await navigator.serviceWorker.register(PUSH_WORKER, { scope: '/' });
  await navigator.serviceWorker.ready;
  const key = await callRoute('pushkey', {}, lang);
  if (!key.succeed || !key.Data) return 'failed';
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key.Data.publicKey,
    }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  const stored = await callRoute('pushinsert', { endpoint: json.endpoint, keys: json.keys }, lang);
  return stored.succeed ? 'on' : 'failed';
}

function PushSwitch() {
  const { t, lang } = useI18n();
  const [state, setState] = useState<TPushState>('unknown');
  useEffect(() => {
    pushState().then(setState, () => setState('unsupported'));
  }, []);
  if (state === 'unknown') return null;
  if (state === 'on')
    return (
      <span className="tr-alert-push on" data-testid="alert-push-on">
        <Icon name="check" size={14} /> {t('trade.alert.push.on')}
      </span>
    );
  if (state === 'unsupported' || state === 'blocked')
    return <span className="tr-alert-push">{t(`trade.alert.push.${state}`)}</span>;
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      disabled={state === 'busy'}
      onClick={async () => {
        setState('busy');
        setState(await subscribePush(lang).catch((): TPushState => 'failed'));
      }}
      data-testid="alert-push-enable"
    >
      {state === 'failed' ? t('errors.network') : t('trade.alert.push.enable')}
    </button>
  );
}

/**
 * The trader's price alerts in the terminal's lower panel: active ones first, then those that fired
 * or expired (re-arm or delete them), with the count against the limit and the browser's push switch.
 */
/** The symbol's digits as the alert's level is written ("2003.00": 2). */
const digitsOf = (alert: TAlert) => alert.triggerPrice.split('.')[1]?.length ?? 0;

export function AlertsPanel({
  layout,
  quotes,
}: {
  layout: 'table' | 'cards';
  /** Live quotes by symbol: an edit starts from the bid now. */
  quotes: Readonly<Record<string, { bid: string }>>;
}) {
  const { t, formatDate } = useI18n();
  const alerts = useAlerts();
  const conditionText = useConditionText();
  const [deleting, setDeleting] = useState<TAlert | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const rearm = async (alert: TAlert) => {
    setProblem(null);
    const answer = await alerts.call('alertrearm', { id: alert.id });
    if (!answer.ok) setProblem(answer.message);
  };

  let body: React.ReactNode;
  if (alerts.status === 'loading' && alerts.items.length === 0)
    body = (
      <div className="tr-empty">
        <span className="spinner" />
      </div>
    );
  else if (alerts.status === 'error' && alerts.items.length === 0)
    body = (
      <div className="tr-empty" role="alert">
        <Icon name="alert" size={22} />
        <p>{t('errors.network')}</p>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void alerts.reload()}>
          {t('common.retry')}
        </button>
      </div>
    );
  else if (alerts.items.length === 0)
    body = (
      <div className="tr-empty" data-testid="alerts-empty">
        <Icon name="clock" size={22} />
        <p>{t('trade.alert.empty')}</p>
      </div>
    );
  else
    body = (
      <ul className={`tr-alert-list tr-alert-list-${layout}`} data-testid="alerts-list">
        {alerts.items.map((alert) => (
          <li
            key={alert.id}
            className={`tr-alert-row tr-alert-${alert.state}`}
            data-testid="alert-row"
            data-alert={alert.id}
            data-state={alert.state}
          >
            <span className="tr-alert-symbol">{alert.symbol}</span>
            <span className="tr-alert-condition-text num">{conditionText(alert)}</span>
            <span className={`tr-alert-state tr-alert-state-${alert.state}`} data-testid="alert-state">
              {t(`trade.alert.state.${alert.state}`)}
              {alert.state === 'fired' && alert.firedAt !== null && (
                <span className="tr-muted num"> {formatDate(alert.firedAt, TRADE_TIME)}</span>
              )}
            </span>
            {alert.note && <span className="tr-alert-note">{alert.note}</span>}
            {alert.expiresAt !== null && alert.state === 'active' && (
              <span className="tr-muted num">
                {t('trade.alert.col.expires')} {formatDate(alert.expiresAt, TRADE_TIME)}
              </span>
            )}
            <span className="tr-alert-actions">
              {alert.state === 'active' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() =>
                    alerts.openDialog({
                      symbol: alert.symbol,
                      digits: digitsOf(alert),
                      bid: quotes[alert.symbol]?.bid ?? null,
                      editing: alert,
                    })
                  }
                  aria-label={`${t('trade.alert.edit')} ${alert.symbol} ${conditionText(alert)}`}
                  data-testid="alert-edit"
                >
                  {t('trade.alert.edit')}
                </button>
              )}
              {alert.state !== 'active' && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => void rearm(alert)}
                  data-testid="alert-rearm"
                >
                  {t('trade.alert.rearm')}
                </button>
              )}
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => setDeleting(alert)}
                aria-label={`${t('trade.alert.delete')} ${alert.symbol} ${conditionText(alert)}`}
                data-testid="alert-delete"
              >
                {t('trade.alert.delete')}
              </button>
            </span>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="tr-alerts" data-testid="alerts-view">
      <div className="tr-alerts-head">
        <span className="tr-muted num" data-testid="alerts-count">
          {t('trade.alert.count', { active: alerts.active, limit: alerts.limit })}
        </span>
        <PushSwitch />
      </div>
      {problem && (
        <p className="alert alert-error" role="alert">
          {problem}
        </p>
      )}
      {body}
      {deleting && (
        <ConfirmDialog
          title={t('trade.alert.deleteTitle')}
          text={t('trade.alert.deleteText', { symbol: deleting.symbol, condition: conditionText(deleting) })}
          confirmLabel={t('trade.alert.delete')}
          danger
          onConfirm={() => alerts.call('alertdelete', { id: deleting.id })}
          onClose={() => setDeleting(null)}
          testId="alert-delete-dialog"
        />
      )}
    </div>
  );
}
