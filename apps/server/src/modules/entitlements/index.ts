/** The entitlements module's public face: the only file other modules and the HTTP layer import. */

export type { TCount, TUsageCounters } from './packages';
export {
  applyPackage,
  assertWithinLimit,
  assignPackage,
  deletePackage,
  listPackages,
  myPackage,
  packageMax,
  savePackage,
} from './packages';
export { checkForUpdate, deleteVersion, listVersions, saveVersion } from './versions';
