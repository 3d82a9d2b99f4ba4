import { describe, expect, it } from 'vitest';
import { appRules, importEdge as edge, homeOf, type TRule } from '../../../../scripts/lib/import-graph.mjs';

// The portal's import rules (docs/frontend-structure.md): a feature imports only its own folder, lib/,
// components/ and app/; what two features share lives in lib/ or components/, which import no feature;
// and no file imports itself through others. `npm run cycles` prints the cycles of every app.
const SHARED = new Set(['lib', 'components', 'app']);
const feature = (file: string) => homeOf(file, 'features');
const inFeature = (file: string) => feature(file).startsWith('features/');

const FEATURE_RULE =
  'a feature imports only its own folder, lib/, components/ and app/ (move what two features share to lib/ or components/)';
const RULES: readonly TRule[] = [
  {
    rule: FEATURE_RULE,
    breaks: ({ from, to }) => inFeature(from) && feature(to) !== feature(from) && !SHARED.has(feature(to)),
  },
  {
    rule: 'lib/ and components/ import no feature',
    breaks: ({ from, to }) => (from.startsWith('lib/') || from.startsWith('components/')) && inFeature(to),
  },
];
const portal = appRules({ app: 'web', rules: RULES });

describe('portal import boundaries', () => {
  it('hold in apps/web/src: no feature imports another, no cycle', () => {
    const { files, edges, problems } = portal.checkApp();
    expect(files.length).toBeGreaterThan(50);
    expect(edges.length).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it('fail with the file and the rule when a feature imports another feature', () => {
    const problems = portal.check([
      edge('features/settings/ProfileTab.tsx', 'features/profile/AvatarField.tsx'),
      edge('features/settings/ProfileTab.tsx', 'lib/api.ts'),
      edge('features/profile/AvatarField.tsx', 'components/Icon.tsx', true),
    ]);
    expect(problems).toEqual([
      `apps/web/src/features/settings/ProfileTab.tsx imports apps/web/src/features/profile/AvatarField.tsx: ${FEATURE_RULE}`,
    ]);
  });

  it('count a type-only import across features, and a feature imported from lib/', () => {
    const problems = portal.check([
      edge('features/trade/Watchlist.tsx', 'features/markets/parts.tsx', true),
      edge('lib/store.tsx', 'features/markets/parts.tsx'),
    ]);
    expect(problems).toEqual([
      `apps/web/src/features/trade/Watchlist.tsx imports apps/web/src/features/markets/parts.tsx (type-only): ${FEATURE_RULE}`,
      'apps/web/src/lib/store.tsx imports apps/web/src/features/markets/parts.tsx: lib/ and components/ import no feature',
    ]);
  });

  it('fail on an import cycle, naming its files', () => {
    const cycle = [edge('lib/a.ts', 'lib/b.ts'), edge('lib/b.ts', 'lib/a.ts')];
    expect(portal.check([...cycle, edge('features/x/X.tsx', 'lib/a.ts')])).toEqual([
      'apps/web/src/lib/a.ts: import cycle apps/web/src/lib/a.ts -> apps/web/src/lib/b.ts -> apps/web/src/lib/a.ts ' +
        '(2 files in the cycle): no module may import itself through others',
    ]);
  });

  it('let a feature import its own folder, lib/, components/ and app/', () => {
    const targets = ['features/x/x.ts', 'lib/a.ts', 'components/C.tsx', 'app/paths.ts'];
    expect(portal.check(targets.map((to) => edge('features/x/X.tsx', to)))).toEqual([]);
  });
});
