import type { TRouteInput, TRouteOutput } from '@broker/contracts/routes';

export type TSettings = TRouteOutput<'settings'>;
export type TNotificationKey = keyof TSettings['notification'];
export type TDisplayKey = keyof TSettings['display'];

export const NOTIFICATION_KEYS: readonly TNotificationKey[] = [
  'createOrder',
  'closeOrder',
  'pendingOrder',
  'ringsOpen',
  'alertPush',
  'alertEmail',
];
export const DISPLAY_KEYS: readonly TDisplayKey[] = [
  'floatLayer',
  'currentOrder',
  'positionCost',
  'historyOrder',
];

/** One setting the trader changed; each change is saved on its own, at once. */
export type TChange =
  | { field: 'theme'; value: TSettings['theme'] }
  | { field: 'klineColor'; value: TSettings['klineColor'] }
  | { field: 'notification'; key: TNotificationKey; value: boolean }
  | { field: 'display'; key: TDisplayKey; value: boolean };

export function settingValue(settings: TSettings, change: TChange): TChange['value'] {
  switch (change.field) {
    case 'theme':
    case 'klineColor':
      return settings[change.field];
    case 'notification':
      return settings.notification[change.key];
    case 'display':
      return settings.display[change.key];
  }
}

export function withChange(settings: TSettings, change: TChange): TSettings {
  switch (change.field) {
    case 'theme':
      return { ...settings, theme: change.value };
    case 'klineColor':
      return { ...settings, klineColor: change.value };
    case 'notification':
      return { ...settings, notification: { ...settings.notification, [change.key]: change.value } };
    case 'display':
      return { ...settings, display: { ...settings.display, [change.key]: change.value } };
  }
}

/** The save call's input for one change: only that field, so concurrent saves do not undo each other. */
export function patchOf(change: TChange): TRouteInput<'savesettings'> {
  switch (change.field) {
    case 'theme':
      return { theme: change.value };
    case 'klineColor':
      return { klineColor: change.value };
    case 'notification':
      return { notification: { [change.key]: change.value } };
    case 'display':
      return { display: { [change.key]: change.value } };
  }
}

/**
 * Undoes a change that failed to save, unless the trader has changed that setting again since
 * (their newer choice wins; its own save decides).
 */
export function rollBack(settings: TSettings, change: TChange, previous: TChange['value']): TSettings {
  if (settingValue(settings, change) !== change.value) return settings;
  return withChange(settings, { ...change, value: previous } as TChange);
}
