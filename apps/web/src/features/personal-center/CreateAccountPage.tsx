import { useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../app/paths';
import { Icon } from '../../components/Icon';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { newIdempotencyKey } from '../../lib/trading/orders';
import { useTrading } from '../../lib/trading/store';
import { createAccount, type TNewAccount, useCategories } from './accounts-api';
import { CreateAccountForm } from './CreateAccountForm';
import { SectionHeader } from './SectionHeader';

/**
 * Opening an account: type, trading mode and leverage, then one confirmation. The idempotency key
 * belongs to the confirmed choice, so a retry after a lost answer opens the account only once,
 * while a changed choice is a new request.
 */
export function Component() {
  const { t, lang } = useI18n();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // `?type=1` chooses the demo account (where registration leads, paths.openDemo).
  const chosenType = Number(params.get('type')) || undefined;
  const trading = useTrading();
  const categories = useCategories();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = useRef<{ choice: string; key: string } | null>(null);

  const confirm = async (choice: TNewAccount) => {
    const signature = JSON.stringify(choice);
    if (attempt.current?.choice !== signature)
      attempt.current = { choice: signature, key: newIdempotencyKey() };
    setBusy(true);
    setError(null);
    const answer = await createAccount(choice, attempt.current.key, lang);
    if (!answer.succeed || !answer.Data) {
      setBusy(false);
      setError(failureText(answer, t));
      // A refusal (a limit reached meanwhile) is final for this key; the counts may have changed.
      if (answer.code !== 0) {
        attempt.current = null;
        void categories.reload();
      }
      return;
    }
    await trading.reload();
    navigate(`${paths.personalCenter(lang, 'account/success')}?account=${answer.Data.account_id}`);
  };

  return (
    <div className="ac-page">
      <SectionHeader title={t('pc.create.title')} subtitle={t('accounts.create.subtitle')} />
      {categories.load.status === 'loading' && (
        <div className="ac-create-loading" aria-busy="true" data-testid="create-loading">
          <div className="skeleton ac-card-skeleton" />
          <div className="skeleton ac-card-skeleton" />
          <div className="skeleton ac-card-skeleton" />
        </div>
      )}
      {categories.load.status === 'failed' && (
        <div className="card st-inline-error" role="alert">
          <span>{categories.load.message}</span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void categories.reload()}>
            {t('common.retry')}
          </button>
        </div>
      )}
      {categories.load.status === 'ready' && (
        <CreateAccountForm
          categories={categories.load.data}
          initialType={chosenType}
          busy={busy}
          error={error}
          onConfirm={(choice) => void confirm(choice)}
        />
      )}
      <p className="pc-back">
        <Link to={paths.personalCenter(lang, 'account')}>
          <Icon name="arrowLeft" size={16} />
          {t('pc.create.back')}
        </Link>
      </p>
    </div>
  );
}
