import { ALERT_CONDITIONS, ALERT_LIMITS, type TAlertCondition } from '@broker/contracts/alert-paths';
import { useId, useState } from 'react';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { newIdempotencyKey } from '../../lib/trading/orders';
import { Dialog } from './Dialog';
import { PriceInput, useNumbers } from './fields';
import { type TAlertDraft, useAlerts } from './useAlerts';

const EXPIRIES = {
  keep: null,
  never: null,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
} as const;
type TExpiry = keyof typeof EXPIRIES;

/** The level a move reaches from the bid, as the server computes it (rounded away from the bid). */
function moveTarget(bid: string, percent: string, up: boolean, digits: number): string | null {
  const points = Math.round(Number(bid) * 10 ** digits);
  const bp = Math.round(Number(percent) * 100);
  if (!Number.isFinite(points) || !(bp > 0)) return null;
  const move = Math.max(1, Math.ceil((points * bp) / 10_000));
  const target = up ? points + move : points - move;
  return target > 0 ? (target / 10 ** digits).toFixed(digits) : null;
}

/**
 * A new price alert on the chart's symbol, starting from the bid now: a level the bid rises or falls
 * to, or a move by a percentage; a note, an expiry, and whether it repeats. The server checks the
 * level against the bid and the symbol's digits and answers a translated refusal otherwise.
 */
export function AlertDialog({ draft }: { draft: TAlertDraft }) {
  const { t, intl } = useI18n();
  const numbers = useNumbers();
  const alerts = useAlerts();
  const { symbol, digits, bid, editing } = draft;
  const start = editing?.price ?? draft.price ?? bid ?? '';
  const [condition, setCondition] = useState<TAlertCondition>(
    editing?.condition ?? (bid && draft.price && Number(draft.price) < Number(bid) ? 'below' : 'above'),
  );
  const [chosen, setChosen] = useState(Boolean(editing));
  const [price, setPrice] = useState(() => (start ? numbers.input(start) : ''));
  const [percent, setPercent] = useState(() => numbers.input(editing?.percent ?? '1'));
  const [note, setNote] = useState(editing?.note ?? '');
  const [expiry, setExpiry] = useState<TExpiry>(editing ? 'keep' : 'never');
  const [repeat, setRepeat] = useState(editing ? !editing.oneShot : false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key] = useState(newIdempotencyKey);
  const noteId = useId();
  const expiryId = useId();
  const level = condition === 'above' || condition === 'below';
  const priceValue = numbers.read(price);
  const percentValue = numbers.read(percent);
  const target = level
    ? priceValue
    : bid && percentValue
      ? moveTarget(bid, percentValue, condition === 'moveUp', digits)
      : null;

  const changePrice = (text: string) => {
    setPrice(text);
    // Until the trader picks a condition, a level follows the side of the bid it is on.
    const value = numbers.read(text);
    if (!chosen && bid && value && level) setCondition(Number(value) < Number(bid) ? 'below' : 'above');
  };

  const expiresAt = EXPIRIES[expiry] === null ? null : Date.now() + (EXPIRIES[expiry] as number);
  const terms = level ? { price: priceValue ?? price } : { percent: percentValue ?? percent };
  /** An edit sends the condition only when it changed: a move is otherwise measured again from now. */
  const termsChanged =
    !editing ||
    editing.condition !== condition ||
    (level ? editing.price !== priceValue : editing.percent !== percentValue);

  const submit = async () => {
    setError(null);
    setBusy(true);
    const answer = editing
      ? await alerts.call('alertupdate', {
          id: editing.id,
          ...(termsChanged ? { condition, ...terms } : {}),
          note: note.trim(),
          oneShot: !repeat,
          ...(expiry === 'keep' ? {} : { expiresAt }),
        })
      : await alerts.call('alertcreate', {
          symbol,
          condition,
          ...terms,
          note: note.trim(),
          oneShot: !repeat,
          expiresAt,
          idempotencyKey: key,
        });
    setBusy(false);
    if (answer.ok) alerts.closeDialog();
    else setError(answer.message);
  };

  return (
    <Dialog
      title={t('trade.alert.dialogTitle', { symbol })}
      subtitle={bid ? t('trade.alert.bidNow', { price: formatDecimal(intl, bid, digits) }) : undefined}
      onClose={alerts.closeDialog}
      busy={busy}
      testId="alert-dialog"
      footer={
        <>
          <button type="button" className="btn btn-ghost btn-sm" onClick={alerts.closeDialog} disabled={busy}>
            {t('trade.action.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={submit}
            disabled={busy || (level ? !priceValue : !percentValue)}
            data-testid="alert-create"
          >
            {busy ? (
              <span className="spinner tr-spinner" />
            ) : (
              t(editing ? 'trade.action.save' : 'trade.alert.create')
            )}
          </button>
        </>
      }
    >
      <div className="tr-alert-form">
        <fieldset className="tr-alert-conditions">
          <legend className="tr-label">{t('trade.alert.condition')}</legend>
          {ALERT_CONDITIONS.map((value) => (
            <label key={value} className={`tr-alert-condition${condition === value ? ' active' : ''}`}>
              <input
                type="radio"
                name="alert-condition"
                value={value}
                checked={condition === value}
                onChange={() => {
                  setCondition(value);
                  setChosen(true);
                }}
                data-testid={`alert-condition-${value}`}
              />
              {t(`trade.alert.condition.${value}`)}
            </label>
          ))}
        </fieldset>
        {level ? (
          <PriceInput
            label={t('trade.alert.price')}
            value={price}
            onChange={changePrice}
            testId="alert-price"
            digits={digits}
          />
        ) : (
          <PriceInput
            label={t('trade.alert.percent')}
            value={percent}
            onChange={setPercent}
            testId="alert-percent"
            suffix="%"
          />
        )}
        {target && (
          <p className="tr-hint num" data-testid="alert-target">
            {t('trade.alert.firesAt', { price: formatDecimal(intl, target, digits) })}
          </p>
        )}
        <div className="tr-field">
          <label className="tr-label" htmlFor={noteId}>
            {t('trade.alert.note')}
          </label>
          <div className="tr-input-wrap">
            <input
              id={noteId}
              className="tr-input"
              value={note}
              maxLength={ALERT_LIMITS.note}
              onChange={(e) => setNote(e.target.value)}
              data-testid="alert-note"
            />
          </div>
        </div>
        <div className="tr-field">
          <label className="tr-label" htmlFor={expiryId}>
            {t('trade.alert.expiry')}
          </label>
          <select
            id={expiryId}
            className="tr-select"
            value={expiry}
            onChange={(e) => setExpiry(e.target.value as TExpiry)}
            data-testid="alert-expiry"
          >
            {(Object.keys(EXPIRIES) as TExpiry[])
              .filter((value) => editing || value !== 'keep')
              .map((value) => (
                <option key={value} value={value}>
                  {t(`trade.alert.expiry.${value}`)}
                </option>
              ))}
          </select>
        </div>
        <label className="tr-alert-check">
          <input type="checkbox" checked={repeat} onChange={(e) => setRepeat(e.target.checked)} />
          {t('trade.alert.repeat')}
        </label>
        <p className="tr-hint">{t('trade.alert.channels')}</p>
        {error && (
          <p className="alert alert-error" role="alert" data-testid="alert-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}

/** The add dialog, while the terminal has a draft open (the bell, or a price picked on the chart). */
export function AlertDialogHost() {
  const { draft } = useAlerts();
  return draft ? (
    <AlertDialog key={`${draft.symbol}:${draft.price ?? ''}:${draft.editing?.id ?? ''}`} draft={draft} />
  ) : null;
}
