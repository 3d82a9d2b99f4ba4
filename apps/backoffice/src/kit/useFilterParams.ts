import { useSearchParams } from 'react-router';

/**
 * The filters of a list kept in the address (so Back and a shared link keep them): `update` sets or
 * clears some (null or '' clears) and goes back to the first page unless it names the page or the
 * open item.
 */
export function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes))
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        if (!('page' in changes) && !('open' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return { params, update };
}

/** The address's value when it is one of the allowed ones, else undefined. */
export const pick = <T extends string>(value: string | null, allowed: readonly T[]): T | undefined =>
  allowed.find((v) => v === value);
