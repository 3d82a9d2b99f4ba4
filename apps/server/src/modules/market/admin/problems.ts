import type { TConfigProblems } from '@broker/domain/market/market-config';
import { AppError, AppErrorCode } from '@broker/domain/result-codes';

/**
 * Portal catalogs translate field problems as `validation.<key>` in 16 languages; the back office
 * shows its own sentence for each TConfigProblem (it runs the same rules), so the wire carries the
 * nearest shared key: the volume format or a taken name where they apply, otherwise "not valid".
 */
const SHARED_KEY: Partial<Record<string, string>> = {
  lotsFormat: 'lotsFormat',
  tierLots: 'lotsFormat',
  nameTaken: 'nameTaken',
};

/** -6013 with the offending fields. */
/**
 * -6013 with the problems on their fields. With `clashGroup`, the terms are fine on their own but
 * break that account group's overrides, and the message names the group.
 */
export function configInvalid(
  problems: Record<string, string>,
  debug?: string,
  clashGroup?: string,
): AppError {
  const fields = Object.fromEntries(
    Object.entries(problems).map(([field, problem]) => [field, SHARED_KEY[problem] ?? 'invalid']),
  );
  return clashGroup === undefined
    ? new AppError(AppErrorCode.CONFIG_INVALID, undefined, debug ?? JSON.stringify(problems), fields)
    : new AppError(
        AppErrorCode.CONFIG_INVALID,
        { group: clashGroup },
        debug ?? JSON.stringify(problems),
        fields,
        'errors.-6013.groupClash',
      );
}

export function throwIfProblems(problems: TConfigProblems, debug?: string): void {
  if (Object.keys(problems).length > 0) throw configInvalid(problems, debug);
}
