import { paths } from '../../app/paths';

/**
 * Only same-site paths under a language are accepted as return addresses; anything else goes to
 * the fallback (the personal centre after sign-in, unless a page says otherwise).
 */
export function safeRedirect(
  value: string | null,
  lang: string,
  fallback: string = paths.personalCenter(lang, 'account'),
): string {
  if (value && /^\/[A-Za-z-]{2,5}(\/[^\s]*)?$/.test(value) && !value.startsWith('//')) return value;
  return fallback;
}
