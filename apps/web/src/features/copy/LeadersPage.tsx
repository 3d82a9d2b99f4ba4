import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Figure, Signed } from '../../components/Figure';
import { Icon } from '../../components/Icon';
import { LoadError, Skeleton } from '../../components/LoadStates';
import { Pager } from '../../components/Pager';
import { useI18n } from '../../lib/i18n';
import { moneyText } from '../../lib/money';
import { percentText } from '../../lib/percent-text';
import { useCall, useLoad } from '../../lib/use-call';
import type { TLeaderList, TLeaderSummary } from './copy-api';
import {
  hasFilters,
  LEADER_SORTS,
  readLeaderFilters,
  type TLeaderQuery,
  writeLeaderFilters,
} from './copy-form';
import { Avatar, CopyHeader, RiskBadge } from './parts';

const DRAWDOWN_STEPS = [10, 20, 30, 50] as const;

/**
 * Leader discovery (issue 18, spec 9): approved leaders with statistics computed from their history,
 * sorted and filtered by the address's parameters, so a filtered list can be shared and survives a
 * reload. Public: a visitor sees the same list and signs in to copy.
 */
export function Component() {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const address = params.toString();
  // The query is kept here as well as in the address, so a control shows its new value at once (not
  // after the navigation), and follows the address when it changes (back, a shared link).
  const [query, setQuery] = useState(() => readLeaderFilters(params));
  useEffect(() => setQuery(readLeaderFilters(new URLSearchParams(address))), [address]);
  const call = useCall();
  const key = JSON.stringify(query);
  const list = useLoad<TLeaderList>(key, (signal) => call('followleaders', query, signal));
  const change = (next: Partial<TLeaderQuery>) => {
    const changed = { ...query, page: 1, ...next };
    setQuery(changed);
    setParams(writeLeaderFilters(changed), { replace: true });
  };

  return (
    <div className="ui-page" data-testid="copy-leaders-page">
      <CopyHeader title={t('copy.leaders.title')} subtitle={t('copy.leaders.subtitle')} />
      <Filters query={query} onChange={change} />
      {list.load.status === 'loading' && <Skeleton rows={3} height={180} testId="leaders-loading" />}
      {list.load.status === 'failed' && (
        <LoadError
          message={list.load.message}
          onRetry={() => void list.reload(false)}
          testId="leaders-error"
        />
      )}
      {list.load.status === 'ready' && list.load.data.items.length === 0 && (
        <NoLeaders
          filtered={hasFilters(query)}
          onClear={() => {
            setQuery(readLeaderFilters(new URLSearchParams()));
            setParams(new URLSearchParams(), { replace: true });
          }}
        />
      )}
      {list.load.status === 'ready' && list.load.data.items.length > 0 && (
        <>
          <ul className="cp-leader-grid" data-testid="leader-list">
            {list.load.data.items.map((leader) => (
              <LeaderCard key={leader.leader_id} leader={leader} />
            ))}
          </ul>
          {list.load.data.total > query.size && (
            <Pager
              name="leaders"
              page={query.page}
              size={query.size}
              total={list.load.data.total}
              onPage={(page) => change({ page })}
            />
          )}
        </>
      )}
    </div>
  );
}

function Filters({ query, onChange }: { query: TLeaderQuery; onChange(next: Partial<TLeaderQuery>): void }) {
  const { t, intl } = useI18n();
  const [search, setSearch] = useState(query.search ?? '');
  useEffect(() => setSearch(query.search ?? ''), [query.search]);
  const numberOrUndefined = (value: string) => (value === '' ? undefined : Number(value));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ search: search.trim() || undefined });
  };
  return (
    <form className="card cp-filters" role="search" onSubmit={submit} data-testid="leader-filters">
      <div className="field cp-filter-search">
        <label className="field-label" htmlFor="cp-search">
          {t('copy.filter.search')}
        </label>
        <div className="cp-search-row">
          <input
            id="cp-search"
            className="input"
            type="search"
            maxLength={40}
            value={search}
            placeholder={t('copy.filter.searchPlaceholder')}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="filter-search"
          />
          <button type="submit" className="btn btn-primary btn-sm" aria-label={t('copy.filter.apply')}>
            <Icon name="search" size={16} />
          </button>
        </div>
      </div>
      <Select
        id="cp-sort"
        label={t('copy.filter.sort')}
        value={query.sort}
        onChange={(value) => onChange({ sort: value as TLeaderQuery['sort'] })}
        options={LEADER_SORTS.map((sort) => ({ value: sort, label: t(`copy.sort.${sort}`) }))}
        testId="filter-sort"
      />
      <Select
        id="cp-type"
        label={t('copy.filter.accountType')}
        value={String(query.accountType ?? '')}
        onChange={(value) => onChange({ accountType: numberOrUndefined(value) })}
        options={[
          { value: '', label: t('copy.filter.any') },
          ...[1, 2, 3].map((type) => ({ value: String(type), label: t(`accounts.type.${type}`) })),
        ]}
        testId="filter-account-type"
      />
      <Select
        id="cp-mode"
        label={t('copy.filter.tradeType')}
        value={String(query.tradeType ?? '')}
        onChange={(value) => onChange({ tradeType: numberOrUndefined(value) })}
        options={[
          { value: '', label: t('copy.filter.any') },
          ...[1, 2].map((mode) => ({ value: String(mode), label: t(`accounts.mode.${mode}`) })),
        ]}
        testId="filter-trade-type"
      />
      <Select
        id="cp-risk"
        label={t('copy.filter.maxRisk')}
        value={String(query.maxRisk ?? '')}
        onChange={(value) => onChange({ maxRisk: numberOrUndefined(value) })}
        options={[
          { value: '', label: t('copy.filter.any') },
          ...Array.from({ length: 10 }, (_, i) => ({
            value: String(i + 1),
            label: t('copy.filter.riskUpTo', { score: i + 1 }),
          })),
        ]}
        testId="filter-risk"
      />
      <Select
        id="cp-drawdown"
        label={t('copy.filter.maxDrawdown')}
        value={String(query.maxDrawdown ?? '')}
        onChange={(value) => onChange({ maxDrawdown: numberOrUndefined(value) })}
        options={[
          { value: '', label: t('copy.filter.any') },
          ...DRAWDOWN_STEPS.map((step) => ({
            value: String(step),
            label: t('copy.filter.drawdownUpTo', { percent: percentText(intl, String(step)) }),
          })),
        ]}
        testId="filter-drawdown"
      />
    </form>
  );
}

function Select({
  id,
  label,
  value,
  onChange,
  options,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  options: { value: string; label: string }[];
  testId: string;
}) {
  return (
    <div className="field cp-filter">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input ui-select"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function NoLeaders({ filtered, onClear }: { filtered: boolean; onClear(): void }) {
  const { t, lang } = useI18n();
  return (
    <div className="card empty-state ui-empty" data-testid="leaders-empty">
      <div className="empty-state-icon">
        <Icon name="copy" size={26} />
      </div>
      <h2>{t(filtered ? 'copy.leaders.noMatchTitle' : 'copy.leaders.emptyTitle')}</h2>
      <p>{t(filtered ? 'copy.leaders.noMatchText' : 'copy.leaders.emptyText')}</p>
      <div className="ui-actions cp-actions-center">
        {filtered && (
          <button type="button" className="btn btn-secondary" onClick={onClear} data-testid="filters-clear">
            {t('copy.filter.clear')}
          </button>
        )}
        <Link to={paths.leadDashboard(lang)} className="btn btn-primary" data-testid="become-leader">
          {t('copy.leaders.become')}
        </Link>
      </div>
    </div>
  );
}

function LeaderCard({ leader }: { leader: TLeaderSummary }) {
  const { t, lang, intl } = useI18n();
  const { stats } = leader;
  const href = paths.copyLeader(lang, leader.leader_id);
  return (
    <li className="card cp-leader" data-testid="leader-card" data-leader={leader.leader_id}>
      <div className="cp-leader-top">
        <Avatar nick={leader.nick} src={leader.avatar} />
        <div className="cp-leader-name">
          <h2>
            <Link to={href} className="cp-leader-link" data-testid="leader-link">
              {leader.nick}
            </Link>
          </h2>
          <span className="cp-muted cp-small">
            {t(`accounts.type.${leader.accountType}`)} ·{' '}
            {t(`accounts.mode.${leader.tradeType === 1 ? 1 : 2}`)}
          </span>
        </div>
        <RiskBadge score={stats.riskScore} testId="leader-risk" />
      </div>
      <div className="cp-leader-return">
        <span className="cp-muted cp-small">{t('copy.stat.return30d')}</span>
        <Signed value={stats.return30d} testId="leader-return30d">
          <span className="cp-big">{percentText(intl, stats.return30d, { sign: true })}</span>
        </Signed>
      </div>
      <dl className="ui-figures cp-figures-card">
        <Figure label={t('copy.stat.return90d')}>
          <Signed value={stats.return90d}>{percentText(intl, stats.return90d, { sign: true })}</Signed>
        </Figure>
        <Figure label={t('copy.stat.maxDrawdown')} testId="leader-drawdown">
          {percentText(intl, stats.maxDrawdown)}
        </Figure>
        <Figure label={t('copy.stat.winRate')}>{percentText(intl, stats.winRate)}</Figure>
        <Figure label={t('copy.stat.followers')} testId="leader-followers">
          {new Intl.NumberFormat(intl).format(leader.followers)}
        </Figure>
        <Figure label={t('copy.stat.copiedAssets')}>
          {moneyText(intl, leader.copiedAssets, leader.currency)}
        </Figure>
        <Figure label={t('copy.stat.fee')}>{percentText(intl, leader.feePercent)}</Figure>
      </dl>
      <div className="cp-leader-foot">
        {leader.followersPaused && (
          <span className="cp-muted cp-small" data-testid="leader-paused">
            {t('copy.leader.notTaking')}
          </span>
        )}
        <Link
          to={href}
          className="btn btn-primary btn-sm cp-leader-view"
          aria-label={t('copy.leaders.viewNamed', { nick: leader.nick })}
        >
          {t('copy.leaders.view')}
          <Icon name="chevronRight" size={14} />
        </Link>
      </div>
    </li>
  );
}
