import type { TUnwrapped } from '@broker/contracts/envelope';
import type { TRouteInput, TRouteName, TRouteOutput } from '@broker/contracts/routes';
import { AppErrorCode } from '@broker/domain/result-codes';
import type { TTranslate } from '@broker/i18n/translator';
import { useCallback } from 'react';
import { paths } from '../../app/paths';
import { callRoute } from '../../lib/api';
import { useI18n } from '../../lib/i18n';

export type TAnswer<N extends TRouteName> = TUnwrapped<TRouteOutput<N> | null>;

/** The signed-in trader's account as the security tab loads it once for its cards. */
export type TAccountLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; account: TRouteOutput<'userinfo'> };

/** A session ended elsewhere (revoked, password changed): the trader has to sign in again. */
export function signedOut(answer: { code: number }): boolean {
  return answer.code === AppErrorCode.TOKEN_INVALID;
}

/**
 * Calls a route for the settings screens. When the session has ended meanwhile the page goes to
 * sign-in with a way back, instead of showing an error the trader cannot fix here.
 */
export function useSettingsCall() {
  const { lang } = useI18n();
  return useCallback(
    async <N extends TRouteName>(name: N, input: TRouteInput<N>): Promise<TAnswer<N>> => {
      const answer = await callRoute(name, input, lang);
      if (signedOut(answer)) window.location.assign(paths.login(lang, window.location.pathname));
      return answer;
    },
    [lang],
  );
}

/**
 * The server names a device in English ("Chrome on Windows", "Unknown device"): the browser and
 * system names stay, the words around them are translated.
 */
export function deviceName(label: string, t: TTranslate): string {
  if (label === 'Unknown device') return t('settings.sessions.unknownDevice');
  const match = /^(Edge|Opera|Firefox|Chrome|Safari|API client|Browser)(?: on (.+))?$/.exec(label);
  if (!match) return label;
  const [, name = label, os] = match;
  const browser =
    name === 'API client'
      ? t('settings.sessions.apiClient')
      : name === 'Browser'
        ? t('settings.sessions.browser')
        : name;
  return os ? t('settings.sessions.deviceOn', { browser, os }) : browser;
}

/** True for phones and tablets, to pick the device's icon. */
export function isHandheld(label: string): boolean {
  return /\bon (iPhone|iPad|Android)$/.test(label);
}

/** A base32 secret in groups of four, easier to type into an authenticator app. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
