import type { TRouteOutput } from '@broker/contracts/routes';
import { useMemo } from 'react';
import { useI18n } from '../../i18n';
import type { TColumn } from '../../kit/DataTable';
import { Notice, useNotice } from '../../kit/Feedback';
import {
  FLAG_TEXT,
  useFundingFormat,
  WITHDRAWAL_STATE_LABELS,
  WITHDRAWAL_STATE_TONES,
  WITHDRAWAL_STATES,
} from './format';
import { leadColumns, QueueTable, useQueue } from './Queue';
import { WithdrawalDrawer } from './WithdrawalDrawer';

type TRow = TRouteOutput<'adminfundingqueue'>['withdrawals'][number];
const FILTERS = [
  'awaiting_review',
  ...WITHDRAWAL_STATES.filter((s) => s !== 'awaiting_review'),
  'all',
] as const;

/** The withdrawal queue: state segments with counts, method and customer filters, newest first; a row opens the review. */
export function WithdrawalsTab({ onChanged }: { onChanged: () => void }) {
  const { t } = useI18n();
  const format = useFundingFormat();
  const [notice, setNotice] = useNotice();
  const queue = useQueue({
    kind: 'withdrawal',
    filters: FILTERS,
    states: WITHDRAWAL_STATES,
    defaultFilter: 'awaiting_review',
  });
  const { update, open, list } = queue;
  const rows = list.data?.withdrawals ?? [];

  const columns = useMemo<TColumn<TRow>[]>(
    () => [
      ...leadColumns<TRow>({
        t,
        format,
        update,
        dateKey: 'requested',
        dateHeader: t('admin.funding.field.requested'),
        openTestId: 'withdrawal-open',
      }),
      {
        key: 'amount',
        header: t('admin.funding.field.amount'),
        align: 'end',
        render: (row) => <strong className="num">{format.money(row.amount, row.accountCurrency)}</strong>,
      },
      {
        key: 'payout',
        header: t('admin.funding.field.payout'),
        align: 'end',
        render: (row) => <span className="num">{format.money(row.payout, row.methodCurrency)}</span>,
      },
      {
        key: 'flags',
        header: t('admin.funding.field.flags'),
        render: (row) =>
          row.flags.length === 0 ? (
            <span className="fu-muted">—</span>
          ) : (
            <span className="fu-flag-pills" data-testid="withdrawal-flags">
              {row.flags.map((flag) => (
                <span
                  key={flag}
                  className={`kit-pill ${flag === 'four_eyes' ? 'fu-pill-brand' : 'kit-pill-warn'}`}
                  data-flag={flag}
                >
                  {t(FLAG_TEXT[flag].title)}
                </span>
              ))}
            </span>
          ),
      },
      {
        key: 'status',
        header: t('admin.funding.field.state'),
        render: (row) => (
          <span className="fu-state-cell">
            <span
              className={`kit-pill ${WITHDRAWAL_STATE_TONES[row.status]}`}
              data-testid="withdrawal-status"
              data-status={row.status}
            >
              {t(WITHDRAWAL_STATE_LABELS[row.status])}
            </span>
            {row.status === 'awaiting_review' && row.firstApprovedBy ? (
              <span className="fu-muted">{t('admin.funding.fourEyes.oneOfTwo')}</span>
            ) : null}
          </span>
        ),
      },
    ],
    [t, format, update],
  );

  return (
    <div className="fu-tab">
      <Notice message={notice} testId="funding-notice" />
      <QueueTable
        queue={queue}
        rows={rows}
        columns={columns}
        stateLabel={(state) => t(WITHDRAWAL_STATE_LABELS[state])}
        segmentsTestId="withdrawal-states"
        tableTestId="withdrawals-table"
        rowTestId="withdrawal-row"
        emptyUnfiltered={t('admin.funding.withdrawals.noneWaiting')}
      />
      {open ? (
        <WithdrawalDrawer
          id={open}
          onClose={() => update({ open: null })}
          onOnlyCustomer={(id) => update({ customer: id, open: null, status: 'all' })}
          onChanged={(message) => {
            setNotice(message);
            list.reload();
            onChanged();
          }}
        />
      ) : null}
    </div>
  );
}
