import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { migrate } from '../../src/db/migrate';
import { ensureDefaultTenant } from '../../src/modules/tenancy/tenancy';

describe('embedded PGlite on disk', () => {
  it('keeps data across a restart and applies each migration once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pglite-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      expect(first.kind).toBe('pglite');
      expect((await migrate(first)).length).toBeGreaterThan(0);
      const tenant = await ensureDefaultTenant({ db: first.db, name: 'Persisted Broker' });
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      expect(await migrate(second)).toEqual([]);
      const again = await ensureDefaultTenant({ db: second.db, name: 'Another Name' });
      expect(again).toEqual(tenant);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
