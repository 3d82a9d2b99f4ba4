import type { TRouteOutput } from '@broker/contracts/routes';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { callApi } from '../api';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { useDocumentTitle, useI18n } from '../i18n';
import { ApiError, isAbortError } from '../lib/api';
import { failureText } from '../lib/failure-text';
import { routerPath } from '../lib/redirect';
import { visibleMenu } from '../menu';
import { useStaff } from '../session';

type TOverview = TRouteOutput<'adminoverview'>;
type TStatKey = keyof TOverview;

const STATS: readonly { key: TStatKey; icon: string; tone: string }[] = [
  { key: 'tenants', icon: 'building', tone: 'brand' },
  { key: 'users', icon: 'users', tone: 'up' },
  { key: 'staff', icon: 'badge', tone: 'warning' },
  { key: 'pageViewsToday', icon: 'eye', tone: 'down' },
];

type TLoad =
  | { status: 'loading'; previous: TOverview | null }
  | { status: 'ready'; data: TOverview; at: Date }
  | { status: 'error'; problem: TProblem };

/** Why the overview failed: the server's own (translated) message, or no answer at all. */
type TProblem = { kind: 'answer'; message: string } | { kind: 'network' } | { kind: 'unexpected' };

export function DashboardPage() {
  const { t, intl, formatNumber } = useI18n();
  const staff = useStaff();
  const title = t('admin.menu.dashboard');
  useDocumentTitle(title);
  const [load, setLoad] = useState<TLoad>({ status: 'loading', previous: null });
  const pending = useRef<AbortController | null>(null);

  const fetchOverview = useCallback(() => {
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setLoad((current) => ({ status: 'loading', previous: current.status === 'ready' ? current.data : null }));
    callApi('adminoverview', {}, { signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setLoad({ status: 'ready', data, at: new Date() });
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        const problem: TProblem =
          error instanceof ApiError && error.kind === 'answer'
            ? { kind: 'answer', message: error.message }
            : error instanceof ApiError && error.kind === 'network'
              ? { kind: 'network' }
              : { kind: 'unexpected' };
        setLoad({ status: 'error', problem });
      },
    );
  }, []);

  useEffect(() => {
    fetchOverview();
    return () => pending.current?.abort();
  }, [fetchOverview]);

  const timeFormat = useMemo(() => new Intl.DateTimeFormat(intl, { timeStyle: 'medium' }), [intl]);
  const modules = visibleMenu(staff.permissions).filter((entry) => entry.key !== 'dashboard');
  const shown = load.status === 'ready' ? load.data : load.status === 'loading' ? load.previous : null;

  return (
    <div className="bo-page">
      <PageHeader
        title={title}
        description={
          <>
            <span className="bo-greeting">{t('admin.dashboard.greeting', { name: staff.displayName })}</span>
            <span className="bo-sep" aria-hidden="true">
              ·
            </span>
            {t('admin.module.dashboard.description')}
          </>
        }
        actions={
          <>
            {load.status === 'ready' ? (
              <span className="bo-updated">
                {t('admin.dashboard.updated', { time: timeFormat.format(load.at) })}
              </span>
            ) : null}
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={fetchOverview}
              disabled={load.status === 'loading'}
            >
              <Icon name="refresh" size={14} className={load.status === 'loading' ? 'bo-spin' : undefined} />
              {t('admin.dashboard.refresh')}
            </button>
          </>
        }
      />

      {load.status === 'error' ? (
        <div className="card bo-error-card" role="alert">
          <span className="bo-error-icon">
            <Icon name="alert" size={22} />
          </span>
          <div className="bo-error-text">
            <strong>{t('admin.dashboard.errorTitle')}</strong>
            <span>{failureText(load.problem, t)}</span>
          </div>
          <button type="button" className="btn btn-primary btn-sm" onClick={fetchOverview}>
            <Icon name="refresh" size={14} />
            {t('admin.common.retry')}
          </button>
        </div>
      ) : (
        <section className="bo-stats" aria-busy={load.status === 'loading'} aria-live="polite">
          {STATS.map((stat) => (
            <article key={stat.key} className="bo-stat" data-tone={stat.tone}>
              <div className="bo-stat-head">
                <span className="bo-stat-label">{t(`admin.dashboard.stats.${stat.key}.label`)}</span>
                <span className="bo-stat-icon">
                  <Icon name={stat.icon} size={18} />
                </span>
              </div>
              {shown ? (
                <strong className="bo-stat-value num">{formatNumber(shown[stat.key])}</strong>
              ) : (
                <span className="skeleton bo-stat-skeleton" />
              )}
              <span className="bo-stat-hint">{t(`admin.dashboard.stats.${stat.key}.hint`)}</span>
            </article>
          ))}
        </section>
      )}

      {modules.length > 0 ? (
        <section className="bo-section">
          <div className="bo-section-head">
            <h2>{t('admin.dashboard.modulesTitle')}</h2>
            <p>{t('admin.dashboard.modulesText')}</p>
          </div>
          <ul className="bo-modules">
            {modules.map((entry) => (
              <li key={entry.key}>
                <Link to={routerPath(entry.path)} className="bo-module">
                  <span className="bo-module-icon">
                    <Icon name={entry.icon} size={18} />
                  </span>
                  <span className="bo-module-text">
                    <span className="bo-module-title">
                      <strong>{t(`admin.menu.${entry.key}`)}</strong>
                      {entry.coming ? (
                        <span className="badge bo-badge-soon">{t('admin.common.comingSoon')}</span>
                      ) : null}
                    </span>
                    <span className="bo-module-desc">{t(`admin.module.${entry.key}.description`)}</span>
                  </span>
                  <Icon name="chevronRight" size={16} className="bo-module-go" />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
