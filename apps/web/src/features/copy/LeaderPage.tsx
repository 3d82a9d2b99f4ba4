import type { TTranslate } from '@broker/i18n/translator';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { CurveChart } from '../../components/CurveChart';
import { Figure, Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { dateText } from '../../lib/date-text';
import { useI18n } from '../../lib/i18n';
import { formatDecimal } from '../../lib/market-format';
import { moneyText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useShell } from '../../lib/store';
import { useCall, useLoad } from '../../lib/use-call';
import { type TLeaderProfile, useMainAccounts } from './copy-api';
import { FollowDialog } from './FollowDialog';
import { Avatar, RiskBadge } from './parts';

/** An average holding time in minutes as "45 min", "3 h", "2 days". */
export function durationText(t: TTranslate, minutes: number): string {
  if (minutes < 60) return t('copy.duration.minutes', { count: minutes });
  if (minutes < 24 * 60) return t('copy.duration.hours', { count: Math.round(minutes / 60) });
  return t('copy.duration.days', { count: Math.round(minutes / 1440) });
}

/** Whether the signed-in viewer owns the account (read only for a signed-in viewer). */
function useOwnAccount(signedIn: boolean, accountId: number): boolean {
  const accounts = useMainAccounts(signedIn);
  return accounts.load.status === 'ready' && accounts.load.data.some((a) => a.account_id === accountId);
}

/**
 * A leader's page (issue 18, spec 9): statistics computed from the account's history, the equity
 * curve, the symbols traded, the open positions older than the leader's delay and the fee terms, with
 * the Copy button: a visitor signs in first and comes back here with the follow dialog open.
 */
export function Component() {
  const { t, lang } = useI18n();
  const { leaderId } = useParams();
  const id = Number(leaderId);
  const call = useCall();
  const profile = useLoad<TLeaderProfile>(`leader:${id}`, (signal) =>
    call('followleader', { leader_id: id }, signal),
  );

  return (
    <div className="ui-page" data-testid="copy-leader-page">
      <Link to={paths.copyTrading(lang)} className="ui-back">
        <Icon name="arrowLeft" size={16} />
        {t('copy.leader.back')}
      </Link>
      {profile.load.status === 'loading' && <Skeleton rows={3} height={160} testId="leader-loading" />}
      {profile.load.status === 'failed' && (
        <LoadError
          message={profile.load.message}
          onRetry={() => void profile.reload(false)}
          testId="leader-error"
        />
      )}
      {profile.load.status === 'ready' && (
        <LeaderProfile profile={profile.load.data} onFollowed={() => void profile.reload()} />
      )}
    </div>
  );
}

function LeaderProfile({ profile, onFollowed }: { profile: TLeaderProfile; onFollowed(): void }) {
  const { t, lang, intl } = useI18n();
  const { stats } = profile;
  const { user } = useShell();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [following, setFollowing] = useState(false);
  // A leader viewing its own page manages it instead of copying it.
  const own = useOwnAccount(user !== null, profile.leader_id);
  // Back from sign-in with ?follow=1: the dialog opens, once.
  useEffect(() => {
    if (params.get('follow') === '1' && user && profile.myCopyAccountId === null && !profile.followersPaused)
      setFollowing(true);
    if (params.has('follow')) setParams({}, { replace: true });
  }, [params, setParams, user, profile.myCopyAccountId, profile.followersPaused]);

  const count = (n: number) => new Intl.NumberFormat(intl).format(n);
  const returns = [
    ['return7d', stats.return7d],
    ['return30d', stats.return30d],
    ['return90d', stats.return90d],
    ['returnAll', stats.returnAll],
  ] as const;

  let copyAction: ReactNode;
  if (user && own)
    copyAction = (
      <Link to={paths.leadDashboard(lang)} className="btn btn-secondary" data-testid="leader-own">
        <Icon name="settings" size={16} />
        {t('copy.leader.manage')}
      </Link>
    );
  else if (profile.myCopyAccountId !== null)
    copyAction = (
      <Link to={paths.myCopies(lang)} className="btn btn-secondary" data-testid="leader-already">
        <Icon name="check" size={16} />
        {t('copy.leader.already')}
      </Link>
    );
  else if (profile.followersPaused)
    copyAction = (
      <p className="cp-muted" data-testid="leader-paused">
        {t('copy.leader.notTaking')}
      </p>
    );
  else if (!user)
    copyAction = (
      <Link
        to={paths.login(lang, `${location.pathname}?follow=1`)}
        className="btn btn-primary btn-lg"
        data-testid="leader-copy"
      >
        <Icon name="copy" size={18} />
        {t('copy.leader.copy')}
      </Link>
    );
  else
    copyAction = (
      <button
        type="button"
        className="btn btn-primary btn-lg"
        onClick={() => setFollowing(true)}
        data-testid="leader-copy"
      >
        <Icon name="copy" size={18} />
        {t('copy.leader.copy')}
      </button>
    );

  return (
    <>
      <section className="card cp-profile-head" aria-labelledby="cp-leader-nick">
        <Avatar nick={profile.nick} src={profile.avatar} size={64} />
        <div className="cp-profile-name">
          <h1 id="cp-leader-nick" data-testid="leader-nick">
            {profile.nick}
          </h1>
          <p className="cp-muted cp-small">
            {t(`accounts.type.${profile.accountType}`)} ·{' '}
            {t(`accounts.mode.${profile.tradeType === 1 ? 1 : 2}`)} ·{' '}
            {t('copy.leader.since', { date: dateText(intl, profile.since) })}
          </p>
          {profile.bio && <p className="cp-bio">{profile.bio}</p>}
        </div>
        <div className="cp-profile-action">
          <RiskBadge score={stats.riskScore} testId="profile-risk" />
          {copyAction}
          {!user && <span className="cp-muted cp-small">{t('copy.leader.signInFirst')}</span>}
        </div>
      </section>

      <div className="cp-profile-grid">
        <section className="card ui-section" aria-labelledby="cp-returns">
          <h2 id="cp-returns">{t('copy.leader.performance')}</h2>
          <dl className="cp-returns">
            {returns.map(([key, value]) => (
              <div key={key} className="cp-return">
                <dt>{t(`copy.period.${key}`)}</dt>
                <dd>
                  <Signed value={value} testId={`profile-${key}`}>
                    {percentText(intl, value, { sign: true })}
                  </Signed>
                </dd>
              </div>
            ))}
          </dl>
          <CurveChart points={profile.curve} label={t('copy.leader.curve')} testId="profile-curve" />
          <p className="ui-hint">{t('copy.leader.curveHelp')}</p>
        </section>

        <section className="card ui-section" aria-labelledby="cp-stats">
          <h2 id="cp-stats">{t('copy.leader.statistics')}</h2>
          <dl className="ui-figures">
            <Figure label={t('copy.stat.maxDrawdown')} testId="profile-drawdown">
              {percentText(intl, stats.maxDrawdown)}
            </Figure>
            <Figure label={t('copy.stat.winRate')}>{percentText(intl, stats.winRate)}</Figure>
            <Figure label={t('copy.stat.profitFactor')}>
              {stats.profitFactor === null ? '—' : formatDecimal(intl, stats.profitFactor)}
            </Figure>
            <Figure label={t('copy.stat.totalTrades')}>{count(stats.totalTrades)}</Figure>
            <Figure label={t('copy.stat.tradingDays')}>{count(stats.tradingDays)}</Figure>
            <Figure label={t('copy.stat.avgHold')}>{durationText(t, stats.avgHoldMinutes)}</Figure>
            <Figure label={t('copy.stat.followers')} testId="profile-followers">
              {count(profile.followers)}
            </Figure>
            <Figure label={t('copy.stat.copiedAssets')}>
              {moneyText(intl, profile.copiedAssets, profile.currency)}
            </Figure>
          </dl>
        </section>

        <section className="card ui-section" aria-labelledby="cp-terms" data-testid="profile-terms">
          <h2 id="cp-terms">{t('copy.leader.terms')}</h2>
          <dl className="ui-figures">
            <Figure label={t('copy.stat.fee')} testId="profile-fee">
              {percentText(intl, profile.feePercent)}
            </Figure>
            <Figure label={t('copy.leader.minAmount')} testId="profile-min">
              {moneyText(intl, profile.minCopyAmount, profile.currency)}
            </Figure>
          </dl>
          <p className="ui-hint">{t('copy.leader.feeHelp')}</p>
        </section>

        <section className="card ui-section" aria-labelledby="cp-symbols">
          <h2 id="cp-symbols">{t('copy.leader.symbols')}</h2>
          {profile.symbols.length === 0 ? (
            <p className="cp-muted">{t('copy.leader.noSymbols')}</p>
          ) : (
            <ul className="cp-symbols" data-testid="profile-symbols">
              {profile.symbols.map((symbol) => (
                <li key={symbol.symbol}>
                  <span className="cp-symbol-name">{symbol.symbol}</span>
                  <span className="cp-bar" aria-hidden="true">
                    <span style={{ width: `${Math.min(100, Number(symbol.share))}%` }} />
                  </span>
                  <span className="num cp-small">
                    {percentText(intl, symbol.share)} · {t('copy.leader.trades', { count: symbol.trades })}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="card ui-section" aria-labelledby="cp-open" data-testid="profile-positions">
        <h2 id="cp-open">{t('copy.leader.openPositions')}</h2>
        <p className="ui-hint">
          {profile.positionsDelayMinutes > 0
            ? t('copy.leader.delay', { minutes: profile.positionsDelayMinutes })
            : t('copy.leader.noDelay')}
        </p>
        {profile.openPositions.length === 0 ? (
          <p className="cp-muted">{t('copy.leader.noPositions')}</p>
        ) : (
          <div className="ui-table-wrap">
            <table className="ui-table ui-table-stack">
              <thead>
                <tr>
                  <th scope="col">{t('copy.col.symbol')}</th>
                  <th scope="col">{t('copy.col.side')}</th>
                  <th scope="col" className="num">
                    {t('copy.col.volume')}
                  </th>
                  <th scope="col" className="num">
                    {t('copy.col.openPrice')}
                  </th>
                  <th scope="col">{t('copy.col.openTime')}</th>
                </tr>
              </thead>
              <tbody>
                {profile.openPositions.map((position, index) => (
                  <tr key={`${position.symbol}-${position.openTime}-${index}`}>
                    <td data-label={t('copy.col.symbol')}>{position.symbol}</td>
                    <td data-label={t('copy.col.side')}>
                      <span className={`cp-side ${position.side === 'buy' ? 'rise' : 'fall'}`}>
                        {t(`copy.side.${position.side}`)}
                      </span>
                    </td>
                    <td className="num" data-label={t('copy.col.volume')}>
                      {formatDecimal(intl, position.volume, 2)}
                    </td>
                    <td className="num" data-label={t('copy.col.openPrice')}>
                      {formatDecimal(intl, position.openPrice)}
                    </td>
                    <td data-label={t('copy.col.openTime')}>{dateText(intl, position.openTime, true)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {following && (
        <FollowDialog
          leader={profile}
          onClose={() => setFollowing(false)}
          onFollowed={() => {
            setFollowing(false);
            onFollowed();
          }}
        />
      )}
    </>
  );
}
