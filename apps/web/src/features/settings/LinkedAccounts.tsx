import type { TRouteOutput } from '@broker/contracts/routes';
import { AppErrorCode } from '@broker/domain/result-codes';
import type { TTranslate } from '@broker/i18n/translator';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { ConfirmDialog, SettingsCard } from './controls';
import { useSettingsCall } from './settings-api';

type TProvider = TRouteOutput<'identities'>[number];
type TLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; providers: TProvider[] };
/**
 * A notice's text, or how to write it: one set as the page opens is translated when shown, since
 * its message may arrive with the page's whole catalog, after hydration (docs/i18n.md).
 */
type TNotice = { kind: 'info' | 'error'; text: string | ((t: TTranslate) => string) };

const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };

/**
 * Third-party sign-in accounts (OpenID Connect providers of the broker): link, replace or unlink.
 * Linking leaves for the provider and comes back here with `?union=bound|replaced` or
 * `?unionError=<code>`, shown once as a banner.
 */
export function LinkedAccounts() {
  const { t, lang, formatDate } = useI18n();
  const call = useSettingsCall();
  const [params, setParams] = useSearchParams();
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [notice, setNotice] = useState<TNotice | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [unlinking, setUnlinking] = useState<TProvider | null>(null);
  const [busy, setBusy] = useState(false);

  const fetchProviders = useCallback(async () => {
    const answer = await call('identities', {});
    if (!answer.succeed || !answer.Data) setLoad({ status: 'failed', message: failureText(answer, t) });
    else setLoad({ status: 'ready', providers: answer.Data });
  }, [call, t]);

  useEffect(() => {
    void fetchProviders();
  }, [fetchProviders]);

  // The result of a round trip to the provider, shown once: a reload does not show it again.
  useEffect(() => {
    const result = params.get('union');
    const error = params.get('unionError');
    if (!result && !error) return;
    if (result === 'bound' || result === 'replaced')
      setNotice({ kind: 'info', text: (tr) => tr(`union.${result}`) });
    else if (error) setNotice({ kind: 'error', text: (tr) => unionErrorText(error, tr) });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('union');
        next.delete('unionError');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [params, setParams]);

  const link = async (provider: TProvider) => {
    setNotice(null);
    setLeaving(provider.slug);
    const answer = await call('unionstart', {
      slug: provider.slug,
      mode: 'bind',
      lang,
      redirect: paths.settings(lang, 'security'),
    });
    if (answer.succeed && answer.Data) {
      window.location.assign(answer.Data.url);
      return;
    }
    setLeaving(null);
    setNotice({ kind: 'error', text: failureText(answer, t) });
  };

  const unlink = async () => {
    if (!unlinking) return;
    setBusy(true);
    const answer = await call('unbindidentity', { slug: unlinking.slug });
    setBusy(false);
    setNotice(
      answer.succeed
        ? { kind: 'info', text: t('union.unlinked', { provider: unlinking.name }) }
        : { kind: 'error', text: failureText(answer, t) },
    );
    setUnlinking(null);
    await fetchProviders();
  };

  return (
    <SettingsCard title={t('settings.linked.title')} text={t('union.text')} testId="linked-accounts">
      {notice && (
        <div
          className={`alert alert-${notice.kind} st-alert`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
          data-testid="union-notice"
          data-kind={notice.kind}
        >
          <span>{typeof notice.text === 'function' ? notice.text(t) : notice.text}</span>
          <button
            type="button"
            className="icon-button"
            aria-label={t('common.close')}
            onClick={() => setNotice(null)}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      {load.status === 'loading' && (
        <div className="pf-providers" aria-busy="true">
          <div className="skeleton st-skeleton-session" />
        </div>
      )}
      {load.status === 'failed' && (
        <div className="st-inline-error" role="alert">
          <span>{load.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void fetchProviders()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {load.status === 'ready' && load.providers.length === 0 && (
        <p className="st-muted">{t('union.noProviders')}</p>
      )}
      {load.status === 'ready' && load.providers.length > 0 && (
        <ul className="pf-providers" data-testid="providers">
          {load.providers.map((provider) => (
            <li
              key={provider.slug}
              className="pf-provider"
              data-testid="provider"
              data-provider={provider.slug}
              data-bound={!!provider.bound}
            >
              <span className="pf-provider-mark" aria-hidden="true">
                {provider.name.slice(0, 1).toUpperCase()}
              </span>
              <div className="pf-provider-main">
                <div className="pf-provider-title">
                  <strong>{provider.name}</strong>
                  {provider.bound && <span className="badge st-badge-on">{t('union.linked')}</span>}
                </div>
                <span className="pf-provider-meta" data-testid="provider-binding">
                  {provider.bound
                    ? t('union.boundAs', {
                        account: provider.bound.email ?? provider.bound.name ?? t('union.unnamedAccount'),
                        date: formatDate(new Date(provider.bound.boundAt), WHEN),
                      })
                    : t('union.notLinked')}
                </span>
              </div>
              <div className="pf-provider-actions">
                {provider.bound ? (
                  <>
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={leaving !== null}
                      data-testid="provider-replace"
                      onClick={() => void link(provider)}
                    >
                      {leaving === provider.slug ? <span className="spinner pf-spinner-sm" /> : null}
                      {t('union.replace')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm st-danger-outline"
                      disabled={leaving !== null}
                      data-testid="provider-unlink"
                      onClick={() => setUnlinking(provider)}
                    >
                      {t('union.unlink')}
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={leaving !== null}
                    data-testid="provider-link"
                    onClick={() => void link(provider)}
                  >
                    {leaving === provider.slug ? <span className="spinner pf-spinner-sm" /> : null}
                    {t('union.link')}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {unlinking && (
        <ConfirmDialog
          title={t('union.confirmTitle', { provider: unlinking.name })}
          text={t('union.confirmText', { provider: unlinking.name })}
          confirmLabel={t('union.unlink')}
          busy={busy}
          onConfirm={() => void unlink()}
          onCancel={() => setUnlinking(null)}
        />
      )}
    </SettingsCard>
  );
}

/** The translated message of a result code from the query string; unknown codes read as a provider failure. */
function unionErrorText(code: string, t: (key: string) => string): string {
  const key = `errors.${code}`;
  if (/^-\d{1,5}$/.test(code) && t(key) !== key) return t(key);
  return t(`errors.${AppErrorCode.IDENTITY_PROVIDER_FAILED}`);
}
