import { useCallback, useEffect, useState } from 'react';
import { failureText } from '../../lib/failure-text';
import { useI18n } from '../../lib/i18n';
import { LinkedAccounts } from './LinkedAccounts';
import { PasswordCard } from './PasswordCard';
import { SessionsCard } from './SessionsCard';
import { type TAccountLoad, useSettingsCall } from './settings-api';
import { TwoFactorCard } from './TwoFactorCard';

/** Password, two-factor sign-in, active sessions, and (separately) linked sign-in accounts. */
export function Component() {
  const { t } = useI18n();
  const call = useSettingsCall();
  const [account, setAccount] = useState<TAccountLoad>({ status: 'loading' });

  const load = useCallback(async () => {
    setAccount({ status: 'loading' });
    const answer = await call('userinfo', {});
    setAccount(
      answer.succeed && answer.Data
        ? { status: 'ready', account: answer.Data }
        : { status: 'failed', message: failureText(answer, t) },
    );
  }, [call, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const login = account.status === 'ready' ? (account.account.email ?? account.account.phone ?? '') : '';
  return (
    <div className="st-stack" data-testid="security">
      <PasswordCard login={login} />
      <TwoFactorCard account={account} onRetry={() => void load()} />
      <SessionsCard />
      <div className="st-separate">
        <LinkedAccounts />
      </div>
    </div>
  );
}
