import type { TRouteName } from '@broker/contracts/routes';
import type { ComponentType } from 'react';
import type { TRoute } from '../lib/api';

export type TAreaRoutes = { [N in TRouteName]?: TRoute };
export type TAreaPages = Partial<Record<string, ComponentType>>;

/** A call that only reads. */
export const read = (path: string) => ({ path, mutates: false });
/** A call that changes state (it carries the CSRF token). */
export const change = (path: string) => ({ path, mutates: true });
