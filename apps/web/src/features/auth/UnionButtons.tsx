import type { TRouteOutput } from '@broker/contracts/routes';
import { AppErrorCode } from '@broker/domain/result-codes';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { callRoute } from '../../lib/api';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { safeRedirect } from './redirect';

type TProvider = TRouteOutput<'oidcproviders'>[number];

/**
 * "Continue with <provider>" for each third-party sign-in provider of the broker (OpenID Connect).
 * The provider sends the browser back to the server, which signs in and goes on to `redirect`
 * (a same-site path, else the language home). Renders nothing while there are no providers.
 */
export function UnionButtons({ redirect }: { redirect: string | null }) {
  const { t, lang } = useI18n();
  const [providers, setProviders] = useState<TProvider[]>([]);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void callRoute('oidcproviders', {}, lang).then((answer) => {
      if (live && answer.succeed && answer.Data) setProviders(answer.Data);
    });
    return () => {
      live = false;
    };
  }, [lang]);

  if (providers.length === 0) return null;

  const start = async (provider: TProvider) => {
    setError(null);
    setLeaving(provider.slug);
    const answer = await callRoute(
      'unionstart',
      {
        slug: provider.slug,
        mode: 'login',
        lang,
        redirect: safeRedirect(redirect, lang, paths.home(lang)),
      },
      lang,
    );
    if (answer.succeed && answer.Data) {
      window.location.assign(answer.Data.url);
      return;
    }
    setLeaving(null);
    setError(failureText(answer, t));
  };

  return (
    <div className="union" data-testid="union-buttons">
      <div className="union-divider">
        <span>{t('union.or')}</span>
      </div>
      {providers.map((provider) => (
        <button
          key={provider.slug}
          type="button"
          className="btn btn-secondary btn-block union-button"
          disabled={leaving !== null}
          data-provider={provider.slug}
          onClick={() => void start(provider)}
        >
          {leaving === provider.slug ? (
            <span className="spinner pf-spinner-sm" />
          ) : (
            <span className="union-mark" aria-hidden="true">
              {provider.name.slice(0, 1).toUpperCase()}
            </span>
          )}
          {t('union.continueWith', { provider: provider.name })}
        </button>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The reason a third-party sign-in failed, from `?unionError=<code>` on the sign-in page. */
export function UnionError() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const code = params.get('unionError');
  if (!code) return null;
  const key = `errors.${code}`;
  const known = /^-\d{1,5}$/.test(code) && t(key) !== key;
  return (
    <div className="alert alert-error union-error" role="alert" data-testid="union-error">
      <p>{known ? t(key) : t(`errors.${AppErrorCode.IDENTITY_PROVIDER_FAILED}`)}</p>
      {/* An account with the provider's email exists: it is never taken over, its owner links it. */}
      {code === String(AppErrorCode.EMAIL_ALREADY_REGISTERED) && <p>{t('union.emailTaken')}</p>}
    </div>
  );
}
