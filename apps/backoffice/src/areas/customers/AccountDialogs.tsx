import { useMemo, useState } from 'react';
import { useI18n } from '../../i18n';
import { Field } from '../../kit/Field';
import { ConfirmDialog, Modal } from '../../kit/Modal';
import { newIdempotencyKey, useMutation } from '../../kit/useApi';
import {
  compareAmounts,
  isAmount,
  RESTRICTION_KEYS,
  RESTRICTION_LABELS,
  type TRestrictionKey,
  useFormat,
} from './format';
import type { TAccount } from './tabs';

interface TDialogProps {
  userId: string;
  account: TAccount;
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Per-account restrictions (spec 6): the trader's next call that one of them forbids is refused. */
export function RestrictDialog({ userId, account, onClose, onDone }: TDialogProps) {
  const { t } = useI18n();
  const save = useMutation('admincustomerrestrict');
  const [flags, setFlags] = useState<Record<TRestrictionKey, boolean>>({ ...account.restrictions });
  const [key] = useState(newIdempotencyKey);
  const changed = RESTRICTION_KEYS.some((k) => flags[k] !== account.restrictions[k]);
  return (
    <ConfirmDialog
      title={t('admin.customers.restrict.title', { account: account.accountId })}
      message={t('admin.customers.restrict.text')}
      confirmLabel={t('admin.customers.restrict.save')}
      pending={save.pending}
      error={save.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        if (!changed) return onClose();
        const result = await save.run({
          userId,
          accountId: account.accountId,
          restrictions: flags,
          idempotencyKey: key,
        });
        if (result) onDone(t('admin.customers.restrict.done', { account: account.accountId }));
      }}
    >
      <fieldset className="cu-checks" data-testid="restrict-dialog">
        {RESTRICTION_KEYS.map((k) => (
          <label key={k} className="kit-check">
            <input
              type="checkbox"
              checked={flags[k]}
              onChange={(e) => setFlags((current) => ({ ...current, [k]: e.target.checked }))}
              data-testid={`restrict-${k}`}
            />
            {t(RESTRICTION_LABELS[k])}
          </label>
        ))}
      </fieldset>
    </ConfirmDialog>
  );
}

/**
 * A balance adjustment in two steps: the form (credit or debit, amount, reason), then a review
 * that says whether it applies at once or waits for a second approval.
 */
export function AdjustDialog({ userId, account, onClose, onDone }: TDialogProps) {
  const { t } = useI18n();
  const format = useFormat();
  const adjust = useMutation('admincustomeradjust');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [step, setStep] = useState<'form' | 'review'>('form');
  const [touched, setTouched] = useState(false);
  // One key per adjustment the staff member means, kept across retries of the same one.
  const [key, setKey] = useState(newIdempotencyKey);
  const problems = useMemo(() => {
    const list: { amount?: string; reason?: string } = {};
    if (!isAmount(amount) || compareAmounts(amount, '0') === 0)
      list.amount = t('admin.customers.adjust.amountInvalid');
    else if (direction === 'debit' && compareAmounts(amount, account.balance) > 0)
      list.amount = t('admin.customers.adjust.overBalance', { balance: format.money(account.balance) });
    const length = reason.trim().length;
    if (length < 3 || length > 200) list.reason = t('admin.customers.adjust.reasonLength');
    return list;
  }, [amount, reason, direction, account.balance, t, format]);
  const signed = `${direction === 'debit' ? '-' : ''}${amount.trim()}`;
  const needsApproval =
    account.approvalThreshold !== null &&
    isAmount(amount) &&
    compareAmounts(amount, account.approvalThreshold) > 0;
  const edit = () => {
    setStep('form');
    adjust.reset();
  };
  const footer =
    step === 'form' ? (
      <>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          {t('admin.kit.cancel')}
        </button>
        <button type="submit" form="cu-adjust-form" className="btn btn-primary" data-testid="adjust-next">
          {t('admin.customers.adjust.review')}
        </button>
      </>
    ) : (
      <>
        <button type="button" className="btn btn-secondary" onClick={edit} disabled={adjust.pending}>
          {t('admin.customers.adjust.back')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={adjust.pending}
          data-testid="adjust-confirm"
          onClick={async () => {
            const result = await adjust.run({
              userId,
              accountId: account.accountId,
              amount: signed,
              reason: reason.trim(),
              idempotencyKey: key,
            });
            if (!result) return;
            onDone(
              result.status === 'pending'
                ? t('admin.customers.adjust.donePending')
                : t('admin.customers.adjust.doneApplied', {
                    amount: `${format.signed(result.amount)} ${result.currency}`,
                  }),
            );
          }}
        >
          {adjust.pending ? <span className="bo-spin bo-spinner-sm" aria-hidden="true" /> : null}
          {t(needsApproval ? 'admin.customers.adjust.submitForApproval' : 'admin.customers.adjust.confirm')}
        </button>
      </>
    );
  return (
    <Modal
      title={t('admin.customers.adjust.title', { account: account.accountId })}
      onClose={onClose}
      footer={footer}
      testId="adjust-dialog"
    >
      {step === 'form' ? (
        <form
          id="cu-adjust-form"
          className="cu-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (problems.amount || problems.reason) return;
            setStep('review');
          }}
        >
          <div className="cu-segment" role="radiogroup" aria-label={t('admin.customers.adjust.direction')}>
            {(['credit', 'debit'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={direction === value}
                className="cu-segment-item"
                data-testid={`adjust-${value}`}
                onClick={() => {
                  setDirection(value);
                  setKey(newIdempotencyKey());
                }}
              >
                {t(value === 'credit' ? 'admin.customers.adjust.credit' : 'admin.customers.adjust.debit')}
              </button>
            ))}
          </div>
          <Field
            label={t('admin.customers.adjust.amount', { currency: account.currency })}
            error={touched ? problems.amount : null}
            hint={
              account.approvalThreshold === null
                ? t('admin.customers.adjust.noApproval')
                : t('admin.customers.adjust.thresholdHint', {
                    amount: `${format.money(account.approvalThreshold)} ${account.currency}`,
                  })
            }
          >
            {(props) => (
              <input
                {...props}
                className="input num"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => {
                  setAmount(e.target.value);
                  setKey(newIdempotencyKey());
                }}
                placeholder="0.00"
                data-testid="adjust-amount"
              />
            )}
          </Field>
          <Field
            label={t('admin.customers.adjust.reason')}
            error={touched ? problems.reason : null}
            hint={t('admin.customers.adjust.reasonHint')}
          >
            {(props) => (
              <textarea
                {...props}
                className="input"
                rows={3}
                maxLength={200}
                value={reason}
                onChange={(e) => {
                  setReason(e.target.value);
                  setKey(newIdempotencyKey());
                }}
                data-testid="adjust-reason"
              />
            )}
          </Field>
          <p className="kit-hint">
            {t('admin.customers.adjust.balanceNow', {
              balance: `${format.money(account.balance)} ${account.currency}`,
            })}
          </p>
        </form>
      ) : (
        <div className="cu-review" data-testid="adjust-review">
          <dl className="cu-facts">
            <div>
              <dt>{t('admin.customers.field.account')}</dt>
              <dd className="num">#{account.accountId}</dd>
            </div>
            <div>
              <dt>{t('admin.customers.adjustment.amount')}</dt>
              <dd className={`num ${direction === 'debit' ? 'kit-down' : 'kit-up'}`}>
                {format.signed(signed)} {account.currency}
              </dd>
            </div>
            <div>
              <dt>{t('admin.customers.adjustment.reason')}</dt>
              <dd>{reason.trim()}</dd>
            </div>
          </dl>
          <p className={needsApproval ? 'cu-callout cu-callout-warn' : 'cu-callout'}>
            {needsApproval ? t('admin.customers.adjust.willWait') : t('admin.customers.adjust.willApply')}
          </p>
          {adjust.error ? (
            <p className="kit-error" role="alert" data-testid="adjust-error">
              {adjust.error.message}
            </p>
          ) : null}
        </div>
      )}
    </Modal>
  );
}

/** Demo accounts only: closes everything and restores the starting balance. */
export function DemoResetDialog({ userId, account, onClose, onDone }: TDialogProps) {
  const { t } = useI18n();
  const reset = useMutation('admincustomerdemoreset');
  const [key] = useState(newIdempotencyKey);
  return (
    <ConfirmDialog
      title={t('admin.customers.demoReset.title', { account: account.accountId })}
      message={t('admin.customers.demoReset.text', { positions: account.positions, orders: account.orders })}
      confirmLabel={t('admin.customers.demoReset.action')}
      danger
      pending={reset.pending}
      error={reset.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        const result = await reset.run({ userId, accountId: account.accountId, idempotencyKey: key });
        if (result) onDone(t('admin.customers.demoReset.done', { account: account.accountId }));
      }}
    />
  );
}

/** Moves the account to another group of the broker (its trading terms follow the group). */
export function MoveGroupDialog({
  userId,
  account,
  groups,
  onClose,
  onDone,
}: TDialogProps & { groups: TTabGroups }) {
  const { t } = useI18n();
  const move = useMutation('admincustomermovegroup');
  const [groupId, setGroupId] = useState(account.groupId ?? groups.find((g) => g.isDefault)?.id ?? '');
  return (
    <ConfirmDialog
      title={t('admin.customers.group.title', { account: account.accountId })}
      message={t('admin.customers.group.text')}
      confirmLabel={t('admin.customers.group.save')}
      pending={move.pending}
      error={move.error?.message ?? null}
      onCancel={onClose}
      onConfirm={async () => {
        if (!groupId || groupId === account.groupId) return onClose();
        const result = await move.run({ userId, accountId: account.accountId, groupId });
        if (result)
          onDone(
            t('admin.customers.group.done', { account: account.accountId, group: result.groupName ?? '' }),
          );
      }}
    >
      <label className="field kit-field">
        <span className="field-label">{t('admin.customers.group.label')}</span>
        <select
          className="input"
          value={groupId}
          onChange={(e) => setGroupId(e.target.value)}
          data-testid="group-select"
        >
          {groups.map((group) => (
            <option key={group.id} value={group.id}>
              {group.isDefault ? t('admin.customers.group.default', { name: group.name }) : group.name}
            </option>
          ))}
        </select>
      </label>
    </ConfirmDialog>
  );
}

type TTabGroups = { id: string; name: string; isDefault: boolean }[];
