import type { TUnwrapped } from '@broker/contracts/envelope';
import { useEffect, useState } from 'react';
import type { TPhoneValue } from '../../components/PhoneField';
import { callRoute } from '../../lib/api';
import { solveCaptcha } from '../../lib/captcha';

export type TBindTarget = { email: string } | { phone: TPhoneValue };
export type TSendPhase = 'idle' | 'solving' | 'sending';

/**
 * Sends the code that proves a new email or phone (sendcode purpose `bind`) behind the
 * proof-of-work captcha, then counts down until another may be asked for. `send` answers the
 * failed call, or null once the code is on its way.
 */
export function useBindCode(lang: string) {
  const [phase, setPhase] = useState<TSendPhase>('idle');
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(0);
  const [sentTo, setSentTo] = useState<string | null>(null);

  useEffect(() => {
    if (resendAt <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  const send = async (target: TBindTarget): Promise<TUnwrapped<unknown> | null> => {
    setPhase('solving');
    try {
      const captcha = await solveCaptcha(lang);
      if ('failure' in captcha) return captcha.failure;
      setPhase('sending');
      const answer = await callRoute(
        'sendcode',
        { ...target, purpose: 'bind', captcha: captcha.solution },
        lang,
      );
      if (!answer.succeed || !answer.Data) return answer;
      const sentAt = Date.now();
      setSentTo(answer.Data.sentTo);
      setResendAt(sentAt + answer.Data.resendAfterSeconds * 1000);
      setNow(sentAt);
      return null;
    } finally {
      setPhase('idle');
    }
  };

  /** Forgets the code sent, when the address it went to changes. */
  const reset = () => {
    setSentTo(null);
    setResendAt(0);
  };

  return { phase, sentTo, secondsLeft: Math.max(0, Math.ceil((resendAt - now) / 1000)), send, reset };
}
