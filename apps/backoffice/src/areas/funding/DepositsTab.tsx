import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { Icon } from '../../components/Icon';
import { useI18n } from '../../i18n';
import type { TColumn } from '../../kit/DataTable';
import { Drawer, DrawerSection, Facts } from '../../kit/Drawer';
import { LoadError, Skeleton } from '../../kit/Feedback';
import { useQuery } from '../../kit/useApi';
import {
  DEPOSIT_STATE_LABELS,
  DEPOSIT_STATE_TONES,
  DEPOSIT_STATES,
  failureLabel,
  methodLabel,
  type TAdminDeposit,
  useFundingFormat,
} from './format';
import { leadColumns, QueueTable, useQueue } from './Queue';
import { CopyText, CustomerBrief } from './ui';

type TRow = TRouteOutput<'adminfundingqueue'>['deposits'][number];
const FILTERS = ['all', ...DEPOSIT_STATES] as const;

/** Every deposit, newest first: state segments with counts, method and customer filters; a row opens its details. */
export function DepositsTab() {
  const { t } = useI18n();
  const format = useFundingFormat();
  const queue = useQueue({ kind: 'deposit', filters: FILTERS, states: DEPOSIT_STATES, defaultFilter: 'all' });
  const { update, open } = queue;
  const rows = queue.list.data?.deposits ?? [];

  const columns = useMemo<TColumn<TRow>[]>(
    () => [
      ...leadColumns<TRow>({
        t,
        format,
        update,
        dateKey: 'created',
        dateHeader: t('admin.funding.field.created'),
        openTestId: 'deposit-open',
      }),
      {
        key: 'amount',
        header: t('admin.funding.field.amount'),
        align: 'end',
        render: (row) => <strong className="num">{format.money(row.amount, row.methodCurrency)}</strong>,
      },
      {
        key: 'credited',
        header: t('admin.funding.field.credited'),
        align: 'end',
        render: (row) =>
          row.credited ? (
            <span className="num">{format.money(row.credited, row.accountCurrency)}</span>
          ) : (
            <span className="fu-muted">—</span>
          ),
      },
      {
        key: 'reference',
        header: t('admin.funding.field.providerRef'),
        render: (row) => (
          <span className="fu-mono fu-clip" title={row.providerRef ?? row.reference ?? ''}>
            {row.providerRef ?? row.reference ?? '—'}
          </span>
        ),
      },
      {
        key: 'status',
        header: t('admin.funding.field.state'),
        render: (row) => (
          <span
            className={`kit-pill ${DEPOSIT_STATE_TONES[row.status]}`}
            data-testid="deposit-status"
            data-status={row.status}
          >
            {t(DEPOSIT_STATE_LABELS[row.status])}
          </span>
        ),
      },
    ],
    [t, format, update],
  );

  return (
    <div className="fu-tab">
      <QueueTable
        queue={queue}
        rows={rows}
        columns={columns}
        stateLabel={(state) => t(DEPOSIT_STATE_LABELS[state])}
        segmentsTestId="deposit-states"
        tableTestId="deposits-table"
        rowTestId="deposit-row"
        emptyUnfiltered={t('admin.funding.deposits.none')}
      />
      {open ? (
        <DepositDrawer
          id={open}
          onClose={() => update({ open: null })}
          onOnlyCustomer={(id) => update({ customer: id, open: null, status: null })}
        />
      ) : null}
    </div>
  );
}

/** One deposit: amounts, fee and rate, where the money was sent, the provider's reference, the customer. */
export function DepositDrawer({
  id,
  onClose,
  onOnlyCustomer,
}: {
  id: string;
  onClose: () => void;
  onOnlyCustomer?: (userId: string) => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const detail = useQuery('admindepositdetail', { id });
  const deposit = detail.data;
  return (
    <Drawer
      className="fu-drawer"
      testId="deposit-drawer"
      onClose={onClose}
      title={
        <>
          {t('admin.funding.deposit.title')}
          {deposit ? (
            <span className={`kit-pill ${DEPOSIT_STATE_TONES[deposit.status]}`} data-status={deposit.status}>
              {t(DEPOSIT_STATE_LABELS[deposit.status])}
            </span>
          ) : null}
        </>
      }
      subtitle={
        deposit ? (
          <>
            <span>{format.dateTime(deposit.createdAt)}</span>
            <span>{methodLabel(t, deposit.method)}</span>
            <span className="fu-mono">{deposit.id}</span>
          </>
        ) : null
      }
    >
      {detail.status === 'error' && !deposit ? (
        <LoadError message={detail.error.message} onRetry={detail.reload} />
      ) : !deposit ? (
        <Skeleton lines={8} />
      ) : (
        <DepositDetails
          deposit={deposit}
          {...(onOnlyCustomer ? { onOnlyCustomer: () => onOnlyCustomer(deposit.customer.userId) } : {})}
        />
      )}
    </Drawer>
  );
}

function DepositDetails({
  deposit,
  onOnlyCustomer,
}: {
  deposit: TAdminDeposit;
  onOnlyCustomer?: () => void;
}) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const final = deposit.status === 'completed' || deposit.status === 'failed' || deposit.status === 'expired';
  return (
    <>
      <DrawerSection title={t('admin.funding.withdrawal.money')}>
        <div className="fu-money">
          <div>
            <span className="fu-muted">{t('admin.funding.field.amount')}</span>
            <strong className="num fu-big" data-testid="deposit-amount">
              {format.money(deposit.amount, deposit.methodCurrency)}
            </strong>
          </div>
          <Icon name="arrowRight" size={18} />
          <div>
            <span className="fu-muted">{t('admin.funding.field.credited')}</span>
            <strong className="num fu-big">
              {deposit.credited ? format.money(deposit.credited, deposit.accountCurrency) : '—'}
            </strong>
          </div>
        </div>
        <Facts
          items={[
            [t('admin.funding.field.fee'), format.money(deposit.fee, deposit.methodCurrency)],
            [
              t('admin.funding.field.rate'),
              deposit.methodCurrency === deposit.accountCurrency
                ? t('admin.funding.rate.same')
                : t('admin.funding.rate.value', {
                    from: deposit.methodCurrency,
                    rate: format.rate(deposit.rate),
                    to: deposit.accountCurrency,
                  }),
            ],
            [t('admin.funding.field.account'), `#${deposit.account_id}`],
            [t('admin.funding.field.method'), methodLabel(t, deposit.method)],
            deposit.failure
              ? [
                  t('admin.funding.field.failure'),
                  <span key="f" className="kit-down">
                    {failureLabel(t, deposit.failure)}
                  </span>,
                ]
              : null,
            !final && deposit.expectedAt
              ? [t('admin.funding.field.expected'), format.dateTime(deposit.expectedAt)]
              : null,
            [t('admin.funding.field.updated'), format.dateTime(deposit.updatedAt)],
          ]}
        />
      </DrawerSection>
      <DrawerSection title={t('admin.funding.deposit.provider')} testId="deposit-provider">
        <Facts
          items={[
            [
              t('admin.funding.field.providerRef'),
              deposit.providerRef ? (
                <CopyText key="ref" value={deposit.providerRef} testId="deposit-provider-ref" />
              ) : (
                <span key="ref" className="fu-muted">
                  {t('admin.funding.deposit.noProviderRef')}
                </span>
              ),
            ],
            deposit.reference
              ? [t('admin.funding.field.reference'), <CopyText key="r" value={deposit.reference} />]
              : null,
            deposit.address
              ? [t('admin.funding.field.address'), <CopyText key="a" value={deposit.address} />]
              : null,
            deposit.confirmationsNeeded !== null
              ? [
                  t('admin.funding.field.confirmations'),
                  t('admin.funding.deposit.confirmations', {
                    seen: deposit.confirmations ?? 0,
                    needed: deposit.confirmationsNeeded,
                  }),
                ]
              : null,
            deposit.bank
              ? [
                  t('admin.funding.field.bank'),
                  <span key="b" className="fu-stack">
                    <span>{deposit.bank.name}</span>
                    <code>{deposit.bank.iban}</code>
                    <span className="fu-muted">
                      {deposit.bank.bic} · {deposit.bank.beneficiary}
                    </span>
                  </span>,
                ]
              : null,
          ]}
        />
      </DrawerSection>
      <DrawerSection title={t('admin.funding.withdrawal.customer')}>
        <CustomerBrief
          customer={deposit.customer}
          format={format}
          {...(onOnlyCustomer ? { onOnlyThis: onOnlyCustomer } : {})}
        />
      </DrawerSection>
    </>
  );
}
