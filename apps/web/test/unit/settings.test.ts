import { createTranslator } from '@broker/i18n/translator';
import { describe, expect, it } from 'vitest';
import de from '../../../../packages/i18n/locales/de.json';
import en from '../../../../packages/i18n/locales/en.json';
import { activeSection, paths } from '../../src/app/paths';
import {
  patchOf,
  rollBack,
  settingValue,
  type TSettings,
  withChange,
} from '../../src/features/settings/preference-change';
import { deviceName, groupSecret, signedOut } from '../../src/features/settings/settings-api';

const settings = (overrides: Partial<TSettings> = {}): TSettings => ({
  notification: {
    createOrder: true,
    closeOrder: true,
    pendingOrder: true,
    ringsOpen: false,
    alertPush: true,
    alertEmail: true,
  },
  klineColor: 1,
  display: { floatLayer: true, currentOrder: true, positionCost: true, historyOrder: true },
  theme: 'navy',
  ...overrides,
});

describe('settings screens', () => {
  it('give each tab an address under setting, which keeps the side menu on setting', () => {
    expect(paths.settings('en')).toBe('/en/personalCenter/setting');
    expect(paths.settings('de', 'security')).toBe('/de/personalCenter/setting/security');
    expect(activeSection(paths.settings('ja', 'feedback'))).toBe('setting');
    expect(activeSection('/en/personalCenter/setting')).toBe('setting');
  });

  it('save one changed setting at a time, so concurrent saves do not overwrite each other', () => {
    expect(patchOf({ field: 'notification', key: 'ringsOpen', value: true })).toEqual({
      notification: { ringsOpen: true },
    });
    expect(patchOf({ field: 'theme', value: 'white' })).toEqual({ theme: 'white' });
    const changed = withChange(settings(), { field: 'display', key: 'historyOrder', value: false });
    expect(changed.display).toEqual({ ...settings().display, historyOrder: false });
    expect(changed.notification).toEqual(settings().notification);
  });

  it('roll a failed change back unless the trader changed that setting again meanwhile', () => {
    const change = { field: 'klineColor', value: 0 } as const;
    const optimistic = withChange(settings(), change);
    expect(settingValue(rollBack(optimistic, change, 1), change)).toBe(1);
    // The trader went back and forth: their latest choice stays.
    const later = withChange(optimistic, { field: 'klineColor', value: 1 });
    expect(rollBack(later, change, 1)).toBe(later);
    // Another setting changed meanwhile is kept.
    const both = withChange(optimistic, { field: 'theme', value: 'dark' });
    expect(rollBack(both, change, 1)).toEqual(settings({ theme: 'dark' }));
  });

  it("translate the server's English device names around the browser and system", () => {
    const tEn = createTranslator('en', en);
    const tDe = createTranslator('de', de);
    expect(deviceName('Chrome on Windows', tEn)).toBe('Chrome on Windows');
    expect(deviceName('Chrome on Windows', tDe)).toBe('Chrome unter Windows');
    expect(deviceName('Safari on iPhone', tDe)).toBe('Safari unter iPhone');
    expect(deviceName('Unknown device', tDe)).toBe('Unbekanntes Gerät');
    expect(deviceName('API client', tDe)).toBe('App oder Skript');
    expect(deviceName('Browser on Linux', tDe)).toBe('Webbrowser unter Linux');
    expect(deviceName('Browser', tDe)).toBe('Webbrowser');
    expect(deviceName('Something new', tDe)).toBe('Something new');
  });

  it('show the two-factor key in groups of four and spot an ended session', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSW')).toBe('JBSW Y3DP EHPK 3PXP JBSW');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
    expect(signedOut({ code: -1001 })).toBe(true);
    expect(signedOut({ code: -1017 })).toBe(false);
  });
});
