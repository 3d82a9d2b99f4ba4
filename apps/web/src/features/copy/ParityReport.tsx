import type { TTranslate } from '@broker/i18n/translator';
import { useState } from 'react';
import { Signed } from '../../components/Figure';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { Pager } from '../../components/Pager';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall, useLoad } from '../../lib/use-call';
import type { TCopy, TParity, TParityTrade } from './copy-api';

const PAGE_SIZE = 20;

/**
 * The text of a reason the results differ, as the server names it: `skipped:<skip reason>`, `slippage`,
 * `fees` or `sizing`; an unknown reason shows as sent.
 */
export function parityReasonText(t: TTranslate, reason: string): string {
  const skip = reason.startsWith('skipped:') ? reason.slice('skipped:'.length) : null;
  const key = skip ? `copy.skip.${skip}` : `copy.parity.reason.${reason}`;
  const text = t(key);
  return text === key ? reason : text;
}

/** Whether a reason's count means trades (skips, slipped copies), not just that it applied (fees, sizing). */
export const countsTrades = (reason: string) => reason.startsWith('skipped:') || reason === 'slippage';

/**
 * The parity report of one copy (issue 18): the copy's result beside the leader's and why they
 * differ, biggest reason first, then the leader's trades beside the copies, page by page.
 */
export function ParityReport({ copy }: { copy: TCopy }) {
  const { t, intl } = useI18n();
  const call = useCall();
  const [page, setPage] = useState(1);
  const report = useLoad<TParity>(`parity:${copy.copy_account_id}:${page}`, (signal) =>
    call('followparity', { copy_account_id: copy.copy_account_id, page, size: PAGE_SIZE }, signal),
  );
  if (report.load.status === 'loading') return <Skeleton rows={2} height={56} testId="parity-loading" />;
  if (report.load.status === 'failed')
    return (
      <LoadError
        message={report.load.message}
        onRetry={() => void report.reload(false)}
        testId="parity-error"
      />
    );
  const { summary, trades, total, currency, leaderCurrency } = report.load.data;
  return (
    <section className="cp-parity" aria-label={t('copy.parity.title')} data-testid="parity">
      <h3>{t('copy.parity.title')}</h3>
      <div className="cp-parity-compare">
        <div>
          <span className="cp-muted cp-small">{t('copy.parity.yours')}</span>
          <Signed value={summary.followerReturn} testId="parity-follower-return">
            <span className="cp-big">{percentText(intl, summary.followerReturn, { sign: true })}</span>
          </Signed>
          <span className="cp-small">
            <Signed value={summary.followerProfit}>
              {moneyText(intl, summary.followerProfit, currency, true)}
            </Signed>
          </span>
        </div>
        <div>
          <span className="cp-muted cp-small">{t('copy.parity.leaders')}</span>
          <Signed value={summary.leaderReturn} testId="parity-leader-return">
            <span className="cp-big">{percentText(intl, summary.leaderReturn, { sign: true })}</span>
          </Signed>
        </div>
      </div>
      <p className="cp-small" data-testid="parity-counts">
        {t('copy.parity.counts', {
          copied: summary.copied,
          skipped: summary.skipped,
          fees: moneyText(intl, summary.fees, currency),
          slippage: moneyText(intl, summary.slippageCost, currency),
        })}
      </p>
      {summary.reasons.length > 0 ? (
        <div>
          <h4 className="cp-small">{t('copy.parity.why')}</h4>
          <ol className="cp-reasons" data-testid="parity-reasons">
            {summary.reasons.map((reason) => (
              <li key={reason.reason}>
                {parityReasonText(t, reason.reason)}
                {countsTrades(reason.reason) && (
                  <span className="num cp-muted"> {t('copy.parity.trades', { count: reason.count })}</span>
                )}
              </li>
            ))}
          </ol>
        </div>
      ) : (
        <p className="cp-muted cp-small">{t('copy.parity.noDifference')}</p>
      )}
      {trades.length === 0 ? (
        <p className="cp-muted" data-testid="parity-empty">
          {t('copy.parity.empty')}
        </p>
      ) : (
        <div className="ui-table-wrap">
          <table className="ui-table ui-table-stack" data-testid="parity-table">
            <thead>
              <tr>
                <th scope="col">{t('copy.col.trade')}</th>
                <th scope="col">{t('copy.col.status')}</th>
                <th scope="col" className="num">
                  {t('copy.col.leader')}
                </th>
                <th scope="col" className="num">
                  {t('copy.col.follower')}
                </th>
                <th scope="col" className="num">
                  {t('copy.col.slippage')}
                </th>
              </tr>
            </thead>
            <tbody>
              {trades.map((trade) => (
                <TradeRow
                  key={trade.leaderPositionId}
                  trade={trade}
                  currency={currency}
                  leaderCurrency={leaderCurrency}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > PAGE_SIZE && (
        <Pager name="parity" page={page} size={PAGE_SIZE} total={total} onPage={setPage} />
      )}
    </section>
  );
}

function TradeRow({
  trade,
  currency,
  leaderCurrency,
}: {
  trade: TParityTrade;
  currency: string;
  leaderCurrency: string;
}) {
  const { t, intl } = useI18n();
  const price = (value: string | null) => (value === null ? '—' : formatDecimal(intl, value));
  const lots = (value: string | null) => (value === null ? '—' : formatDecimal(intl, value, 2));
  return (
    <tr data-testid="parity-row" data-status={trade.status}>
      <td data-label={t('copy.col.trade')}>
        <div className="cp-cell">
          <strong>{trade.symbol}</strong>{' '}
          <span className={`cp-side ${trade.side === 'buy' ? 'rise' : 'fall'}`}>
            {t(`copy.side.${trade.side}`)}
          </span>
          <div className="cp-muted cp-small">{dateText(intl, trade.openTime, true)}</div>
        </div>
      </td>
      <td data-label={t('copy.col.status')}>
        <div className="cp-cell">
          <span className="cp-trade-status" data-status={trade.status}>
            {t(`copy.parity.status.${trade.status}`)}
          </span>
          {trade.reason && (
            <div className="cp-small" data-testid="parity-reason">
              {t(`copy.skip.${trade.reason}`)}
            </div>
          )}
        </div>
      </td>
      <td className="num" data-label={t('copy.col.leader')}>
        <div className="cp-cell">
          <div>{t('copy.parity.lots', { lots: lots(trade.leaderVolume) })}</div>
          <div className="cp-muted cp-small">
            {price(trade.leaderOpenPrice)} → {price(trade.leaderClosePrice)}
          </div>
          {trade.leaderProfit !== null && (
            <Signed value={trade.leaderProfit}>
              {moneyText(intl, trade.leaderProfit, leaderCurrency, true)}
            </Signed>
          )}
        </div>
      </td>
      <td className="num" data-label={t('copy.col.follower')}>
        <div className="cp-cell">
          {trade.followerVolume === null ? (
            '—'
          ) : (
            <>
              <div>{t('copy.parity.lots', { lots: lots(trade.followerVolume) })}</div>
              <div className="cp-muted cp-small">
                {price(trade.followerOpenPrice)} → {price(trade.followerClosePrice)}
              </div>
              {trade.followerProfit !== null && (
                <Signed value={trade.followerProfit}>
                  {moneyText(intl, trade.followerProfit, currency, true)}
                </Signed>
              )}
            </>
          )}
        </div>
      </td>
      <td className="num" data-label={t('copy.col.slippage')}>
        <div className="cp-cell">
          {trade.slippagePoints === null
            ? '—'
            : t('copy.parity.points', {
                points: new Intl.NumberFormat(intl, { signDisplay: 'exceptZero' }).format(
                  trade.slippagePoints,
                ),
              })}
        </div>
      </td>
    </tr>
  );
}
