import type { TUnwrapped } from '@broker/contracts/envelope';
import { useEffect, useState } from 'react';
import { callRoute } from '../../lib/api';
import { solveCaptcha } from '../../lib/captcha';
import type { TTargetInput } from './identity';

export type TSendPhase = 'idle' | 'solving' | 'sending';

/**
 * Sends a verification code behind the proof-of-work captcha, then counts down the 60 s before
 * another may be asked for. `send` answers the failed call, or null once the code is on its way.
 */
export function useSendCode(purpose: 'register' | 'reset', lang: string) {
  const [phase, setPhase] = useState<TSendPhase>('idle');
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(0);
  const [sentTo, setSentTo] = useState<string | null>(null);

  useEffect(() => {
    if (resendAt <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [resendAt]);

  const send = async (target: TTargetInput): Promise<TUnwrapped<unknown> | null> => {
    setPhase('solving');
    try {
      const captcha = await solveCaptcha(lang);
      if ('failure' in captcha) return captcha.failure;
      setPhase('sending');
      const answer = await callRoute('sendcode', { ...target, purpose, captcha: captcha.solution }, lang);
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

  return {
    phase,
    sentTo,
    secondsLeft: Math.max(0, Math.ceil((resendAt - now) / 1000)),
    send,
    reset,
  };
}
