import type { TRouteName } from '@broker/contracts/routes';
import type { ComponentType } from 'react';

export type TAreaRoutes = { [N in TRouteName]?: { path: string; mutates: boolean } };
export type TAreaPages = Partial<Record<string, ComponentType>>;
