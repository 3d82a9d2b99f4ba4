import { describe, expect, it } from 'vitest';
import {
  appRules,
  importEdge as edge,
  homeOf,
  type TEdge,
  type TRule,
} from '../../../../scripts/lib/import-graph.mjs';

// The back office's import rules (docs/frontend-structure.md): lib/ imports only lib/ (no area, no
// shell); an area imports no other area; an area's routes.ts (its calls) imports nothing of its area, so
// the API client (src/api.ts) takes every area's calls without their pages; kit/ and components/ import
// no area; and no file imports itself through others (issue 16: the 57-file cycle through lib/api.ts).
const area = (file: string) => homeOf(file, 'areas');
const inArea = (file: string) => area(file).startsWith('areas/');
const isRouteList = (file: string) => inArea(file) && file.endsWith('/routes.ts');

const LIB_RULE = 'lib/ imports only lib/ (no area, no page, no shell)';
const AREA_RULE = 'an area imports no other area (shared pieces go to kit/, components/ or lib/)';
const ROUTES_RULE = "an area's routes.ts imports nothing of its area (the route list holds no page)";
const KIT_RULE = 'kit/ and components/ import no area';
const RULES: readonly TRule[] = [
  { rule: LIB_RULE, breaks: ({ from, to }) => from.startsWith('lib/') && !to.startsWith('lib/') },
  { rule: AREA_RULE, breaks: ({ from, to }) => inArea(from) && inArea(to) && area(from) !== area(to) },
  { rule: ROUTES_RULE, breaks: ({ from, to }) => isRouteList(from) && area(to) === area(from) },
  {
    rule: KIT_RULE,
    breaks: ({ from, to }) => (from.startsWith('kit/') || from.startsWith('components/')) && inArea(to),
  },
];
const backOffice = appRules({ app: 'backoffice', rules: RULES });

describe('back-office import boundaries', () => {
  it('hold in apps/backoffice/src: lib/ imports no area, every area has a route list, no cycle', () => {
    const { files, problems } = backOffice.checkApp();
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter(isRouteList)).toHaveLength(9);
    expect(problems).toEqual([]);
  });

  it('fail with the file and the rule when lib/ imports an area, and on the cycle that makes', () => {
    const problems = backOffice.check([
      edge('lib/api.ts', 'areas/access/index.ts'),
      edge('areas/access/index.ts', 'areas/access/StaffPage.tsx'),
      edge('areas/access/StaffPage.tsx', 'lib/api.ts'),
    ]);
    expect(problems).toEqual([
      `apps/backoffice/src/lib/api.ts imports apps/backoffice/src/areas/access/index.ts: ${LIB_RULE}`,
      'apps/backoffice/src/areas/access/StaffPage.tsx: import cycle apps/backoffice/src/areas/access/StaffPage.tsx' +
        ' -> apps/backoffice/src/lib/api.ts -> apps/backoffice/src/areas/access/index.ts' +
        ' -> apps/backoffice/src/areas/access/StaffPage.tsx (3 files in the cycle): no module may import itself through others',
    ]);
  });

  it('fail when an area imports another, when routes.ts imports a page, when kit/ imports an area', () => {
    const cases: [TEdge, string][] = [
      [edge('areas/risk/RiskPage.tsx', 'areas/market/format.ts'), AREA_RULE],
      [edge('areas/risk/routes.ts', 'areas/risk/RiskPage.tsx'), ROUTES_RULE],
      [edge('kit/Can.tsx', 'areas/market/format.ts', true), KIT_RULE],
    ];
    for (const [broken, rule] of cases) {
      const kind = broken.typeOnly ? ' (type-only)' : '';
      expect(backOffice.check([broken])).toEqual([
        `apps/backoffice/src/${broken.from} imports apps/backoffice/src/${broken.to}${kind}: ${rule}`,
      ]);
    }
  });

  it('let the shell take the route lists and the pages', () => {
    const problems = backOffice.check([
      edge('api.ts', 'areas/risk/routes.ts'),
      edge('areas/risk/routes.ts', 'areas/types.ts'),
      edge('areas/registry.ts', 'areas/risk/index.ts'),
      edge('areas/risk/index.ts', 'areas/types.ts', true),
    ]);
    expect(problems).toEqual([]);
  });
});
