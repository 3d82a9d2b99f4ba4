import { z } from 'zod';

/**
 * Who may call a route: anyone, a signed-in trader, or a signed-in back-office staff member
 * holding the named permission.
 */
export type TRouteAccess =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'staff'; permission: string | null };

export interface TRouteDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** The short route name used in the `Routes` header. */
  name: string;
  /** The `/api/v1/...` path. */
  path: string;
  access: TRouteAccess;
  input: I;
  output: O;
  /** True for calls that change state; they need the CSRF token when made with a cookie session. */
  mutates: boolean;
  /** Trading calls: they need a valid trade token in the `tradetoken` header (spec 6, 7.1). */
  trade?: boolean;
  summary: string;
}

export const define = <I extends z.ZodType, O extends z.ZodType>(route: TRouteDefinition<I, O>) => route;
export const empty = z.object({}).passthrough();
